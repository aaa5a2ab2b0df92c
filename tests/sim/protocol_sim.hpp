// The protocol between processes under a simulated network: several
// processes in one test process, on one thread, each with its real
// net::network (the message thread's turns, the proxies, the requests
// posted through shared memory, the armed requests workers post) and with
// simulated workers that follow the runtime's rules for the shared words
// (requester, reply, attention, hungry, busy) on a tree-shaped program.
//
// A seed chooses every step: which worker steps, which message thread
// turns, which batch in flight is delivered (batches between two
// processes arrive in the order they were sent, as MPI's do), and where a
// worker is preempted inside the runtime's own code (the claim window of
// steal_thief::post_request). One seed replays one interleaving exactly.
//
// Checked after every step: no piece runs twice. At the end of every root
// call: rank 0's answer is the sequential one. With config::tables, the
// table protocol too (net/table_protocol.hpp): see there. And the run must end
// within a number of steps: a lost piece or a request nobody answers ends
// it as a hang, with every process's SIGUSR1 dump on stderr.
#pragma once

#include <cstdint>
#include <string>

namespace tascell::sim {

struct config {
  int processes = 2;
  int workers = 1;           // per process
  bool shared = true;        // requests between processes through shared memory (one machine)
  int depth = 9;             // the tree: leaves at this depth
  int branch = 2;            // children of an inner node
  int root_calls = 2;
  // Branch and bound: the answer is the largest leaf; each process keeps
  // an incumbent (the largest leaf it knows), improvements spread along
  // lifelines (TASCELL_INCUMBENT=lifeline:1), and a subtree whose largest
  // leaf is no better than the incumbent is skipped. Checked at the end of
  // each root call: every process's incumbent is the largest leaf.
  bool incumbents = false;
  // One leaf throws (as std::runtime_error "leaf <id>"): the @dowork it is
  // in stops its other pieces (STOP to other processes), waits for them and
  // passes the exception on, through pieces (RESULT with the exception) up
  // to the root call, which must end with it on every process.
  bool throws = false;
  // A search: one leaf is the one sought and calls cancel(): its @dowork
  // stops its other pieces and completes with what finished, and the
  // cancellation goes up through pieces whose own point it is (CANCEL_UP
  // to other processes). Every process must end with "found".
  bool cancels = false;
  // A board (tascell/board.hpp): every fifth leaf publishes its id under
  // key id % 4 (BOARD to every process, and the writes of each process
  // in its ROOT_ACK and rank 0's ROOT_FINISH). Checked at the end of each
  // root call: every process's board holds the newest write of each key.
  bool boards = false;
  // Distributed tables (tascell/table.hpp, net/table_protocol.hpp): every
  // leaf visited adds to an entry of a table spread over the processes, as
  // apply() does: at once when the entry is its process's (under its
  // sub-block's lock with several workers; a worker may be preempted while
  // it holds one), else into its worker's batch for the owner, handed to the
  // message thread every `batch_updates` updates; a worker settles (hands
  // what it holds, sends a fence to each process it sent to, and waits for
  // the answers, applying what its message thread hands it meanwhile) at
  // the end of a piece, before a piece it gives leaves it, and at the end
  // of the root task. Checked: every update is applied once, at its owner;
  // when a join sees a piece done, every update issued in it has been
  // applied; a piece starts after every update its giver issued before
  // giving it; and at the end of each root call every process's entries
  // are what it wrote plus the sums of the updates issued for them. Each
  // process writes its own entries (a value of the root call's) as its
  // program calls root(), which may be after other processes' updates of
  // the call reached it (late_begin): those must land after the write.
  bool tables = false;
  int table_entries = 61;
  bool hashed = false;     // the hashed spread (else block)
  int batch_updates = 3;   // a worker hands a batch over at this many updates
  std::uint64_t seed = 1;
  std::uint64_t max_steps = 3'000'000;  // pieces keep moving but the root call never ends
  // A hang: this many steps in which no piece or iteration moved (an
  // iteration begun, a piece started or merged, a frame finished), whatever
  // messages still went back and forth. The longest such span of a passing
  // seed (outcome::quiet_max) is 603 steps in seeds 1-1,000,000.
  std::uint64_t hang_steps = 20'000;
  // How often a worker that claims an armed request is preempted between
  // looking and claiming (out of 16); 0: never.
  int preempt_claims = 8;
  // How often a worker's step runs while its process's message thread is in
  // a turn on another core (out of 16): every try_take_turn in the step
  // fails, so the worker rings instead of settling a take, taking results
  // at a join or recording mailed pieces itself, and the thread's next turn
  // waits until the step is over; 0: never (the turn is always free).
  int turn_held = 4;
  // The processes do not begin a root call at one moment: each but rank 0
  // begins it after up to this many steps of the others (its program
  // reached root() later), so messages of a call may reach a process
  // that has not begun it.
  int late_begin = 400;
};

struct outcome {
  bool ok = true;
  std::string failure;       // what went wrong, when !ok
  std::uint64_t steps = 0;
  std::uint64_t remote_pieces = 0;  // pieces that ran in a process other than their giver's
  std::uint64_t mailed = 0;         // ... of which went through the thief's mailbox (shared memory)
  std::uint64_t results_mailed = 0;  // results through the victim's ring (shared memory)
  std::uint64_t results_here = 0;    // ... of which a worker of the victim took at a join
  std::uint64_t early_incumbents = 0;  // improvements held for a root call not yet begun
  std::uint64_t early_improved = 0;    // ... that improved the incumbent when the call began
  std::uint64_t batches = 0;
  std::uint64_t remote_stops = 0;   // pieces stopped (STOP) in a process other than their giver's
  std::uint64_t remote_cancels = 0;  // cancellations sent up to another process (CANCEL_UP)
  std::uint64_t remote_cancels_taken = 0;  // ... that cancelled a @dowork there
  // Pieces given while a frame of the giver was being stopped (an outer
  // piece stopped under a nested one, or a drain giving from older frames).
  std::uint64_t gives_while_stopping = 0;
  std::uint64_t remote_steal_backs = 0;  // steal-backs asked of a thief in another process
  std::uint64_t table_updates = 0;     // updates sent to other processes (config::tables)
  std::uint64_t update_batches = 0;    // ... in this many batches
  std::uint64_t fences_deferred = 0;   // fences answered only once the updates before them were applied
  std::uint64_t held_for_call = 0;     // table messages held until their root call began at the receiver
  std::uint64_t locks_preempted = 0;   // local updates preempted while holding their sub-block's lock
  std::uint64_t board_writes = 0;  // board writes published (config::boards)
  std::uint64_t quiet_max = 0;  // the longest span of steps in which no piece or iteration moved
  // The longest span between a giver telling a piece in another process to
  // stop and the piece seeing it.
  std::uint64_t stop_delivery_max = 0;
};

outcome run(const config& c);

}  // namespace tascell::sim
