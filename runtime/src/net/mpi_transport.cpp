#include "mpi_transport.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

#include "frame.hpp"

namespace tascell::detail::net {

std::string mpi_error(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) return "MPI error " + std::to_string(rc);
  return std::string(text, static_cast<std::size_t>(len));
}

mpi_transport::~mpi_transport() {
  for (in_flight& f : sending_) delete static_cast<MPI_Request*>(f.req);
}

void mpi_transport::send(int to, std::string batch) {
  sending_.push_back({std::move(batch), new MPI_Request});
  in_flight& f = sending_.back();
  int rc = MPI_Isend(f.buf.data(), static_cast<int>(f.buf.size()), MPI_BYTE, to, mpi_tag, MPI_COMM_WORLD,
                     static_cast<MPI_Request*>(f.req));
  if (rc != MPI_SUCCESS) abort("MPI_Isend to rank " + std::to_string(to) + " failed: " + mpi_error(rc));
}

bool mpi_transport::reap() {
  bool any = false;
  for (auto it = sending_.begin(); it != sending_.end();) {
    int done = 0;
    int rc = MPI_Test(static_cast<MPI_Request*>(it->req), &done, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) abort("a send failed: " + mpi_error(rc));
    if (done) {
      delete static_cast<MPI_Request*>(it->req);
      it = sending_.erase(it);
      any = true;
    } else {
      ++it;
    }
  }
  return any;
}

bool mpi_transport::receive(int& from, std::string& batch) {
  int flag = 0;
  MPI_Status st;
  int rc = MPI_Iprobe(MPI_ANY_SOURCE, mpi_tag, MPI_COMM_WORLD, &flag, &st);
  if (rc != MPI_SUCCESS) abort("MPI_Iprobe failed: " + mpi_error(rc));
  if (!flag) return false;
  int n = 0;
  MPI_Get_count(&st, MPI_BYTE, &n);
  batch.resize(static_cast<std::size_t>(n));
  rc = MPI_Recv(batch.data(), n, MPI_BYTE, st.MPI_SOURCE, mpi_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) abort("MPI_Recv from rank " + std::to_string(st.MPI_SOURCE) + " failed: " + mpi_error(rc));
  from = st.MPI_SOURCE;
  return true;
}

void mpi_transport::abort(const std::string& cause) {
  std::fprintf(stderr, "tascell: rank %d: %s\n", rank_, cause.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

}  // namespace tascell::detail::net
