// The transport of a real run: MPI point-to-point messages on
// MPI_COMM_WORLD, sent with MPI_Isend (several in flight, each reaped with
// MPI_Test) and received with MPI_Iprobe + MPI_Recv of a message that has
// already arrived, so the message thread never blocks in MPI. It also owns
// MPI's set-up and end: initialisation (MPI_THREAD_FUNNELED: only the
// message thread calls MPI), the processes of this machine, the check that
// every process runs the same binary, the alignment of trace clocks, and
// MPI_Finalize.
#pragma once

#include <mpi.h>

#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "../trace.hpp"
#include "remote_bell.hpp"
#include "slow_link.hpp"
#include "thread_priority.hpp"
#include "transport.hpp"

// Batches travel with tag mpi_tag (frame.hpp).

namespace tascell::detail::net {

// The text of an MPI error code.
std::string mpi_error(int rc);

// How this process's CPUs (its affinity) relate to those of the other
// processes of the run on this machine.
enum class cpu_sharing { alone, same, disjoint, overlapping };

class mpi_transport final : public transport {
 public:
  // Initialises MPI on the calling thread (the message thread), which alone
  // calls MPI from then on. nullptr, with the reason in `error`, when MPI
  // cannot be had with MPI_THREAD_FUNNELED.
  static std::unique_ptr<mpi_transport> start(std::string& error);
  // MPI_Finalize (collective: every process, at exit).
  void finish();
  ~mpi_transport();
  int rank() const { return rank_; }
  int size() const { return size_; }

  // The processes of the run on this machine (MPI_COMM_TYPE_SHARED): a
  // communicator for the collective set-up of shared memory (doorbell.hpp,
  // shared_requests.hpp), to be freed with free_machine; this process's
  // rank and their number; how its CPUs relate to theirs. ok is false
  // when MPI could not split the processes (then alone).
  struct machine {
    MPI_Comm node = MPI_COMM_NULL;
    int rank = 0, size = 1;
    std::vector<int> members;  // their ranks in MPI_COMM_WORLD (this one's included)
    cpu_sharing cpus = cpu_sharing::alone;
    bool ok = false;
  };
  machine this_machine();
  static void free_machine(machine& m);
  // Every process must run the same executable: kinds of work are known by
  // ids derived from the binary, and values travel as its types' bytes.
  // Ends the run (every process) naming the rank that differs.
  void check_same_binary();
  // Where this process's clock stands against rank 0's (Cristian's method,
  // collective): the trace's common timeline.
  trace_clock align_clocks();

  // For tests and measurements (TASCELL_NET_DELAY_US,
  // TASCELL_NET_BANDWIDTH_MBIT): every batch to a rank r with delayed[r]
  // waits until `link` says it is due before its MPI_Isend (in reap()), in
  // the order sent. The message thread's sleep ends in time for the next
  // (next_due).
  void delay_to(std::vector<bool> delayed, slow_link link);
  // A message longer than MPI sends at once (over shared memory, 4 KiB) is
  // received in a wait that lasts until its sender's MPI moves the rest: the
  // thread leaves real-time priority for it (taken again before it sleeps),
  // or, spinning at real-time priority, it keeps a sender on its core from
  // ever moving it.
  void leave_priority_for_long_receives(thread_priority* p) { priority_ = p; }
  // Rings the receiver's bell on another machine just before the
  // MPI_Isend of every batch but a quiet one (remote_bell.hpp): when it is
  // sent, so after a delay too. Collective: every process publishes its card (an
  // empty one unless it `wants` to be rung); false when not every process
  // has a socket (then no one rings).
  bool ring_other_machines(remote_bell& bell, const std::vector<bool>& remote, bool wants);
  bool holding() const { return !held_.empty(); }
  time_point next_due() const { return held_.front().due; }

  void send(int to, std::string batch) override;
  bool reap() override;
  bool sending() const override { return !sending_.empty() || !held_.empty(); }
  bool receive(int& from, std::string& batch) override;
  [[noreturn]] void abort(const std::string& cause) override;
  time_point now() const override { return std::chrono::steady_clock::now(); }

 private:
  struct in_flight {
    std::string buf;
    void* req;  // MPI_Request, opaque here
  };
  struct held {
    time_point due;
    int to;
    std::string buf;
  };
  explicit mpi_transport(int rank, int size) : rank_(rank), size_(size) {}
  void isend(int to, std::string batch);
  int rank_, size_;
  std::deque<in_flight> sending_;
  std::deque<held> held_;  // by due time (one link for all)
  std::vector<bool> delayed_;
  slow_link link_;
  thread_priority* priority_ = nullptr;
  remote_bell* bell_ = nullptr;
};

}  // namespace tascell::detail::net
