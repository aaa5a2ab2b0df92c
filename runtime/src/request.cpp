// Asking for work: the thief's side of a steal, victim choice, back-off, and
// running a piece that was received.
#include <immintrin.h>
#include <sched.h>

#include <new>

#include "net/network.hpp"
#include "runtime.hpp"
#include "tascell/detail/entry.hpp"
#include "worker.hpp"

namespace tascell::detail {

std::uint64_t next_task_serial() noexcept {
  static std::atomic<std::uint64_t> n{0};
  return n.fetch_add(1, std::memory_order_relaxed) + 1;
}

void back_off(unsigned& failures) {
  ++failures;
  if (failures < 8) {
    for (int i = 0; i < 32; ++i) _mm_pause();
  } else if (failures < 256) {
    sched_yield();
  } else {
    // Long droughts (little parallelism left): sleep so an idle worker does
    // not take the core from a working one; work from another process ends
    // the nap at once.
    runtime::get().nap(failures < 1024 ? 20 : 100);
  }
}

// Protocol (one request per victim at a time):
//   thief: wanted = piece or null; reply = no_reply;
//          CAS victim.requester null -> thief; victim.attention = 1 (release)
//   victim (at a poll): attention = 0 (acq_rel); r = requester (acquire);
//          give or refuse; requester = null; r.reply = task or refused (release)
//   thief: spins on reply (acquire), serving its own requests meanwhile so
//          that two workers asking each other cannot deadlock.
task* request(worker_impl* w, ctx here, worker_face* v, task* wanted) {
  if (!v || v == w) return nullptr;
  w->wanted = wanted;
  w->reply.store(no_reply, std::memory_order_relaxed);
  worker_face* expected = nullptr;
  if (!v->requester.compare_exchange_strong(expected, w, std::memory_order_acq_rel,
                                            std::memory_order_relaxed))
    return nullptr;  // someone else is asking this victim
  w->stats.requests_sent++;
  activity before = w->act;
  if (wanted) w->set_activity(activity::steal_back);
  if (w->tracing) [[unlikely]] {
    w->request_ns = w->note(trace_type::request, 0, v->id, wanted != nullptr);
  }
  v->attention.store(1, std::memory_order_release);
  // A proxy of a thief in another process: its message thread sends the
  // request on. A victim that waits at a join may be napping in its
  // back-off: it answers when it wakes.
  if (v->remote_rank.load(std::memory_order_relaxed) >= 0) w->rt->link()->wake();
  else w->rt->wake_workers();
  task* t;
  unsigned spins = 0;
  long_wait waited;
  while ((t = w->reply.load(std::memory_order_acquire)) == no_reply) {
    if (w->attention.load(std::memory_order_relaxed)) serve_impl(here, false);
    if (++spins < 64) {
      _mm_pause();
    } else {
      sched_yield();
      if ((spins & 1023) == 0) [[unlikely]] watch_request(w, v, wanted, waited);
    }
  }
  if (wanted) w->set_activity(before);
  if (t == refused) {
    w->stats.requests_refused++;
    w->note(trace_type::refused, 0, v->id, wanted != nullptr);
    return nullptr;
  }
  w->stats.pieces_received++;
  if (wanted) w->stats.steal_backs++;
  w->answered_request = true;  // the next run_task starts this piece
  return t;
}

worker_impl* choose_victim(worker_impl* w) {
  runtime& rt = *w->rt;
  int n = rt.size();
  if (n < 2) return nullptr;
  auto pick = [&] {
    int v = static_cast<int>(w->rng() % static_cast<std::uint64_t>(n - 1));
    if (v >= w->id) ++v;
    return rt.worker(v);
  };
  if (rt.config().victim == victim_choice::loaded) {
    // A worker judged to have work: one that is running a piece (busy).
    for (int tries = 0; tries < n; ++tries) {
      worker_impl* v = pick();
      if (v->busy.load(std::memory_order_relaxed)) return v;
    }
  }
  return pick();
}

void run_task(worker_impl* w, ctx base, task* t) {
  auto* b = ::new (free_of(base)) boundary{t, kind_word(&boundary_kind, base)};
  bool was_busy = w->busy.load(std::memory_order_relaxed);
  w->busy.store(true, std::memory_order_relaxed);
  w->hungry.store(false, std::memory_order_relaxed);
  activity before = w->act;
  if (w->tracing) [[unlikely]] {
    // The latency: from this worker's request, or from the message thread's
    // request to another process (t->asked_ns), or unknown.
    std::int64_t asked = w->answered_request ? w->request_ns : t->asked_ns > 0 ? t->asked_ns : -1;
    std::int64_t now = trace_now();
    std::int64_t latency = asked >= 0 ? now - asked : -1;
    if (t->from_rank < 0)
      w->trace.instant(now, trace_type::start, piece_flow_id(w->rt->rank(), t->serial),
                       static_cast<worker_impl*>(t->victim)->id, latency, 0);
    else
      w->trace.instant(now, trace_type::start, piece_flow_id(t->from_rank, t->from_handle), -1 - t->from_rank,
                       latency, 0);
  }
  w->answered_request = false;
  if (t->from_rank >= 0) w->rt->net()->tables().arrivals().acquire_applied();
  // A stop that came while the piece waited for this worker (its giver's
  // stop_point, or a STOP received, before the worker took its reply: the
  // attention it raised was served in the request's spin) is seen at the
  // piece's first poll; without this the piece ran to its end (found by the
  // simulation's stopping-early check, tests/sim).
  if (t->stop.load(std::memory_order_acquire)) [[unlikely]] w->attention.store(1, std::memory_order_release);
  w->set_activity(activity::work);
  // Its own point is open at t->tree_depth, with work when the range has
  // more than the index it starts with.
  if (w->depth == 0) w->offer_depth.store(t->tree_depth, std::memory_order_relaxed);
  ++w->depth;
  try {
    t->kind->run(after(b + 1), t);
  } catch (stop_signal&) {
    t->completed = false;  // stopped before it finished
  } catch (...) {
    t->error = std::current_exception();
    t->completed = false;
  }
  --w->depth;
  // The piece is finished only when the table updates issued in it have
  // been applied (table.hpp, "Completion").
  if (w->unsettled) [[unlikely]] settle_updates(w);
  w->set_activity(before);
  w->busy.store(was_busy, std::memory_order_relaxed);
  if (t->from_rank >= 0) {
    // From another process: the message thread sends the outputs back.
    w->rt->link()->piece_finished(t, w, w->depth == 0 && w->waiting == 0);
    return;
  }
  piece_done(t);
}

}  // namespace tascell::detail
