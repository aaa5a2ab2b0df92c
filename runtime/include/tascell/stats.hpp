// Per-worker figures of the last root call (TASCELL_STATS=1 prints them to
// stderr at the end of every root call; last_stats() returns them).
#pragma once

#include <cstdint>
#include <vector>

namespace tascell {

struct worker_stats {
  std::int64_t work_ns = 0;      // running tasks (the root task or pieces received)
  std::int64_t idle_ns = 0;      // looking for work with nothing to do
  std::int64_t wait_ns = 0;      // at a join whose pieces run elsewhere, not helping
  std::int64_t steal_back_ns = 0;  // at a join, asking the thief of a piece for part of it back
  std::int64_t give_ns = 0;      // backtracking to hand work over (any time)
  std::int64_t requests_sent = 0;
  std::int64_t requests_refused = 0;  // of those sent, answered "no work"
  std::int64_t requests_served = 0;   // received and answered with work
  std::int64_t requests_declined = 0; // received and answered "no work"
  std::int64_t pieces_given = 0;
  std::int64_t pieces_received = 0;
  std::int64_t steal_backs = 0;       // pieces received from the thief of a piece being waited for
  std::int64_t suspends = 0;          // TASCELL_WAIT=suspend: times a fiber was switched out to run another
  // Lazy @dowork statements (lazy.hpp): requests that made the frames
  // unwind, and the frames saved and rebuilt for them. Printed on a line
  // of their own after the table (scripts read its columns by position).
  std::int64_t lazy_unwinds = 0;
  std::int64_t lazy_frames = 0;

  worker_stats& operator+=(const worker_stats& o);
};

struct run_stats {
  double seconds = 0;
  std::vector<worker_stats> workers;
  int rank = 0, processes = 1;
  std::int64_t bytes_sent = 0;     // to other processes
  std::int64_t messages_sent = 0;  // to other processes (requests, work, results, ...)
  std::int64_t batches_sent = 0;   // MPI sends that carried them
  // Times the message thread went to sleep and woke again (each wake-up
  // takes the core from a worker that shares it).
  std::int64_t wakeups = 0;
  // Requests for work this process posted to the workers of another process
  // on the same machine through shared memory (TASCELL_NODE_REQUESTS=shared);
  // the others went as MPI messages (in messages_sent).
  std::int64_t shared_requests = 0;
  // ... of which an idle worker posted itself, without waiting for its
  // message thread to wake (the others were posted by the message thread).
  std::int64_t worker_requests = 0;
  // Pieces this process gave to thieves on the same machine straight
  // through their mailboxes in shared memory (the others went as MPI
  // messages).
  std::int64_t mailed_pieces = 0;
  // Results of pieces from processes on the same machine that this process
  // wrote straight into their victims' rings in shared memory (the others
  // went as MPI messages).
  std::int64_t mailed_results = 0;
  // Pieces of work this process sent to other processes, and the bytes of
  // their inputs (what their clauses packed, without the protocol's
  // fields); results it sent back, and the bytes of their outputs.
  std::int64_t pieces_sent = 0, piece_bytes = 0;
  std::int64_t results_sent = 0, result_bytes = 0;
  // Distributed tables (table.hpp): updates this process sent to the
  // owners of entries in other processes, the batches that carried them
  // (one message each), and updates from other processes applied here.
  std::int64_t table_updates = 0;
  std::int64_t table_batches = 0;
  std::int64_t table_updates_applied = 0;
  // Steals from other processes: request sent -> work taken by a worker.
  std::vector<std::int64_t> remote_steal_ns;
  worker_stats total() const;
};

// Figures of the last completed root call.
run_stats last_stats();

}  // namespace tascell
