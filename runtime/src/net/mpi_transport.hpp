// The transport of a real run: MPI point-to-point messages on
// MPI_COMM_WORLD, sent with MPI_Isend (several in flight, each reaped with
// MPI_Test) and received with MPI_Iprobe + MPI_Recv of a message that has
// already arrived, so the message thread never blocks in MPI.
#pragma once

#include <deque>
#include <string>

#include "transport.hpp"

// Batches travel with tag mpi_tag (frame.hpp).

namespace tascell::detail::net {

// The text of an MPI error code.
std::string mpi_error(int rc);

class mpi_transport final : public transport {
 public:
  explicit mpi_transport(int rank) : rank_(rank) {}
  ~mpi_transport();
  void send(int to, std::string batch) override;
  bool reap() override;
  bool sending() const override { return !sending_.empty(); }
  bool receive(int& from, std::string& batch) override;
  [[noreturn]] void abort(const std::string& cause) override;
  time_point now() const override { return std::chrono::steady_clock::now(); }

 private:
  struct in_flight {
    std::string buf;
    void* req;  // MPI_Request, opaque here
  };
  int rank_;
  std::deque<in_flight> sending_;
};

}  // namespace tascell::detail::net
