// The simulated state: workers with their chains of frames, pieces, proxies,
// processes and messages in flight.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tree.hpp"

namespace scaling {

// One running @dowork of a worker: the spawn point and what is known of its
// iterations. Only the top frame's current iteration is running; every
// frame below runs its current iteration through the frames above it.
struct frame {
  node_id node = no_node;
  std::shared_ptr<const std::vector<iteration>> its;  // shared with the pieces given from it
  int next = 0, end = 0;   // iterations not started: [next, end) (the spawn point)
  int cur = -1;            // the iteration running; -1: the node's own part (no point yet)
  std::vector<int> given;  // pieces given from this point, oldest first
  int pending = 0;         // of those, not finished yet
  int piece = -1;          // this frame is a piece's first frame (a boundary lies below it)
  int tree_depth = 0;      // of its node in the task tree (the root's: 0)
};

enum class activity : std::uint8_t { idle, working, waiting, asking };

// A requester is a worker (>= 0) or a proxy (-2 - proxy id).
inline int proxy_requester(int proxy) { return -2 - proxy; }
inline bool is_proxy(int requester) { return requester <= -2; }
inline int proxy_of(int requester) { return -2 - requester; }

struct worker {
  int id = 0, proc = 0;
  activity act = activity::idle;
  activity asked_from = activity::idle;  // what it was doing when it sent its request
  std::vector<frame> frames;
  double rem = 0;          // the running unit's remaining work
  double resume_at = 0;    // the unit progresses from then on (slow paths stall it)
  std::uint64_t ver = 0;   // invalidates posted unit_done / attempt events
  int requester = -1;      // who asks this worker (one at a time)
  int wanted = -1;         // its own request: the piece to steal back from, or -1 (any work)
  bool serve_posted = false;
  int stage = 0;           // of an idle or waiting turn: 0 steal back, 1 local, 2 inbox
  unsigned failures = 0;   // back-off
  double next_remote_back = 0;
  unsigned remote_back_refusals = 0;
  bool hungry = false;
  bool dormant = false;    // idle in a process with no busy worker: waits for an event
  int depth = 0;           // pieces running nested
  // Tree depth of its oldest frame with work, as of its last hand-over or
  // the start of its outermost piece (runtime: worker_impl::offer_depth).
  int offer_depth = 0;
  bool blocked = false;    // simulator: napping until an event that matters (see wake_blocked)
  double blocked_since = 0;
  int blocked_on = -1;     // the thief whose nested work made its steal-back fail
  std::vector<int> watchers;  // blocked workers to wake when this one finishes a piece
  double since = 0;        // start of the current activity (for the statistics)
  double work_time = 0, idle_time = 0, wait_time = 0;
};

struct piece {
  int victim = -1;         // worker that gave it (-1: the root call)
  int victim_frame = -1;   // index of the frame in the victim's chain
  node_id node = no_node;
  std::shared_ptr<const std::vector<iteration>> its;  // the node's iterations (it runs [lo, hi))
  int lo = 0, hi = 0;
  int tree_depth = 0;      // of the node it was split from
  double work = 0;
  int thief = -1;          // worker running it
  bool remote = false;     // runs in another process than its victim
  bool done = false;
};

struct proxy {
  int proc = -1;           // the process it belongs to (the victim's)
  int from = -1;           // the process that asked
  int wanted = -1;         // steal back: the piece whose frames may give
  int back_worker = -1;    // steal back: the worker waiting for the answer (in `from`)
  int victim = -1;         // the worker it asked
  std::vector<int> tried;
  bool free = true;
};

enum class msg : std::uint8_t { request, work, refuse, result };

struct message {
  msg type;
  int from, to;
  int load;            // the sender's busy workers (piggy-backed on every batch)
  int piece = -1;      // work, result; request: the wanted piece (steal back) or -1
  int back_worker = -1;  // steal back: the waiting worker in the asking process
};

struct process {
  std::vector<int> workers;
  int inbox = -1;
  bool asking = false;
  int asking_rank = -1;
  int refusals = 0;
  double next_ask = 0;
  double asked_at = -1;    // when the request that the inbox answers was sent
  bool ask_posted = false;
  std::vector<int> loads;  // the last load heard from every process
  int zero_loads = 0;      // how many of them are 0 (another process may be idle)
  int busy = 0;            // workers with a piece
  int hungry = 0;
  double thread_free = 0;  // the message thread is busy until then
  double last_active = 0;  // its last turn that did something
};

}  // namespace scaling
