// TASCELL_WAIT=suspend: a join that cannot steal back waits on a fiber of its
// own while the worker's thread runs other work on another fiber.
//
// Fiber 0 is the thread's own stack; fibers 1.. run on stacks reserved once
// per slot (TASCELL_STACK_MB, committed when touched, a guard page below) and
// reused. Fiber k pushes its nodes on segment k of the worker's region
// (worker.hpp), so thieves see one victim per thread and nothing on the fast
// path changes. Only one fiber of a thread runs; the others wait:
// - at a join (`awaited`): they go on when the join's pieces are all done,
//   or when a stop concerns their chain (`poked`, set by serve());
// - at a poll: the running fiber let a fiber whose join was ready go first;
//   it may go on at any time;
// - idle (fiber 0 in the idle loop): it goes on only when every other fiber
//   waits at a join that is not ready, or has ended.
// Switches happen in help() (join.cpp), at a poll (serve()), when a fiber's
// piece ends, and in the idle loop; never inside request(), whose reply slot
// is the worker's.
//
// The C++ runtime keeps the exceptions being handled in one list per thread;
// each fiber keeps its own (swapped at every switch), so that a fiber may
// wait inside a catch handler (unwind(), a join's clean-up) while others
// throw and catch.
#include <sys/mman.h>
#include <unistd.h>

#include <cxxabi.h>

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "runtime.hpp"
#include "worker.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define TASCELL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TASCELL_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define TASCELL_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TASCELL_TSAN 1
#endif
#endif
#ifdef TASCELL_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef TASCELL_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace tascell::detail {
namespace {

namespace ctxl = boost::context;

std::size_t page_size() {
  static const std::size_t p = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return p;
}

// The Itanium C++ ABI's per-thread exception state (__cxa_eh_globals).
struct eh_globals {
  void* caught;
  unsigned int uncaught;
};
eh_globals* eh() { return reinterpret_cast<eh_globals*>(abi::__cxa_get_globals()); }

// Boost.Context's stack allocator over a slot's reserved stack: nothing is
// allocated or freed per fiber.
struct slot_stack {
  fiber_slot* f;
  ctxl::stack_context allocate() {
    ctxl::stack_context sc;
    sc.size = f->stack_size;
    sc.sp = f->stack_mem + page_size() + f->stack_size;  // the top: stacks grow down
    return sc;
  }
  void deallocate(ctxl::stack_context&) noexcept {}
};

// A waiting fiber that may go on now.
bool fiber_ready(const fiber_slot& f, bool any_waiting) {
  if (f.state != fiber_slot::waiting) return false;
  if (f.poked) return true;
  switch (f.kind) {
    case fiber_slot::at_join:
      for (task* t = f.awaited->given; t; t = t->next_given)
        if (!t->merged && !t->done.load(std::memory_order_acquire)) return false;
      return true;
    case fiber_slot::at_poll: return any_waiting;
    case fiber_slot::idle: return false;
  }
  return false;
}

// The running fiber goes on (slot me), after a switch that `fake` began.
void arrive(worker_impl* w, int me, void* fake) {
#ifdef TASCELL_ASAN
  const void* bottom = nullptr;
  std::size_t size = 0;
  __sanitizer_finish_switch_fiber(fake, &bottom, &size);
  // Fiber 0's stack is the thread's: learnt when it is left.
  if (w->fibers[0].state == fiber_slot::waiting && w->switch_from == 0) {
    w->fibers[0].asan_bottom = bottom;
    w->fibers[0].asan_size = size;
  }
#else
  (void)fake;
#endif
#ifdef TASCELL_TSAN
  if (w->tsan_exited) {
    __tsan_destroy_fiber(w->tsan_exited);
    w->tsan_exited = nullptr;
  }
#endif
  fiber_slot& f = w->fibers[me];
  eh_globals* g = eh();
  g->caught = f.eh_caught;
  g->uncaught = f.eh_uncaught;
  if (f.state == fiber_slot::waiting) --w->waiting;
  f.state = fiber_slot::running;
  w->hungry.store(false, std::memory_order_relaxed);  // it has something to do (worker.hpp, wait_scope)
  w->running = me;
  w->aux_stack.swap(f.aux);
  w->depth = f.depth;
  w->sync_aux_owner();
  if (w->act != f.act) w->set_activity(f.act);
  w->note(trace_type::resume, 0, me);
  // A stop concerns it: its next poll (or its join's next turn) unwinds.
  if (f.poked) w->attention.store(1, std::memory_order_relaxed);
  f.poked = false;
}

// Saves the running fiber's state into its slot; it waits from now on.
void leave_state(worker_impl* w, ctx top, point_aux* awaited, fiber_slot::wait_kind kind) {
  fiber_slot& f = w->fibers[w->running];
  f.state = fiber_slot::waiting;
  f.kind = kind;
  f.awaited = awaited;
  f.top = top;
  f.poked = false;
  f.depth = w->depth;
  f.act = w->act;
  f.aux.swap(w->aux_stack);
  eh_globals* g = eh();
  f.eh_caught = g->caught;
  f.eh_uncaught = g->uncaught;
  g->caught = nullptr;
  g->uncaught = 0;
  ++w->waiting;
  w->stats.suspends++;
  w->note(trace_type::suspend, 0, w->running, static_cast<std::int64_t>(kind));
}

// Switches from the running fiber (its state saved) to `target` (fiber
// `to`'s continuation, or a new fiber); returns when the running fiber runs
// again.
void switch_to(worker_impl* w, int to, ctxl::fiber&& target) {
  int me = w->running;
  w->switch_from = me;
  void* fake = nullptr;
#ifdef TASCELL_ASAN
  __sanitizer_start_switch_fiber(&fake, w->fibers[to].asan_bottom, w->fibers[to].asan_size);
#endif
#ifdef TASCELL_TSAN
  if (me == 0) w->fibers[0].tsan = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(w->fibers[to].tsan, 0);
#endif
  (void)to;
  std::move(target).resume_with([w, me](ctxl::fiber&& c) {
    w->fibers[me].cont = std::move(c);
    return ctxl::fiber{};
  });
  arrive(w, me, fake);
}

// The waiting fiber to run after a fiber ended: one that may go on, else the
// oldest that waits at a join (it helps: steals back, takes work), else
// fiber 0 idle. There is always one: fiber 0 waits while another runs.
int next_after_end(worker_impl* w) {
  int k = ready_fiber(w, true);
  if (k >= 0) return k;
  for (int i = 0; i < max_fibers; ++i) {
    const fiber_slot& f = w->fibers[i];
    if (f.state == fiber_slot::waiting && f.kind == fiber_slot::at_join &&
        (k < 0 || f.born < w->fibers[k].born))
      k = i;
  }
  return k >= 0 ? k : 0;
}

// Runs piece u on fiber k (free); the running fiber's state is saved.
void start(worker_impl* w, int k, task* u) {
  fiber_slot& f = w->fibers[k];
  f.born = ++w->fiber_clock;
  f.depth = 0;
  f.act = w->act;
  f.poked = false;
  f.eh_caught = nullptr;
  f.eh_uncaught = 0;
  f.asan_bottom = f.stack_mem + page_size();
  f.asan_size = f.stack_size;
#ifdef TASCELL_TSAN
  f.tsan = __tsan_create_fiber(0);
#endif
  ctxl::fiber fb{std::allocator_arg, slot_stack{&f}, [w, k, u](ctxl::fiber&& caller) -> ctxl::fiber {
                   (void)caller;  // empty: the fiber that started this one saved itself
                   arrive(w, k, nullptr);
                   // run_task catches everything the piece throws: nothing
                   // crosses the fiber's end.
                   run_task(w, after(segment_base(w, k)), u);
                   fiber_slot& me = w->fibers[k];
                   if (!w->aux_stack.empty() || w->depth != 0) {
                     std::fprintf(stderr, "tascell: internal error: fiber %d ended with %zu joins open\n", k,
                                  w->aux_stack.size());
                     std::abort();
                   }
                   me.state = fiber_slot::free;
                   int next = next_after_end(w);
                   w->switch_from = k;
#ifdef TASCELL_ASAN
                   __sanitizer_start_switch_fiber(nullptr, w->fibers[next].asan_bottom,
                                                  w->fibers[next].asan_size);
#endif
#ifdef TASCELL_TSAN
                   w->tsan_exited = me.tsan;
                   me.tsan = nullptr;
                   __tsan_switch_to_fiber(w->fibers[next].tsan, 0);
#endif
                   return std::move(w->fibers[next].cont);
                 }};
  switch_to(w, k, std::move(fb));
}

}  // namespace

fiber_slot::~fiber_slot() {
  if (stack_mem) munmap(stack_mem, page_size() + stack_size);
}

int ready_fiber(worker_impl* w, bool any_waiting) {
  int best = -1;
  for (int k = 0; k < max_fibers; ++k)
    if (fiber_ready(w->fibers[k], any_waiting) && (best < 0 || w->fibers[k].born < w->fibers[best].born)) best = k;
  return best;
}

int free_fiber(worker_impl* w) {
  for (int k = 1; k < max_fibers; ++k) {
    fiber_slot& f = w->fibers[k];
    if (f.state != fiber_slot::free) continue;
    if (!f.stack_mem) {
      // Reserved once, committed page by page as the fiber touches it.
      std::size_t size = (w->rt->config().stack_bytes + page_size() - 1) & ~(page_size() - 1);
      void* m = mmap(nullptr, page_size() + size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
      if (m == MAP_FAILED) return -1;  // no room: the join nests instead
      mprotect(m, page_size(), PROT_NONE);
      f.stack_mem = static_cast<char*>(m);
      f.stack_size = size;
    }
    return k;
  }
  return -1;
}

void suspend_at_join(worker_impl* w, ctx c, point_aux* a, bool may_unwind, task* u, int k) {
  leave_state(w, c, a, fiber_slot::at_join);
  w->fibers[w->running].may_unwind = may_unwind;
  if (u) start(w, k, u);
  else switch_to(w, k, std::move(w->fibers[k].cont));
}

void yield_to(worker_impl* w, ctx c, int k, bool idle) {
  leave_state(w, c, nullptr, idle ? fiber_slot::idle : fiber_slot::at_poll);
  switch_to(w, k, std::move(w->fibers[k].cont));
}

}  // namespace tascell::detail
