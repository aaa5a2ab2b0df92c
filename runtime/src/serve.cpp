// Serving: what a worker does at a poll when `attention` is set.
//
// 1. Alarms: a piece given away from one of this worker's points ended with
//    an exception or called cancel(); stop that @dowork.
// 2. A request: find work on the chain by temporary backtracking (give.cpp)
//    and hand it over, or refuse.
// 3. Stops: if the running piece, or a @dowork in it, was stopped, unwind to
//    it by throwing stop_signal (only where the caller allows unwinding).
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "net/worker_link.hpp"
#include "runtime.hpp"
#include "tascell/detail/entry.hpp"
#include "tascell/lazy.hpp"
#include "worker.hpp"

namespace tascell::detail {

const node_kind boundary_kind{node_type::boundary, sizeof(boundary), nullptr, nullptr, nullptr,
                              false, "piece", nullptr, nullptr, nullptr};

// Invariant: each fiber's aux stack lists the points of its chain that have
// an aux in chain order, newest last, so a join always finds its own aux at
// the back. Nodes lie in the node stack in chain order, so newer means at a
// higher address, and the stack is sorted by address: a deep chain that gave
// much away (UTS T3: hundreds of auxes) is searched in log time.
namespace {
std::vector<point_aux*>::iterator aux_position(std::vector<point_aux*>& stack, spawn_point* p) {
  return std::lower_bound(stack.begin(), stack.end(), p,
                          [](const point_aux* a, const spawn_point* q) { return a->point < q; });
}
}  // namespace

point_aux* find_aux(worker_impl* w, spawn_point* p) {
  auto& stack = aux_stack_of(w, segment_of(p));
  if (!stack.empty() && stack.back()->point == p) return stack.back();  // a join's own
  auto it = aux_position(stack, p);
  return it != stack.end() && (*it)->point == p ? *it : nullptr;
}

point_aux* get_aux(worker_impl* w, spawn_point* p) {
  auto& stack = aux_stack_of(w, segment_of(p));
  auto pos = aux_position(stack, p);
  if (pos != stack.end() && (*pos)->point == p) return *pos;
  auto* a = new point_aux;
  a->point = p;
  stack.insert(pos, a);
  w->sync_aux_owner();
  return a;
}

void stop_point(worker_impl* w, point_aux* a, task* spare) {
  if (a->stopped) return;
  a->stopped = true;
  a->point->end = a->point->next;  // drop the work not started
  std::int64_t told = 0;
  for (task* t = a->given; t; t = t->next_given) {
    if (t == spare || t->done.load(std::memory_order_acquire)) continue;
    t->stop.store(true, std::memory_order_release);
    ++told;
    if (auto* thief = static_cast<worker_face*>(t->thief.load(std::memory_order_acquire))) {
      thief->attention.store(1, std::memory_order_release);
      // A proxy: the message thread sends the stop on.
      if (thief->remote_rank.load(std::memory_order_relaxed) >= 0) w->rt->link()->wake();
    }
  }
  w->note(trace_type::stop, 0, 0, told);
}

void propagate_cancel(worker_impl* w, spawn_point* p) {
  // p is a piece's own point when the node right below it is the piece's
  // boundary: the @dowork it belongs to then lives on the victim.
  char* start = reinterpret_cast<char*>(p);
  if (start <= segment_base_of(start)) return;
  std::uintptr_t word;
  __builtin_memcpy(&word, start - sizeof word, sizeof word);
  const node_kind* k = kind_of_word(word);
  if (k->type != node_type::boundary) return;
  task* t = reinterpret_cast<boundary*>(start - k->size)->t;
  if (t->from_rank >= 0) {
    // The @dowork lives in another process.
    if (!t->cancel_up.exchange(true, std::memory_order_acq_rel)) w->rt->link()->piece_cancelled(t);
    return;
  }
  // Alarm before attention, both before the piece's `done`.
  t->cancel_up.store(true, std::memory_order_release);
  alarm_victim(t);
}

namespace {

void process_alarms(worker_impl* w, std::vector<point_aux*>& stack) {
  for (point_aux* a : stack) {
    // A load first: a read-modify-write of every aux at every poll that
    // serves would cost more than the rest of a serve on a deep chain.
    if (!a->alarm.load(std::memory_order_relaxed) || !a->alarm.exchange(false, std::memory_order_acq_rel))
      continue;
    for (task* t = a->given; t; t = t->next_given) {
      if (t->merged) continue;
      if (t->done.load(std::memory_order_acquire) && t->error) {
        if (!a->error) a->error = t->error;
        stop_point(w, a, nullptr);
        a->unwind_owner = true;
      } else if (t->cancel_up.load(std::memory_order_acquire) && !a->stopped) {
        a->cancelled = true;
        stop_point(w, a, t);
        a->unwind_owner = true;
        propagate_cancel(w, a->point);
      }
    }
  }
}

// Alarms of the points of every fiber of w.
void process_alarms(worker_impl* w) {
  process_alarms(w, w->aux_stack);
  if (w->waiting > 0)
    for (int k = 0; k < max_fibers; ++k)
      if (w->fibers[k].state == fiber_slot::waiting) process_alarms(w, w->fibers[k].aux);
}

}  // namespace

bool release_request(worker_impl* w, worker_face* r, task* answer) {
  // Not a plain store of nullptr: at the end of a root call the message
  // thread withdraws a proxy's request that is still unanswered
  // (steal_victim::tend_proxies), and another thief may have claimed `requester`
  // since; clearing it would lose that thief's request, and the thief would
  // wait for ever.
  worker_face* expected = r;
  if (!w->requester.compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel,
                                            std::memory_order_relaxed)) {
    // Withdrawn: nobody waits for the answer. The root task has finished,
    // so there was no work to give.
    if (answer != refused) {
      std::fprintf(stderr, "tascell: internal error: worker %d gave a piece to a withdrawn request\n", w->id);
      std::abort();
    }
    return false;
  }
  r->reply.store(answer, std::memory_order_release);
  return true;
}

namespace {

// Whether lazy frames of the running chain, which are newer than every
// node of it, may serve r: any request, but a steal-back only when the
// piece r waits for is the newest piece of the chain (give's rule: only the
// wanted piece's own frames give back).
bool lazy_may_serve(ctx c, const worker_face* r) {
  if (!r->wanted) return true;
  bool mine = false;
  walk_chain(c, [&](const chain_entry& e) {
    if (e.kind->type != node_type::boundary) return true;
    mine = e.bound()->t == r->wanted;
    return false;
  });
  return mine;
}

// Answers the pending request, if any. With `lazy` (a lazy function
// polls), a request no eager point can serve is left pending and the
// result is true: the frames unwind, and the rebuilt oldest one with work
// serves it (lazy.hpp).
bool answer_request(worker_impl* w, ctx c, bool refuse, bool lazy = false) {
  worker_face* r = w->requester.load(std::memory_order_acquire);
  if (!r) return false;
  // Read before the reply: once it is out, the message thread may reuse r.
  // Acquire: a proxy posted by another process through shared memory
  // (net/shared_requests.hpp) was made ready by this process's message
  // thread, which stored remote_rank last (network::stand); the chain of
  // release and acquire through the other process is invisible to
  // ThreadSanitizer.
  bool proxy = r->remote_rank.load(std::memory_order_acquire) >= 0;
  task* t = nullptr;
  activity before = w->act;
  try {
    if (!refuse) {
      w->set_activity(activity::give);
      t = give(w, c, r);
      w->set_activity(before);
    }
  } catch (...) {
    w->set_activity(before);
    release_request(w, r, refused);
    throw;
  }
  if (!t && !refuse && lazy && lazy_may_serve(c, r)) return true;
  if (t) w->stats.requests_served++;
  else w->stats.requests_declined++;
  // A piece for a thief on this machine that posted its request itself
  // goes to its mailbox; otherwise the message thread sends it on.
  int mailed_to = t && proxy ? w->rt->link()->mail_piece(r, t) : -1;
  if (release_request(w, r, t ? t : refused) && proxy) {
    if (mailed_to >= 0) w->rt->link()->mail_sent(mailed_to);
    else w->rt->link()->wake();
  }
  return false;
}

// The oldest node of the running piece that must be unwound to, or nullptr.
const void* stop_target(worker_impl* w, ctx c) {
  const void* target = nullptr;
  // Points to unwind to are rare (a stop in progress): look each point up
  // only when this chain's aux stack holds one.
  auto& stack = aux_stack_of(w, segment_of(free_of(c)));
  bool any = std::any_of(stack.begin(), stack.end(),
                         [](const point_aux* a) { return a->stopped && a->unwind_owner && !a->at_join; });
  walk_chain(c, [&](const chain_entry& e) {
    if (e.kind->type == node_type::boundary) {
      if (e.bound()->t->stop.load(std::memory_order_acquire)) target = e.start;
      return false;
    }
    if (any && e.kind->type == node_type::point) {
      point_aux* a = find_aux(w, e.point());
      if (a && a->stopped && a->unwind_owner && !a->at_join) target = e.start;
    }
    return true;
  });
  return target;
}

}  // namespace

// A waiting fiber that a stop concerns goes on and unwinds: one waiting at a
// poll, or at a join that may unwind (one that is already cleaning up after
// an exception or a stop just waits for its pieces).
void poke_stopped(worker_impl* w) {
  for (int k = 0; k < max_fibers; ++k) {
    fiber_slot& f = w->fibers[k];
    if (f.state != fiber_slot::waiting || f.poked) continue;
    bool may = f.kind == fiber_slot::at_poll || (f.kind == fiber_slot::at_join && f.may_unwind);
    if (may && stop_target(w, f.top)) f.poked = true;
  }
}

namespace {

// serve_impl, and with `lazy` (lazy_serve) true when the frames must unwind.
bool serve_or_unwind(ctx c, bool may_unwind, bool lazy) {
  worker_impl* w = impl(c);
  w->attention.exchange(0, std::memory_order_acq_rel);
  process_alarms(w);
  serve_table_inbound();
  // A stop for a waiting fiber: it goes on at the next switch and unwinds.
  if (w->waiting > 0) poke_stopped(w);
  const void* target = may_unwind ? stop_target(w, c) : nullptr;
  // A piece about to be unwound gives nothing away.
  bool unwind = answer_request(w, c, target != nullptr, lazy);
  if (target) throw stop_signal{target};
  return unwind;
}

// A waiting fiber whose join can go on runs at a poll (TASCELL_WAIT=suspend).
void run_ready_fiber(worker_impl* w, ctx c) {
  if (w->waiting > 0) {
    int k = ready_fiber(w, false);
    if (k >= 0) yield_to(w, c, k, false);
  }
}

}  // namespace

void serve_impl(ctx c, bool may_unwind) { serve_or_unwind(c, may_unwind, false); }

bool lazy_serve(ctx c) {
  worker_impl* w = impl(c);
  if (serve_or_unwind(c, true, true)) {
    // The request stays pending; `attention` stays set, so every lazy frame
    // on the way down sees the unwinding at its check, and the rebuilt
    // oldest frame's poll serves the request.
    w->lazy_unwinding = true;
    w->attention.store(1, std::memory_order_relaxed);
    w->stats.lazy_unwinds++;
    w->note(trace_type::unwind);
    return true;
  }
  run_ready_fiber(w, c);
  return false;
}

int lazy_after(ctx c) {
  if (impl(c)->lazy_unwinding) return 1;
  return lazy_serve(c) ? 2 : 0;
}

void serve(ctx c) {
  serve_impl(c, true);
  // TASCELL_WAIT=suspend: a fiber whose join can go on now runs at this poll
  // (this one waits, free to go on at any time), as the oldest continuation.
  run_ready_fiber(impl(c), c);
}

}  // namespace tascell::detail
