// Serving: what a worker does at a poll when `attention` is set.
//
// 1. Alarms: a piece given away from one of this worker's points ended with
//    an exception or called cancel(); stop that @dowork.
// 2. A request: find work on the chain by temporary backtracking and hand
//    it over, or refuse.
// 3. Stops: if the running piece, or a @dowork in it, was stopped, unwind to
//    it by throwing stop_signal (only where the caller allows unwinding).
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "net/network.hpp"
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
    if (auto* thief = static_cast<worker_impl*>(t->thief.load(std::memory_order_acquire))) {
      thief->attention.store(1, std::memory_order_release);
      // A proxy: the message thread sends the stop on.
      if (thief->remote_rank.load(std::memory_order_relaxed) >= 0) w->rt->net()->wake();
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
    if (!t->cancel_up.exchange(true, std::memory_order_acq_rel)) w->rt->net()->piece_cancelled(t);
    return;
  }
  // Alarm before attention, both before the piece's `done`.
  t->cancel_up.store(true, std::memory_order_release);
  t->origin->alarm.store(true, std::memory_order_release);
  static_cast<worker_impl*>(t->victim)->attention.store(1, std::memory_order_release);
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

// The winds of walk[from, below): one chain's nodes newer than the chosen point.
void run_winds(std::vector<chain_entry>& walk, std::ptrdiff_t from, std::ptrdiff_t below, bool redo) {
  if (redo) {
    for (std::ptrdiff_t i = below - 1; i >= from; --i) {
      const chain_entry& e = walk[static_cast<std::size_t>(i)];
      if (e.kind->type == node_type::wind) e.kind->redo(e.start);
    }
  } else {
    for (std::ptrdiff_t i = from; i < below; ++i) {
      const chain_entry& e = walk[static_cast<std::size_t>(i)];
      if (e.kind->type == node_type::wind) e.kind->undo(e.start);
    }
  }
}

// Calls f(index, depth) for each spawn point of walk[begin, end) (one
// chain, newest first) with its depth in the task tree, counted from the
// chain's oldest node at depth `base`: the root call's points from 0, a
// piece's from its tree_depth (its boundary).
template <class F>
void for_each_point_depth(const std::vector<chain_entry>& walk, std::size_t begin, std::size_t end,
                          std::int32_t base, F&& f) {
  std::int32_t depth = base;
  for (std::size_t i = end; i-- > begin;) {
    const chain_entry& e = walk[i];
    if (e.kind->type == node_type::boundary) {
      depth = e.bound()->t->tree_depth;
    } else if (e.kind->type == node_type::point) {
      f(i, depth);
      ++depth;
    }
  }
}

// The chains to give from: each fiber's, the newest fiber first, so that
// later in `walk` is older (fiber 0, the thread's own stack, is the oldest);
// the running fiber's from c. One chain without fibers.
struct chain_span {
  std::size_t begin, end;  // in walk
  std::size_t eligible;    // first index that may give (steal-back), or end
};

// Temporary backtracking: pick the point to give from, undo the winds newer
// than it (on its fiber's chain only: each fiber's pieces have their own
// copies of what winds change), pack the work, redo the winds.
task* give(worker_impl* w, ctx c, worker_impl* thief) {
  task* wanted = thief->wanted;
  auto& walk = w->walk;
  walk.clear();
  // For a steal-back, only the wanted piece's own frames may give: pieces
  // running nested above them may be unrelated work, and handing those back
  // would let the waiting worker's stack grow without bound. Points of the
  // piece's own frames lie deeper in the same task tree than the piece.
  chain_span spans[max_fibers];
  int nspans = 0;
  int found_span = -1;
  auto walk_one = [&](ctx top) {
    chain_span& sp = spans[nspans++];
    sp.begin = walk.size();
    sp.eligible = walk.size();
    bool found = false;
    walk_chain(top, [&](const chain_entry& e) {
      if (wanted && e.kind->type == node_type::boundary) {
        if (e.bound()->t == wanted) {
          found = true;
          return false;
        }
        sp.eligible = walk.size() + 1;
      }
      walk.push_back(e);
      return true;
    });
    sp.end = walk.size();
    if (found) found_span = nspans - 1;
    if (sp.eligible > sp.end) sp.eligible = sp.end;
  };
  if (w->waiting == 0) {
    walk_one(c);
  } else {
    // Every fiber's chain, the newest fiber first (by hand: GCC 12 warns
    // falsely on std::sort of 8 ints).
    int order[max_fibers];
    int n = 0;
    for (int k = 0; k < max_fibers; ++k) {
      if (w->fibers[k].state == fiber_slot::free) continue;
      int i = n++;
      for (; i > 0 && w->fibers[order[i - 1]].born < w->fibers[k].born; --i) order[i] = order[i - 1];
      order[i] = k;
    }
    for (int i = 0; i < n && !(wanted && found_span >= 0); ++i)
      walk_one(order[i] == w->running ? c : w->fibers[order[i]].top);
  }
  if (wanted && found_span < 0) return nullptr;  // the wanted piece is not running here (any more)

  // Highest priority; among equals the oldest (walk is newest first). Work
  // for another process only from kinds that can travel.
  bool remote = thief->remote_rank.load(std::memory_order_relaxed) >= 0;
  std::ptrdiff_t best = -1;
  int best_span = -1;
  std::int64_t best_prio = 0;
  for (int s = 0; s < nspans; ++s) {
    if (wanted && s != found_span) continue;
    std::size_t from = wanted ? spans[s].eligible : spans[s].begin;
    for (std::size_t i = from; i < spans[s].end; ++i) {
      const chain_entry& e = walk[i];
      if (e.kind->type != node_type::point) continue;
      if (remote && !e.kind->wire) continue;
      spawn_point* p = e.point();
      if (p->next >= p->end) continue;
      std::int64_t prio = e.kind->priority ? e.kind->priority(p) : 0;
      if (best < 0 || prio >= best_prio) {
        best = static_cast<std::ptrdiff_t>(i);
        best_span = s;
        best_prio = prio;
      }
    }
  }
  if (best < 0) {
    if (!wanted) w->offer_depth.store(INT32_MAX, std::memory_order_relaxed);
    return nullptr;
  }
  const chain_entry chosen = walk[static_cast<std::size_t>(best)];
  spawn_point* p = chosen.point();

  const auto from = static_cast<std::ptrdiff_t>(spans[best_span].begin);
  run_winds(walk, from, best, false);
  std::int64_t lo = p->end - (p->end - p->next + 1) / 2;
  std::int64_t hi = p->end;
  task* t = nullptr;
  try {
    t = chosen.kind->put(p, lo, hi);
  } catch (...) {
    run_winds(walk, from, best, true);
    throw;
  }
  p->end = lo;
  run_winds(walk, from, best, true);

  t->kind = chosen.kind;
  t->lo = lo;
  t->hi = hi;
  // The depth of the point given from (a steal-back walks only the wanted
  // piece's frames, which start at its depth), and, when the walk saw every
  // chain, the shallowest point left with work that can travel: what this
  // worker offers another process (worker_impl::offer_depth).
  for_each_point_depth(walk, spans[best_span].begin, spans[best_span].end, wanted ? wanted->tree_depth : 0,
                       [&](std::size_t i, std::int32_t d) {
                         if (i == static_cast<std::size_t>(best)) t->tree_depth = d;
                       });
  if (!wanted) {
    std::int32_t offer = INT32_MAX;
    for (int s = 0; s < nspans; ++s)
      for_each_point_depth(walk, spans[s].begin, spans[s].end, 0, [&](std::size_t i, std::int32_t d) {
        spawn_point* q = walk[i].point();
        if (walk[i].kind->wire && q->next < q->end) offer = std::min(offer, d);
      });
    w->offer_depth.store(offer, std::memory_order_relaxed);
  }
  t->victim = w;
  t->serial = next_task_serial();
  t->thief.store(thief, std::memory_order_relaxed);
  if (w->tracing) [[unlikely]] {
    int to = remote ? -1 - thief->remote_rank.load(std::memory_order_relaxed) : thief->id;
    w->note(trace_type::give, piece_flow_id(w->rt->rank(), t->serial), to, t->tree_depth, hi - lo);
  }
  point_aux* a = get_aux(w, p);
  t->origin = a;
  t->next_given = a->given;
  a->given = t;
  a->pending++;
  w->stats.pieces_given++;
  return t;
}

}  // namespace

bool release_request(worker_impl* w, worker_impl* r, task* answer) {
  // Not a plain store of nullptr: at the end of a root call the message
  // thread withdraws a proxy's request that is still unanswered
  // (network::tend_proxies), and another thief may have claimed `requester`
  // since; clearing it would lose that thief's request, and the thief would
  // wait for ever.
  worker_impl* expected = r;
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
bool lazy_may_serve(ctx c, const worker_impl* r) {
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
  worker_impl* r = w->requester.load(std::memory_order_acquire);
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
  if (release_request(w, r, t ? t : refused) && proxy) w->rt->net()->wake();  // the message thread sends it on
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
