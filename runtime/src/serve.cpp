// Serving: what a worker does at a poll when `attention` is set.
//
// 1. Alarms: a piece given away from one of this worker's points ended with
//    an exception or called cancel(); stop that @dowork.
// 2. A request: find work on the chain by temporary backtracking and hand
//    it over, or refuse.
// 3. Stops: if the running piece, or a @dowork in it, was stopped, unwind to
//    it by throwing stop_signal (only where the caller allows unwinding).
#include <algorithm>

#include "net/network.hpp"
#include "runtime.hpp"
#include "tascell/detail/entry.hpp"
#include "worker.hpp"

namespace tascell::detail {

const node_kind boundary_kind{node_type::boundary, sizeof(boundary), nullptr, nullptr, nullptr,
                              false, "piece", nullptr, nullptr, nullptr};

point_aux* find_aux(worker_impl* w, spawn_point* p) {
  for (auto it = w->aux_stack.rbegin(); it != w->aux_stack.rend(); ++it)
    if ((*it)->point == p) return *it;
  return nullptr;
}

// Invariant: aux_stack lists the points that have an aux in chain order,
// newest last, so a join always finds its own aux at the back. Nodes lie in
// the node stack in chain order, so newer means at a higher address.
point_aux* get_aux(worker_impl* w, spawn_point* p) {
  if (point_aux* a = find_aux(w, p)) return a;
  auto pos = w->aux_stack.end();
  while (pos != w->aux_stack.begin() && (*(pos - 1))->point > p) --pos;
  auto* a = new point_aux;
  a->point = p;
  w->aux_stack.insert(pos, a);
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
  if (start <= stack_base(w)) return;
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

void process_alarms(worker_impl* w) {
  for (point_aux* a : w->aux_stack) {
    if (!a->alarm.exchange(false, std::memory_order_acq_rel)) continue;
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

void run_winds(std::vector<chain_entry>& walk, std::ptrdiff_t below, bool redo) {
  if (redo) {
    for (std::ptrdiff_t i = below - 1; i >= 0; --i) {
      const chain_entry& e = walk[static_cast<std::size_t>(i)];
      if (e.kind->type == node_type::wind) e.kind->redo(e.start);
    }
  } else {
    for (std::ptrdiff_t i = 0; i < below; ++i) {
      const chain_entry& e = walk[static_cast<std::size_t>(i)];
      if (e.kind->type == node_type::wind) e.kind->undo(e.start);
    }
  }
}

// The depth in the task tree of each spawn point on the walk (newest first),
// counted from its oldest node, which lies at depth `base`: the root call's
// points from 0, a piece's from its tree_depth (its boundary). Returns the
// depth of walk[chosen]. With `publish` (the walk is the whole chain), also
// publishes the depth of the oldest point that still has work that can
// travel (worker_impl::offer_depth).
std::int32_t tree_depth_of(worker_impl* w, const std::vector<chain_entry>& walk, std::ptrdiff_t chosen,
                           std::int32_t base, bool publish) {
  std::int32_t depth = base, chosen_depth = base, offer = INT32_MAX;
  for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(walk.size()) - 1; i >= 0; --i) {
    const chain_entry& e = walk[static_cast<std::size_t>(i)];
    if (e.kind->type == node_type::boundary) {
      depth = e.bound()->t->tree_depth;
      continue;
    }
    if (e.kind->type != node_type::point) continue;
    if (i == chosen) chosen_depth = depth;
    spawn_point* p = e.point();
    if (offer == INT32_MAX && e.kind->wire && p->next < p->end) offer = depth;
    ++depth;
  }
  if (publish) w->offer_depth.store(offer, std::memory_order_relaxed);
  return chosen_depth;
}

// Temporary backtracking: pick the point to give from, undo the winds newer
// than it, pack the work, redo the winds.
task* give(worker_impl* w, ctx c, worker_impl* thief) {
  task* wanted = thief->wanted;
  auto& walk = w->walk;
  walk.clear();
  bool found = wanted == nullptr;
  // For a steal-back, only the wanted piece's own frames may give: pieces
  // running nested above them may be unrelated work, and handing those back
  // would let the waiting worker's stack grow without bound. Points of the
  // piece's own frames lie deeper in the same task tree than the piece.
  std::size_t first_eligible = 0;
  walk_chain(c, [&](const chain_entry& e) {
    if (wanted && e.kind->type == node_type::boundary) {
      if (e.bound()->t == wanted) {
        found = true;
        return false;
      }
      first_eligible = walk.size() + 1;
    }
    walk.push_back(e);
    return true;
  });
  if (!found) return nullptr;  // the wanted piece is not running here (any more)

  // Highest priority; among equals the oldest (walk is newest first). Work
  // for another process only from kinds that can travel.
  bool remote = thief->remote_rank.load(std::memory_order_relaxed) >= 0;
  std::ptrdiff_t best = -1;
  std::int64_t best_prio = 0;
  for (std::size_t i = first_eligible; i < walk.size(); ++i) {
    const chain_entry& e = walk[i];
    if (e.kind->type != node_type::point) continue;
    if (remote && !e.kind->wire) continue;
    spawn_point* p = e.point();
    if (p->next >= p->end) continue;
    std::int64_t prio = e.kind->priority ? e.kind->priority(p) : 0;
    if (best < 0 || prio >= best_prio) {
      best = static_cast<std::ptrdiff_t>(i);
      best_prio = prio;
    }
  }
  if (best < 0) {
    if (!wanted) w->offer_depth.store(INT32_MAX, std::memory_order_relaxed);
    return nullptr;
  }
  const chain_entry chosen = walk[static_cast<std::size_t>(best)];
  spawn_point* p = chosen.point();

  run_winds(walk, best, false);
  std::int64_t lo = p->end - (p->end - p->next + 1) / 2;
  std::int64_t hi = p->end;
  task* t = nullptr;
  try {
    t = chosen.kind->put(p, lo, hi);
  } catch (...) {
    run_winds(walk, best, true);
    throw;
  }
  p->end = lo;
  run_winds(walk, best, true);

  t->kind = chosen.kind;
  t->lo = lo;
  t->hi = hi;
  // A steal-back walks only the wanted piece's frames, which start at its
  // depth.
  t->tree_depth = tree_depth_of(w, walk, best, wanted ? wanted->tree_depth : 0, !wanted);
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

void answer_request(worker_impl* w, ctx c, bool refuse) {
  worker_impl* r = w->requester.load(std::memory_order_acquire);
  if (!r) return;
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
    w->requester.store(nullptr, std::memory_order_release);
    r->reply.store(refused, std::memory_order_release);
    throw;
  }
  if (t) w->stats.requests_served++;
  else w->stats.requests_declined++;
  // Read before the reply: once it is out, the message thread may reuse r.
  bool proxy = r->remote_rank.load(std::memory_order_relaxed) >= 0;
  w->requester.store(nullptr, std::memory_order_release);
  r->reply.store(t ? t : refused, std::memory_order_release);
  if (proxy) w->rt->net()->wake();  // the message thread sends it on
}

// The oldest node of the running piece that must be unwound to, or nullptr.
const void* stop_target(worker_impl* w, ctx c) {
  const void* target = nullptr;
  walk_chain(c, [&](const chain_entry& e) {
    if (e.kind->type == node_type::boundary) {
      if (e.bound()->t->stop.load(std::memory_order_acquire)) target = e.start;
      return false;
    }
    if (e.kind->type == node_type::point) {
      point_aux* a = find_aux(w, e.point());
      if (a && a->stopped && a->unwind_owner && !a->at_join) target = e.start;
    }
    return true;
  });
  return target;
}

}  // namespace

void serve_impl(ctx c, bool may_unwind) {
  worker_impl* w = impl(c);
  w->attention.exchange(0, std::memory_order_acq_rel);
  process_alarms(w);
  const void* target = may_unwind ? stop_target(w, c) : nullptr;
  // A piece about to be unwound gives nothing away.
  answer_request(w, c, target != nullptr);
  if (target) throw stop_signal{target};
}

void serve(ctx c) { serve_impl(c, true); }

}  // namespace tascell::detail
