// What the message loop (network.hpp) offers the protocols (steal_protocol,
// table_protocol) besides the outbox: its clock, its doorbell and those of
// the machine's other processes, worker 0's attention, the message
// thread's turn for a worker to take, tracing and fatal errors. The
// network implements it; the protocol simulation (tests/sim/) gives each
// simulated process a network of its own over a simulated transport.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "../trace.hpp"

namespace tascell::detail::net {

class loop_services {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  virtual time_point now() const = 0;
  [[noreturn]] virtual void fatal(const std::string& cause) = 0;
  // Rings this process's message thread (any thread).
  virtual void wake() = 0;
  // Rings the message thread of `rank` on this machine (no message).
  virtual void nudge(int rank) = 0;
  // Calls worker 0 to its next poll (attention), waking it if it naps.
  virtual void call_worker() = 0;
  // The message thread spins on a worker's step of a few atomics: lets the
  // worker, which may share its core, run (leaving real-time priority).
  virtual void step_aside() = 0;
  // The runtime's workers exist (network::attach).
  virtual bool attached() const = 0;
  // The message thread's turn, taken by a worker while the thread is not in
  // one (it holds it for each turn and for the look before it sleeps): the
  // worker does the bookkeeping of the turn it would otherwise ring for
  // (steal_thief::settle_take). False when the thread is in a turn.
  virtual bool try_take_turn() = 0;
  virtual void end_taken_turn() = 0;
  virtual bool tracing() const = 0;
  virtual void note(trace_type t, std::uint64_t id, std::int32_t a, std::int64_t b = 0, std::int64_t c = 0) = 0;
  virtual void note_at(std::int64_t when, trace_type t, std::uint64_t id, std::int32_t a, std::int64_t b = 0,
                       std::int64_t c = 0) = 0;

 protected:
  ~loop_services() = default;
};

}  // namespace tascell::detail::net
