// The costs and the machine the simulator assumes. Every figure is in seconds
// (or bytes per second); bench/scaling/scaling.py sets them from measurements
// (bench/scaling/measured.json) or from the cluster assumptions of
// docs/scaling.md. Nothing here is measured by the simulator itself.
#pragma once

#include <cstdint>

namespace scaling {

// What one worker pays on the slow paths of one process (runtime/src/*.cpp).
struct local_costs {
  double poll_interval = 50e-9;  // a running worker's time between two polls (the benchmark's node)
  double signal = 0.2e-6;        // a store on one core seen by another (attention, reply)
  double give = 1.0e-6;          // victim: temporary backtracking, put, winds undone and redone
  double refuse = 0.2e-6;        // victim: walking the chain and finding nothing
  double start = 0.3e-6;         // thief: run_task set-up before the first iteration
  double loop = 0.3e-6;          // one turn of an idle or waiting worker's loop
  double yield = 1.0e-6;         // a back-off by sched_yield (failures 8..255)
  double wake = 20e-6;           // a napping thread to run again after a notify
  // A lazy function's unwinding (runtime/src/lazy.cpp): per frame saved and
  // rebuilt when a request finds no point with work on the victim's chain.
  // 0: the eager lowering (a point per @dowork; the hand-written programs).
  double unwind_frame = 0;
  double spin_quantum = 5e-6;    // simulator: yield turns are simulated this many seconds at a time
  double nap_quantum = 20e-6;    // simulator: 20 us naps are simulated this many seconds at a time
};

// The message thread and the network between processes (runtime/src/net/).
struct network_costs {
  double latency = 1.5e-6;       // one way, message thread to message thread
  double bandwidth = 6e9;        // bytes per second
  double handle = 1.0e-6;        // the message thread's work per message (pack, unpack, post)
  double wake = 5e-6;            // the message thread to run after a worker's event
  double poll_urgent = 20e-6;    // its sleep while an answer is due or another process is idle
  double poll_max = 1e-3;        // its sleep after quiet turns (doubling from poll_urgent)
  // Messages ring the receiver's message thread (the runtime's
  // TASCELL_REMOTE_WAKE=ring, net/remote_bell.hpp): a sleeping thread sees
  // a message ring_wake after it arrived, instead of at its next poll.
  bool rings = false;
  double ring_wake = 30e-6;
  // A host with a core per worker: each turn of the message thread takes
  // this long from a working worker of its process (0: the thread has a
  // core of its own, or its time is in the per-node cost).
  double thread_cpu = 0;
  double take = 1.0e-6;          // a hungry worker to take a piece from the inbox
  std::int64_t piece_bytes = 160;   // a WORK message: header, kind, range, packed inputs
  std::int64_t result_bytes = 64;   // a RESULT message
};

enum class remote_choice { random, loaded, hierarchical };
enum class local_choice { random, busy };

struct machine {
  int processes = 1;
  int workers = 1;          // per process
  int extra = 0;            // > 0: one more process with this many workers
  int cores = 0;            // cores shared by all workers (processor sharing); 0: one core per worker
  remote_choice remote = remote_choice::loaded;
  local_choice local = local_choice::busy;
  int group = 8;            // hierarchical: processes per group (model-only proposal)
  // A remote request goes to the busy worker with the shallowest published
  // oldest work (the runtime's TASCELL_REMOTE_GIVER=largest).
  bool giver_largest = false;
  bool largest_first = false;  // model-only: a remote request goes to the local worker with the largest piece to give
  int max_nesting = 3;      // a waiting worker takes unrelated work while fewer pieces are nested (join.cpp)
  std::uint64_t seed = 1;
  double grain = 0;         // simulator: never split a subtree of less work than this (s)
  local_costs costs;
  network_costs net;
};

}  // namespace scaling
