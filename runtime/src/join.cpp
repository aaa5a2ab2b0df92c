// Joins: waiting for the pieces of a @dowork that were given away, without
// idling (steal back from the thief, take other work), then merging them.
#include <algorithm>
#include <chrono>
#include <thread>

#include "net/worker_link.hpp"
#include "runtime.hpp"
#include "tascell/detail/entry.hpp"
#include "worker.hpp"

namespace tascell::detail {
namespace {

// How many pieces may run nested on one worker before a waiting worker stops
// taking unrelated work (it still steals back).
constexpr int max_unrelated_nesting = 3;

// Takes note of every piece that has finished since the last call: the first
// exception stops the @dowork, a cancel() inside a piece cancels it. True
// when no piece is still running.
bool absorb(worker_impl* w, point_aux* a) {
  for (task* t = a->given; t && a->pending > 0; t = t->next_given) {
    if (t->merged || !t->done.load(std::memory_order_acquire)) continue;
    if (t->error) {
      if (!a->error) a->error = t->error;
      stop_point(w, a, nullptr);
    } else if (t->cancel_up.load(std::memory_order_acquire) && !a->stopped) {
      a->cancelled = true;
      stop_point(w, a, t);
      propagate_cancel(w, a->point);
    }
    t->merged = true;  // finished and accounted for; the frame merges it
    --a->pending;
  }
  return a->pending == 0;
}

// One attempt to be useful while waiting. True if a piece was run.
bool help(worker_impl* w, ctx c, point_aux* a, bool may_unwind) {
  if (w->attention.load(std::memory_order_relaxed)) serve_impl(c, may_unwind);
  // TASCELL_WAIT=suspend: a fiber that may go on (its join is ready, or it
  // let this one go first at a poll) runs first, the oldest first.
  if (w->waiting > 0) {
    int k = ready_fiber(w, true);
    if (k >= 0) {
      suspend_at_join(w, c, a, may_unwind, nullptr, k);
      return true;
    }
  }
  // Pieces another process of this machine ran may have ended: their
  // results wait in shared memory for this worker or its message thread.
  if (net::worker_link* n = w->rt->link()) n->take_results();
  bool steal_back = !no_steal_back_for_testing.load(std::memory_order_relaxed);
  for (task* t = a->given; steal_back && t; t = t->next_given) {
    if (t->merged || t->done.load(std::memory_order_acquire)) continue;
    auto* thief = static_cast<worker_face*>(t->thief.load(std::memory_order_acquire));
    // A thief in another process: each try is a message round trip that
    // interrupts the worker running the piece there, so after a refusal the
    // next try waits, 20 us and twice as long each time up to 1 ms.
    bool remote = thief && thief->remote_rank.load(std::memory_order_relaxed) >= 0;
    std::chrono::steady_clock::time_point now{};
    if (remote) {
      // With processes of this machine, a request for any work, posted to
      // the thief's workers through shared memory, comes back in a few
      // microseconds without waking a message thread, while a steal-back
      // goes through both message threads (30-50 us). The thief's oldest
      // work is most often inside this piece: it is asked for first (UTS T3
      // on 2 x 1: 50-70 steal-backs a root call, 3 ms of waiting, became
      // requests). Only while this worker may nest unrelated work.
      net::worker_link* n = w->rt->link();
      if (n->shares_requests() && w->depth < max_unrelated_nesting) {
        if (n->expecting_work()) break;
        if (task* u = n->take_work(w, true)) {
          run_task(w, c, u);
          return true;
        }
        if (n->expecting_work()) break;
      }
      now = std::chrono::steady_clock::now();
      if (now < w->next_remote_back) break;
      if (int us = steal_back_delay_us_for_testing.load(std::memory_order_relaxed)) [[unlikely]]
        std::this_thread::sleep_for(std::chrono::microseconds(us));
    }
    if (task* u = request(w, c, thief, t)) {  // steal back
      w->remote_back_refusals = 0;
      run_task(w, c, u);
      return true;
    }
    if (remote) {
      unsigned k = std::min(w->remote_back_refusals++, 6u);
      w->next_remote_back = now + std::chrono::microseconds(20L << k);
    }
    break;
  }
  // TASCELL_WAIT=suspend: other work runs on a fiber of its own, and this
  // join waits on its own fiber until its pieces are done (or a stop
  // concerns it). Without a free fiber, it nests as below.
  if (w->suspend) {
    if (int k = free_fiber(w); k >= 0) {
      task* u = request(w, c, choose_victim(w), nullptr);
      if (!u && w->rt->link()) u = w->rt->link()->take_work(w, true);
      if (u) {
        suspend_at_join(w, c, a, may_unwind, u, k);
        return true;
      }
      return false;
    }
  }
  // Unrelated work runs nested on this worker's stack, above the join, and
  // may itself wait and nest again: without a bound the stack grows without
  // limit (seen: 100,000 frames). Steal-back needs no bound: a piece stolen
  // back lies inside the awaited piece, deeper in the same tree, so its
  // nesting is bounded by the depth of the task tree.
  bool may_nest = w->depth < max_unrelated_nesting;
  task* u = may_nest ? request(w, c, choose_victim(w), nullptr) : nullptr;
  // A piece another process sent must not wait for a worker that can take
  // it: that process may be waiting for it, and this worker's wait may
  // depend on that process. So it is taken at any depth; but only a worker
  // that may nest counts as hungry, so pieces are asked for rarely here.
  if (!u && w->rt->link()) u = w->rt->link()->take_work(w, may_nest);
  if (u) {
    run_task(w, c, u);
    return true;
  }
  return false;
}

void drain(worker_impl* w, ctx c, point_aux* a) {
  unsigned failures = 0;
  while (!absorb(w, a)) {
    if (help(w, c, a, false)) failures = 0;
    else back_off(failures);
  }
}

// Removes a (the newest aux), frees its pieces and a itself.
void free_aux(worker_impl* w, point_aux* a) {
  w->aux_stack.pop_back();
  w->sync_aux_owner();
  for (task* t = a->given; t;) {
    task* next = t->next_given;
    delete t;
    t = next;
  }
  delete a;
}

}  // namespace

task* join(ctx c, spawn_point& p) {
  worker_impl* w = impl(c);
  point_aux* a = w->aux_stack.back();
  w->remote_back_refusals = 0;
  a->at_join = true;
  wait_scope ws(w);
  try {
    unsigned failures = 0;
    while (!absorb(w, a)) {
      if (help(w, c, a, true)) failures = 0;
      else back_off(failures);
    }
  } catch (...) {
    // An older node is being unwound (or the runtime failed): stop this
    // @dowork too and wait for its pieces; the exception goes on from
    // release(), after the caller has merged them (every update that
    // completed counts, also in a piece that was stopped).
    stop_point(w, a, nullptr);
    drain(w, c, a);
    a->rethrow = std::current_exception();
  }
  (void)p;
  return a->given;
}

task* unwind(ctx c, spawn_point& p) {
  worker_impl* w = impl(c);
  std::exception_ptr e = std::current_exception();
  const void* target = nullptr;
  try {
    throw;
  } catch (stop_signal& s) {
    target = s.target;
  } catch (...) {
  }
  point_aux* a = find_aux(w, &p);
  if (!a) {
    if (target == &p) return nullptr;
    std::rethrow_exception(e);
  }
  a->at_join = true;
  if (target == &p) {
    // Stopped on purpose (cancel, or an exception elsewhere): already stopped.
  } else if (target) {
    stop_point(w, a, nullptr);
  } else {
    if (!a->error) a->error = e;
    stop_point(w, a, nullptr);
  }
  {
    wait_scope ws(w);
    drain(w, c, a);
  }
  // The pieces are merged in every case (every update that completed
  // counts, also in a piece that was stopped); release() then rethrows.
  if (target && target != &p) a->rethrow = e;  // an older node is being unwound
  else if (!a->error) a->cancelled = true;     // completes normally with what finished
  return a->given;
}

bool release(ctx c, spawn_point& p) {
  worker_impl* w = impl(c);
  if (w->aux_owner != &p) return true;  // unwind() found no state: a cancel aimed at p
  point_aux* a = w->aux_stack.back();
  bool cancelled = a->cancelled;
  std::exception_ptr err = a->error;
  std::exception_ptr again = a->rethrow;
  free_aux(w, a);
  if (again) std::rethrow_exception(again);
  if (err) std::rethrow_exception(err);
  return cancelled;
}

}  // namespace tascell::detail
