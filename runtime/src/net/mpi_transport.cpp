#include "mpi_transport.hpp"

#include <mpi.h>

#include <sched.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "frame.hpp"

namespace tascell::detail::net {
namespace {

std::uint64_t hash_file(const char* path, std::string& error) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    error = std::string("cannot read ") + path;
    return 0;
  }
  std::uint64_t h = 0xcbf29ce484222325ull;
  char buf[1 << 16];
  while (f) {
    f.read(buf, sizeof buf);
    for (std::streamsize i = 0; i < f.gcount(); ++i) {
      h ^= static_cast<unsigned char>(buf[i]);
      h *= 0x100000001b3ull;
    }
  }
  return h;
}

}  // namespace

std::string mpi_error(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) return "MPI error " + std::to_string(rc);
  return std::string(text, static_cast<std::size_t>(len));
}

std::unique_ptr<mpi_transport> mpi_transport::start(std::string& error) {
  int provided = 0;
  int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  if (rc != MPI_SUCCESS) {
    error = "tascell: MPI_Init_thread failed: " + mpi_error(rc);
    return nullptr;
  }
  if (provided < MPI_THREAD_FUNNELED) {
    error = "tascell: this MPI does not grant MPI_THREAD_FUNNELED (it granted level " + std::to_string(provided) +
            ")";
    return nullptr;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return std::unique_ptr<mpi_transport>(new mpi_transport(rank, size));
}

void mpi_transport::finish() { MPI_Finalize(); }

mpi_transport::machine mpi_transport::this_machine() {
  machine m;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &m.node) != MPI_SUCCESS)
    return m;
  m.ok = true;
  MPI_Comm_rank(m.node, &m.rank);
  MPI_Comm_size(m.node, &m.size);
  m.members.assign(static_cast<std::size_t>(m.size), -1);
  if (MPI_Allgather(&rank_, 1, MPI_INT, m.members.data(), 1, MPI_INT, m.node) != MPI_SUCCESS) m.members = {rank_};
  // Did mpirun bind the processes to CPUs of their own, or do they all see
  // the same CPUs (the runtime then splits them, runtime.cpp)?
  cpu_set_t mine;
  CPU_ZERO(&mine);
  sched_getaffinity(0, sizeof mine, &mine);
  std::vector<cpu_set_t> all(static_cast<std::size_t>(m.size));
  if (m.size > 1 &&
      MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, m.node) == MPI_SUCCESS) {
    bool same = true, disjoint = true;
    for (int r = 0; r < m.size; ++r) {
      if (r == m.rank) continue;
      cpu_set_t both;
      CPU_AND(&both, &mine, &all[static_cast<std::size_t>(r)]);
      same = same && CPU_EQUAL(&mine, &all[static_cast<std::size_t>(r)]);
      disjoint = disjoint && CPU_COUNT(&both) == 0;
    }
    m.cpus = same ? cpu_sharing::same : disjoint ? cpu_sharing::disjoint : cpu_sharing::overlapping;
  }
  return m;
}

void mpi_transport::free_machine(machine& m) {
  if (m.node != MPI_COMM_NULL) MPI_Comm_free(&m.node);
}

void mpi_transport::check_same_binary() {
  std::string error;
  std::uint64_t mine = hash_file("/proc/self/exe", error);
  std::vector<std::uint64_t> all(static_cast<std::size_t>(size_));
  int rc = MPI_Allgather(&mine, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) abort("MPI_Allgather at start-up failed: " + mpi_error(rc));
  for (int r = 0; r < size_; ++r) {
    if (all[static_cast<std::size_t>(r)] == all[0]) continue;
    char text[200];
    std::snprintf(text, sizeof text,
                  "rank %d runs a different binary than rank 0 (executable hash %016llx against "
                  "%016llx): start every process with the same executable",
                  r, static_cast<unsigned long long>(all[static_cast<std::size_t>(r)]),
                  static_cast<unsigned long long>(all[0]));
    std::fprintf(stderr, "tascell: rank %d: %s\n", rank_, text);
    std::fflush(stderr);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::_Exit(1);
  }
}

// Cristian's method: each rank asks rank 0 for its clock K times; the answer
// with the shortest round trip is the best estimate, rank 0's reading being
// taken at the middle of that round trip, within half of it. Rank 0 also
// sends its clock reading at the start: the trace's zero on every process.
trace_clock mpi_transport::align_clocks() {
  constexpr int rounds = 16;
  constexpr int tag = mpi_tag + 1;
  trace_clock clock;
  std::int64_t now = trace_now();
  if (rank_ == 0) {
    clock = {now, true, 0, 0};
    for (int r = 1; r < size_; ++r)
      for (int k = 0; k < rounds; ++k) {
        char ping;
        int rc = MPI_Recv(&ping, 1, MPI_BYTE, r, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) abort("MPI_Recv while aligning clocks failed: " + mpi_error(rc));
        std::int64_t reply[2] = {trace_now(), clock.origin_ns};
        rc = MPI_Send(reply, 2, MPI_INT64_T, r, tag, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) abort("MPI_Send while aligning clocks failed: " + mpi_error(rc));
      }
    return clock;
  }
  std::int64_t best = INT64_MAX;
  for (int k = 0; k < rounds; ++k) {
    char ping = 0;
    std::int64_t t1 = trace_now();
    int rc = MPI_Send(&ping, 1, MPI_BYTE, 0, tag, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) abort("MPI_Send while aligning clocks failed: " + mpi_error(rc));
    std::int64_t reply[2];
    rc = MPI_Recv(reply, 2, MPI_INT64_T, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) abort("MPI_Recv while aligning clocks failed: " + mpi_error(rc));
    std::int64_t t2 = trace_now();
    if (t2 - t1 < best) {
      best = t2 - t1;
      std::int64_t offset = reply[0] - (t1 + (t2 - t1) / 2);
      clock = {reply[1] - offset, true, offset, best / 2};
    }
  }
  return clock;
}

mpi_transport::~mpi_transport() {
  for (in_flight& f : sending_) delete static_cast<MPI_Request*>(f.req);
}

void mpi_transport::delay_to(std::vector<bool> delayed, slow_link link) {
  delayed_ = std::move(delayed);
  link_ = link;
}

bool mpi_transport::ring_other_machines(remote_bell& bell, const std::vector<bool>& remote, bool wants) {
  remote_bell::card mine = wants ? bell.open_socket() : remote_bell::card{};
  std::vector<remote_bell::card> cards(static_cast<std::size_t>(size_));
  int rc = MPI_Allgather(&mine, sizeof mine, MPI_BYTE, cards.data(), sizeof mine, MPI_BYTE, MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) abort("MPI_Allgather of the doorbells' addresses failed: " + mpi_error(rc));
  if (!bell.place(rank_, cards, remote)) return false;
  bell_ = &bell;
  return true;
}

void mpi_transport::send(int to, std::string batch) {
  if (link_.slows() && static_cast<std::size_t>(to) < delayed_.size() && delayed_[static_cast<std::size_t>(to)]) {
    time_point due = link_.due(now(), batch.size());
    held_.push_back({due, to, std::move(batch)});
    return;
  }
  isend(to, std::move(batch));
}

void mpi_transport::isend(int to, std::string batch) {
  // The ring first: waking the receiver (tens of microseconds on a VM)
  // overlaps the send, which over TCP runs the receiving side's network
  // stack in this call too. A receiver that looks before the batch is
  // there knows it is on its way (remote_bell::rung_not_received).
  if (bell_ && batch_rings(batch)) bell_->ring(to);
  sending_.push_back({std::move(batch), new MPI_Request});
  in_flight& f = sending_.back();
  int rc = MPI_Isend(f.buf.data(), static_cast<int>(f.buf.size()), MPI_BYTE, to, mpi_tag, MPI_COMM_WORLD,
                     static_cast<MPI_Request*>(f.req));
  if (rc != MPI_SUCCESS) abort("MPI_Isend to rank " + std::to_string(to) + " failed: " + mpi_error(rc));
}

bool mpi_transport::reap() {
  bool any = false;
  if (!held_.empty()) {
    time_point t = now();
    while (!held_.empty() && held_.front().due <= t) {
      isend(held_.front().to, std::move(held_.front().buf));
      held_.pop_front();
      any = true;
    }
  }
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
  if (n > 4096 && priority_) priority_->leave();
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
