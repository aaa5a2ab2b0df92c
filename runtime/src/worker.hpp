// A worker's private state. Fields are grouped by who touches them: the
// owner only, or other workers too (atomics, on their own cache lines).
#pragma once

#include <atomic>
#include <boost/context/fiber.hpp>
#include <chrono>
#include <cstdint>
#include <exception>
#include <random>
#include <vector>

#include "tascell/chain.hpp"
#include "tascell/poll.hpp"
#include "tascell/stats.hpp"
#include "net/worker_face.hpp"
#include "tables/table_process.hpp"
#include "trace.hpp"

namespace tascell::detail {

class runtime;

// Slow-path state of a spawn point: created the first time work is given
// away from it (or it is cancelled), kept on the owner's aux stack in chain
// order, removed at its join.
struct point_aux {
  spawn_point* point = nullptr;
  task* given = nullptr;            // pieces given away, newest first
  std::int64_t pending = 0;         // given and not yet merged
  // Set by a thief (release) whose piece ended with an exception or called
  // cancel(); the owner reads it in serve() after `attention`.
  std::atomic<bool> alarm{false};
  bool stopped = false;             // nothing more starts; pieces told to stop
  bool cancelled = false;           // stopped by cancel(): completes normally
  bool unwind_owner = false;        // the owner's running part must stop at its next poll
  std::exception_ptr error;         // the first exception of the @dowork
  // An exception that passed through the @dowork (a stop aimed at an older
  // node): release() rethrows it once the pieces are merged.
  std::exception_ptr rethrow;
  bool at_join = false;             // the owner has finished its own part and waits
};

// The node a worker pushes when it starts a piece received from another
// worker: everything newer on the chain belongs to that piece.
struct boundary {
  task* t;
  std::uintptr_t kind;
};
extern const node_kind boundary_kind;

// One node of a chain, as the slow paths see it.
struct chain_entry {
  char* start;
  const node_kind* kind;
  bool finished_below;  // pushed under a `finished` ctx (chain.hpp)
  spawn_point* point() const { return reinterpret_cast<spawn_point*>(start); }
  boundary* bound() const { return reinterpret_cast<boundary*>(start); }
};

using net::worker_face;
using net::no_reply;
using net::refused;


// TASCELL_WAIT=suspend (fiber.cpp): a worker's thread runs several fibers,
// one at a time. Fiber 0 is the thread's own stack; the others run pieces on
// C++ stacks of their own (TASCELL_STACK_MB each, reserved once, committed
// when touched, reused). Fiber k pushes its nodes on segment k of the
// worker's region (the region is cut into max_fibers segments), so a ctx
// still finds its worker by masking, and a chain walk stops at the base of
// its segment. A fiber that is not running is waiting: at a join (for
// `awaited`), or, with awaited == nullptr, at a poll or in the idle loop
// (it may go on at any time).
inline constexpr int max_fibers = 8;
struct fiber_slot {
  enum state_t : std::uint8_t { free, running, waiting };
  enum wait_kind : std::uint8_t { at_join, at_poll, idle };
  state_t state = free;
  wait_kind kind = at_join;        // waiting: where
  boost::context::fiber cont;      // waiting: what resumes it
  std::vector<point_aux*> aux;     // waiting: its aux stack (the running fiber's is worker_impl::aux_stack)
  point_aux* awaited = nullptr;    // waiting at_join: the join's point
  ctx top{};                       // waiting: the top of its chain
  int depth = 0;                   // waiting: pieces nested on it
  activity act = activity::idle;   // waiting: its activity
  bool poked = false;              // waiting: a stop concerns its chain (it must go on and unwind)
  bool may_unwind = false;         // waiting at_join: the join may unwind (not already cleaning up)
  std::uint64_t born = 0;          // when it started (0 for fiber 0): older points are offered first
  // waiting: its exceptions being handled (the C++ runtime's list is per thread).
  void* eh_caught = nullptr;
  unsigned int eh_uncaught = 0;
  // Its C++ stack (fibers 1..): a guard page, then stack_size bytes.
  char* stack_mem = nullptr;
  std::size_t stack_size = 0;
  // Sanitizers' view of its stack (annotations; see fiber.cpp).
  const void* asan_bottom = nullptr;
  std::size_t asan_size = 0;
  void* tsan = nullptr;
  ~fiber_slot();
};

// A worker: what other threads touch of it (net::worker_face: requests,
// hints for victim choice, its number), then what only its own thread does.
struct worker_impl : net::worker_face {
  // --- owner only ---
  alignas(64) runtime* rt = nullptr;
  std::vector<point_aux*> aux_stack;  // chain order, newest last
  std::vector<chain_entry> walk;      // scratch for give(): the winds above the point given from
  std::mt19937_64 rng;
  worker_stats stats;
  activity act = activity::idle;
  std::chrono::steady_clock::time_point since;
  int depth = 0;  // pieces running nested on the running fiber
  // Fibers (TASCELL_WAIT=suspend; fiber.cpp). seg_shift: log2 of the bytes of
  // a node-stack segment (26: the whole region, one fiber).
  unsigned seg_shift = 26;
  bool suspend = false;           // TASCELL_WAIT=suspend
  bool tracing = false;           // TASCELL_TRACE is set
  bool answered_request = false;  // request() just returned a piece
  int running = 0;                // the running fiber's slot
  int waiting = 0;                // fibers waiting (not running, not free)
  int switch_from = 0;            // the fiber that switched last
  std::uint64_t fiber_clock = 0;  // for fiber_slot::born and since
  void* tsan_exited = nullptr;    // a fiber that has just ended (destroyed by the next one)
  fiber_slot fibers[max_fibers];
  // Steal-back from another process: refusals in a row, and no new try
  // before this time.
  unsigned remote_back_refusals = 0;
  std::chrono::steady_clock::time_point next_remote_back{};

  // Tracing (trace.hpp): the buffer is used when the runtime was started
  // with TASCELL_TRACE (`tracing`, above with the other flags).
  trace_buffer trace;
  std::int64_t request_ns = 0;  // when the last request was sent (tracing only)
  // Records an instant now (tracing only); returns its time.
  std::int64_t note(trace_type t, std::uint64_t id = 0, std::int32_t a = 0, std::int64_t b = 0, std::int64_t c = 0) {
    if (tracing) [[unlikely]] {
      std::int64_t now = trace_now();
      trace.instant(now, t, id, a, b, c);
      return now;
    }
    return 0;
  }

  void set_activity(activity a) {
    auto now = std::chrono::steady_clock::now();
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now - since).count();
    if (tracing) [[unlikely]] {
      std::int64_t end = std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count();
      trace.span(static_cast<std::uint8_t>(act), end - ns, end);
    }
    switch (act) {
      case activity::work: stats.work_ns += ns; break;
      case activity::idle: stats.idle_ns += ns; break;
      case activity::wait: stats.wait_ns += ns; break;
      case activity::steal_back: stats.steal_back_ns += ns; break;
      case activity::give: stats.give_ns += ns; break;
      case activity::messages:
      case activity::asleep: break;
    }
    act = a;
    since = now;
  }

  void sync_aux_owner() { aux_owner = aux_stack.empty() ? nullptr : aux_stack.back()->point; }
};

inline worker_impl* impl(ctx c) { return static_cast<worker_impl*>(worker_of(c)); }

// A piece has ended, for its victim (run_task when it ran here; the
// message thread when its result came from another process): the alarm
// of its point first when it ended with an exception or cancelled, `done`
// last, then the victim's attention. The victim may free t as soon as it
// sees `done`: nothing touches t after it.
inline void piece_done(task* t) {
  auto* victim = static_cast<worker_impl*>(t->victim);
  bool alarm = t->error != nullptr || t->cancel_up.load(std::memory_order_relaxed);
  if (alarm) t->origin->alarm.store(true, std::memory_order_release);
  t->done.store(true, std::memory_order_release);
  if (alarm) victim->attention.store(1, std::memory_order_release);
}

// Piece t, still running, called cancel() (its cancel_up is set): the
// alarm of its point, then its victim's attention, so that the victim
// stops the point's other work at its next poll.
inline void alarm_victim(task* t) {
  t->origin->alarm.store(true, std::memory_order_release);
  static_cast<worker_impl*>(t->victim)->attention.store(1, std::memory_order_release);
}

// Where a worker's node stack starts, in its region.
inline constexpr std::uintptr_t stack_offset = (sizeof(worker_impl) + 63) & ~std::uintptr_t{63};
inline char* stack_base(worker* w) { return reinterpret_cast<char*>(w) + stack_offset; }
// The ctx of an empty chain on w.
inline ctx empty_chain(worker* w) { return after(stack_base(w)); }

// The fiber whose node segment holds p (a node, or the free end of a chain:
// a segment ends with a guard page, so its free end never reaches the next).
inline int segment_of(const void* p) {
  auto a = reinterpret_cast<std::uintptr_t>(p);
  auto* w = reinterpret_cast<worker_impl*>(a & ~(region_bytes - 1));
  return static_cast<int>((a & (region_bytes - 1)) >> w->seg_shift);
}
// Where the node segment of fiber k of w starts.
inline char* segment_base(worker_impl* w, int k) {
  return k == 0 ? stack_base(w) : reinterpret_cast<char*>(w) + (std::uintptr_t(k) << w->seg_shift);
}
// Where the segment that holds p starts.
inline char* segment_base_of(const void* p) {
  auto a = reinterpret_cast<std::uintptr_t>(p);
  return segment_base(reinterpret_cast<worker_impl*>(a & ~(region_bytes - 1)), segment_of(p));
}

// Calls f(entry) for each node of the chain below c, newest first, until f
// returns false. The chain ends at the base of c's segment (its fiber's).
//
// A step down needs the node's size, from its kind, from its kind word: two
// loads in a row before the next node's address is known, which made a walk
// of a deep chain (UTS T3: hundreds of nodes, about a thousand walks in
// 0.09 s) wait on memory at every node. Chains repeat their kinds (a
// recursion pushes the same @dowork's point at every level), so the walk
// guesses that a node is of the kind of the one above it: the branch on that
// guess is predicted, and the processor runs ahead to the next node without
// waiting for the loads (docs/history/performance-sessions.md, session 13).
template <class F>
TASCELL_INLINE void walk_chain(ctx c, F&& f) {
  char* end = free_of(c);
  char* base = segment_base_of(end);
  const node_kind* last = nullptr;
  std::uint32_t last_size = 0;
  while (end > base) {
    std::uintptr_t word;
    __builtin_memcpy(&word, end - sizeof word, sizeof word);
    const node_kind* k = kind_of_word(word);
    if (k != last) [[unlikely]] {
      last = k;
      last_size = k->size;
    }
    char* start = end - last_size;
    if (!f(chain_entry{start, k, (word & 1u) != 0})) return;
    end = start;
  }
}

// --- join.cpp ---
// A join's wait (activity `wait` meanwhile). When it ends the worker
// computes again: it is no longer hungry (help() may have said it was), or
// the message thread would go on asking other processes for work, and
// waiting for it, on this worker's core.
struct wait_scope {
  worker_impl* w;
  activity before;
  explicit wait_scope(worker_impl* x) : w(x), before(x->act) { w->set_activity(activity::wait); }
  ~wait_scope() {
    w->set_activity(before);
    w->hungry.store(false, std::memory_order_relaxed);
  }
  wait_scope(const wait_scope&) = delete;
  wait_scope& operator=(const wait_scope&) = delete;
};

// --- serve.cpp ---
// Serves requests and stop notifications. With may_unwind, throws
// stop_signal when the running piece (or a @dowork in it) must stop.
void serve_impl(ctx c, bool may_unwind);
// The aux of p, or nullptr.
point_aux* find_aux(worker_impl* w, spawn_point* p);
// The aux of p, created if needed (aux_stack stays in chain order).
point_aux* get_aux(worker_impl* w, spawn_point* p);
// Stops the @dowork of aux: drops its work not started, tells its pieces
// (except `spare`) to stop.
void stop_point(worker_impl* w, point_aux* a, task* spare);
// Ends the request of thief r that victim w has served: clears `requester`
// and sends r the answer (a task or `refused`). Returns false, sending
// nothing, when the request was withdrawn meanwhile (the message thread
// withdraws a proxy's unanswered request when the root task has finished).
bool release_request(worker_impl* w, worker_face* r, task* answer);
// Reports cancel_up to the victim when p is the piece's own point on a thief.
void propagate_cancel(worker_impl* w, spawn_point* p);

// --- give.cpp ---
// Temporary backtracking for thief's request: splits the work of the point
// chosen on w's chains (c: the running fiber's top), the winds above it
// undone meanwhile. Returns the piece, or nullptr when there is nothing to
// give (or the steal-back's piece is not running here any more).
task* give(worker_impl* w, ctx c, worker_face* thief);

// --- fiber.cpp ---
// The aux stack of fiber k (the running fiber's is w->aux_stack).
inline std::vector<point_aux*>& aux_stack_of(worker_impl* w, int k) {
  return k == w->running ? w->aux_stack : w->fibers[k].aux;
}
// TASCELL_WAIT=suspend, at the join of aux a (chain top c): runs piece u on
// free fiber k, or (u == nullptr) lets waiting fiber k go on; the running
// fiber waits at the join meanwhile. Returns when it runs again.
// may_unwind: the join may throw stop_signal (it is not already cleaning up).
void suspend_at_join(worker_impl* w, ctx c, point_aux* a, bool may_unwind, task* u, int k);
// A waiting fiber that may go on now, oldest first: its join's pieces are
// all done, or a stop concerns it, or (with any_waiting) it waits at a poll;
// or -1.
int ready_fiber(worker_impl* w, bool any_waiting);
// A free fiber slot (its C++ stack reserved), or -1.
int free_fiber(worker_impl* w);
// Lets waiting fiber k go on; the running fiber waits at a poll (it may go on
// at any time), or idle (fiber 0 in the idle loop), with its chain top at c.
void yield_to(worker_impl* w, ctx c, int k, bool idle);
// serve(): notes the waiting fibers that a stop concerns.
void poke_stopped(worker_impl* w);

// --- request.cpp ---
// Asks `victim` for work (targeted at `wanted`, or any). Serves this worker's
// own requests while it waits. Returns a task or nullptr.
task* request(worker_impl* w, ctx here, worker_face* victim, task* wanted);
worker_impl* choose_victim(worker_impl* w);
// Runs a piece received from another worker on top of `base`.
void run_task(worker_impl* w, ctx base, task* t);
// A pause in a loop that failed to find work: spins, then yields, then sleeps.
void back_off(unsigned& failures);

// --- watchdog.cpp ---
// One wait of request() for its answer, as the watchdog sees it.
struct long_wait {
  std::chrono::steady_clock::time_point since{};  // the first look (epoch: not yet)
  bool said = false;
};
// Called now and then (not every spin) by request() while it waits for
// victim v's answer: after TASCELL_WATCHDOG seconds, says once on stderr who
// waits for whom and why (and, for a proxy, has the message thread say
// what it knows of it).
void watch_request(worker_impl* w, worker_face* v, task* wanted, long_wait& wait);

}  // namespace tascell::detail
