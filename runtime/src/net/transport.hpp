// How batches of messages travel between processes. The message thread
// (network.hpp) calls it, and only the message thread. In a real run it is
// MPI (mpi_transport.hpp); the protocol simulation (tests/sim/) delivers
// batches itself, in an order a seed chooses, on a clock of its own.
#pragma once

#include <chrono>
#include <string>

namespace tascell::detail::net {

class transport {
 public:
  using time_point = std::chrono::steady_clock::time_point;

  // Starts sending one batch to rank `to`; returns at once. Batches from one
  // process to another arrive in the order they were sent (as MPI's do).
  virtual void send(int to, std::string batch) = 0;
  // Completes the sends that have finished; true when any did.
  virtual bool reap() = 0;
  // A send has not completed yet.
  virtual bool sending() const = 0;
  // One batch that has arrived, if any: its sender and its bytes.
  virtual bool receive(int& from, std::string& batch) = 0;
  // Ends the run in every process (after the cause was said).
  [[noreturn]] virtual void abort(const std::string& cause) = 0;
  // The clock every timeout of the protocols reads (the pause between
  // requests, the watchdog); any thread.
  virtual time_point now() const = 0;

 protected:
  ~transport() = default;
};

}  // namespace tascell::detail::net
