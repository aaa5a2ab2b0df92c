// Several processes, as the runtime sees them: one object per process with
// the calls of its workers (take work, a piece finished or cancelled, wake,
// incumbents, board writes), of the thread that makes root calls, and of
// statistics and tracing. Behind it, one message thread per process does
// every MPI call (MPI_THREAD_FUNNELED): its loop (turn, pause), the events
// workers post, the batches (outbox) and the transport are here; the
// protocols it runs have their own classes and state: root_protocol.hpp
// (root calls, incumbents, the board) and steal_protocol.hpp (requests,
// proxies, steal-backs, pieces, results). docs/architecture.md "Several
// processes" and docs/message-thread.md have the protocols and why they
// cannot deadlock.
#pragma once

#include <iosfwd>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../settings.hpp"
#include "../trace.hpp"
#include "backoff.hpp"
#include "batches.hpp"
#include "event_queue.hpp"
#include "frame.hpp"
#include "host.hpp"
#include "loop_resources.hpp"
#include "message_trace.hpp"
#include "mpi_transport.hpp"
#include "outbox.hpp"
#include "protocol_log.hpp"
#include "remote_bell.hpp"
#include "root_calls.hpp"
#include "root_protocol.hpp"
#include "shared_requests.hpp"
#include "steal_protocol.hpp"
#include "table_protocol.hpp"
#include "transport.hpp"
#include "worker_link.hpp"

namespace tascell::detail::net {

// True when the program was started by mpirun (or TASCELL_MPI=1).
bool launched_by_mpi(const settings& cfg);

// Set by the SIGUSR1 handler (network::catch_dump_signal), read by the
// message thread.
extern std::atomic<bool> dump_asked;

class network final {
 public:
  // Starts the message thread, which initialises MPI and checks that every
  // process runs the same binary; returns once the ranks are known.
  network(host& h, const settings& cfg);
  // A simulated process `rank` of `size` (tests/sim/): no message thread and
  // no MPI. The caller runs the message thread's turns (turn()) and carries
  // the batches (`link`). The host's workers exist already (attach()).
  network(host& h, const settings& cfg, transport& link, int rank, int size);
  ~network();  // finalises MPI (collectively, at exit)

  // One turn of the message thread's loop: what workers handed over, what
  // arrived, what to ask and answer. True when it did something.
  bool turn();
  // Simulated processes on one machine (tests/sim/): requests between them
  // are posted through `objects`, one per process, each
  // shared_layout::object_bytes() long, zeroed, with this process's
  // workers already placed in its own (shared_requests::attach_for_testing).
  void share_requests_for_testing(const std::vector<char*>& objects);

  // Where this process is: its rank among the run's, and among those of
  // its machine, and how its CPUs relate to theirs (mpi_transport.hpp).
  using cpu_sharing = net::cpu_sharing;
  struct placement {
    int rank = 0, size = 1;
    int local_rank = 0, local_size = 1;
    cpu_sharing cpus = cpu_sharing::alone;
  };
  const placement& where() const { return at_; }
  // The message thread runs at real-time priority (TASCELL_MSG_PRIORITY).
  bool realtime() { return loop_.priority().realtime(); }
  // Rings heard from processes on other machines so far (remote_bell.hpp),
  // or -1 when this process is not rung (TASCELL_REMOTE_WAKE=poll, or every
  // process on this machine).
  std::int64_t rings_from_afar() const { return remote_.is_open() ? remote_.rings_heard() : -1; }
  // Before worker i is constructed at `region`: its first page is mapped
  // from this process's shared-memory object, when there is one.
  void place_worker(int i, void* region);

  // --- called by workers (worker_link.hpp) ---
  worker_link& workers() { return workers_; }
  // The runtime's workers exist: the message thread may look at them.
  void attach() {
    tables_.set_worker_applies(at_.size > 1 && host_.workers() == 1);
    loop_.attach(true);
  }
  // The workers are about to go: sends on what workers posted last (the
  // statistics of the last root call), then stops looking at the workers;
  // returns when the message thread no longer does.
  void detach();

  // Distributed tables: their messages (any thread hands them over).
  table_protocol& tables() { return tables_; }

  // --- root calls (the calling thread; root_calls.hpp) ---
  root_calls& roots() { return roots_; }

  // Figures since the start, read at once (the runtime takes differences
  // per root call; the protocol simulation sums them over its processes).
  struct counts {
    std::int64_t bytes = 0, messages = 0, batches = 0;
    std::int64_t wakeups = 0;  // sleeps of the message thread (pause)
    // Requests for work posted through shared memory, and those of them an
    // idle worker posted itself (post_request).
    std::int64_t requests_posted = 0, requests_posted_by_workers = 0;
    // Pieces this process gave through a thief's mailbox (mail_piece);
    // results it wrote into victims' rings (mail_result); results a worker
    // of this process took from its own ring at a join.
    std::int64_t pieces_mailed = 0, results_mailed = 0, results_taken_by_workers = 0;
    // Pieces and results sent by MPI, and their bytes.
    std::int64_t pieces = 0, piece_bytes = 0, results = 0, result_bytes = 0;
    // Incumbent improvements that came for a root call this process had not
    // begun, held until it began, and those of them that improved it.
    std::uint64_t incumbents_held_early = 0, incumbents_held_improved = 0;
  };
  counts figures() const;
  std::vector<std::int64_t> take_steal_latencies() { return steal_.thief().take_steal_latencies(); }

  // Tracing: the message thread's records (taken once, at exit, after
  // detach()) and how this process's clock maps to the common timeline.
  message_trace& trace() { return loop_.trace(); }

  // What the message thread knows of this process's pieces, requests,
  // proxies and workers, on stderr (the SIGUSR1 dump; the message thread,
  // or a simulation's caller).
  void describe_all();

  // Test hook: sends raw bytes to a rank as if they were a batch.
  void send_raw(int to, std::string bytes);
  // The lock of the message thread's turn (tests/sim/ holds it while a
  // worker steps, as if the thread were in a turn on another core).
  std::mutex& turn_lock_for_testing() { return loop_.turn_lock(); }

 private:
  using event = event_queue::event;
  void thread_main();
  void init_mpi(std::string& error);  // error: why it failed
  // The loop's steps; each returns true when it did something.
  bool receive_all();
  bool take_events();
  bool tend_root();
  bool reap_sends();
  void pause();

  void handle_batch(int from, const std::string& buf);
  void handle(int from, reader& r);
  host& host_;
  settings cfg_;
  // How batches travel: MPI (made by the message thread, which alone calls
  // MPI), or a simulation's.
  // (loop_.link() is the one in use.)
  std::unique_ptr<mpi_transport> mpi_;
  placement at_;
  std::thread thread_;
  // The message thread has set up MPI, or failed to (the error).
  std::promise<std::string> started_;

  // The last turn gave local workers something to do (steal_protocol's
  // posted_local or filled_inbox then).
  bool gave_workers_work_ = false;
  // The transport, the doorbell, the turn's lock, the attached flag, the
  // priority and the trace, lent to the protocols as loop_services (the
  // batches are constructed after it; it reads them only later).
  loop_resources loop_{host_, out_};
  // Events from workers and from the thread that makes root calls.
  event_queue events_{loop_.bell()};
  rings_heard rings_;
  // Rings from other machines (remote_bell.hpp): open when init_mpi set it
  // up (some process is on another machine); the transport rings with it.
  remote_bell remote_;
  std::atomic<bool> shutdown_{false};
  // SIGUSR1 (mpirun forwards it to every process): the message thread says
  // what this process has out and in, and what each worker is doing
  // (describe.cpp). Installed only over the default action.
  void catch_dump_signal();
  // The last steps of asking and receiving (SIGUSR1 and internal errors).
  protocol_log log_;
  // Messages, batched per destination (batches.hpp).
  batches out_{cfg_.loop == message_loop::seed, host_, loop_.attached_flag(), loop_.bell(), loop_.trace()};
  // Root calls, incumbents and the board (root_protocol.hpp); stealing
  // (steal_protocol.hpp).
  root_protocol root_{host_, cfg_, out_, log_};
  steal_protocol steal_{host_, cfg_, out_, log_, root_, loop_};
  // Distributed tables (table_protocol.hpp).
  table_protocol tables_{out_, loop_};
  // What workers, and the thread that makes root calls, ask of this
  // network (worker_link.hpp, root_calls.hpp).
  worker_link workers_{steal_, events_, loop_.bell()};
  root_calls roots_{events_, root_};

  // --- message thread only ---
  backoff sleep_;  // how long pause() sleeps; its wake-ups
};

}  // namespace tascell::detail::net
