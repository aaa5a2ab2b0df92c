// cancel() and cancelled(): see tascell/cancel.hpp.
#include "tascell/cancel.hpp"

#include "runtime.hpp"
#include "worker.hpp"

namespace tascell {

using namespace detail;

void cancel(ctx c) {
  worker_impl* w = impl(c);
  spawn_point* p = nullptr;
  for (node* n = c.top; n; n = n->prev) {
    if (n->kind->type == node_type::point) {
      p = static_cast<spawn_point*>(n);
      break;
    }
    if (n->kind->type == node_type::boundary) break;
  }
  if (!p) return;  // not inside a @dowork: nothing to cancel
  point_aux* a = get_aux(w, p, c.top);
  if (a->stopped) return;
  a->cancelled = true;
  stop_point(w, a, nullptr);  // the caller's own part runs on: no unwind_owner
  propagate_cancel(w, p);
}

bool cancelled(ctx c) {
  worker_impl* w = impl(c);
  if (w->attention.load(std::memory_order_relaxed)) serve_impl(c, false);
  for (node* n = c.top; n; n = n->prev) {
    if (n->kind->type == node_type::boundary)
      return static_cast<boundary*>(n)->t->stop.load(std::memory_order_acquire);
    if (n->kind->type == node_type::point) {
      point_aux* a = find_aux(w, static_cast<spawn_point*>(n));
      if (a && a->stopped) return true;
    }
  }
  return false;
}

}  // namespace tascell
