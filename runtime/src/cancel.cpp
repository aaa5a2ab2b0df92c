// cancel() and cancelled(): see tascell/cancel.hpp.
#include "tascell/cancel.hpp"

#include "runtime.hpp"
#include "worker.hpp"

namespace tascell {

using namespace detail;

void cancel(ctx c) {
  worker_impl* w = impl(c);
  // The innermost @dowork has started all its work (this is its last part):
  // there is nothing left of it to stop.
  if (is_finished(c)) return;
  spawn_point* p = nullptr;
  walk_chain(c, [&](const chain_entry& e) {
    if (e.kind->type == node_type::point) {
      p = e.point();
      return false;
    }
    // A node pushed under a finished ctx: the innermost @dowork is that
    // finished one; a boundary: not inside a @dowork of this piece.
    return !(e.finished_below || e.kind->type == node_type::boundary);
  });
  if (!p) return;
  point_aux* a = get_aux(w, p);
  if (a->stopped) return;
  a->cancelled = true;
  w->note(trace_type::cancel);
  stop_point(w, a, nullptr);  // the caller's own part runs on: no unwind_owner
  propagate_cancel(w, p);
}

bool cancelled(ctx c) {
  worker_impl* w = impl(c);
  if (w->attention.load(std::memory_order_relaxed)) serve_impl(c, false);
  bool stopped = false;
  walk_chain(c, [&](const chain_entry& e) {
    if (e.kind->type == node_type::boundary) {
      stopped = e.bound()->t->stop.load(std::memory_order_acquire);
      return false;
    }
    if (e.kind->type == node_type::point) {
      point_aux* a = find_aux(w, e.point());
      if (a && a->stopped) {
        stopped = true;
        return false;
      }
    }
    return true;
  });
  // serve_impl above may not unwind, and it cleared `attention`: set it again
  // so that the stop still happens at the next poll (without this, a piece
  // that saw cancelled() went on past every later poll, and gave work away).
  if (stopped) w->attention.store(1, std::memory_order_relaxed);
  return stopped;
}

}  // namespace tascell
