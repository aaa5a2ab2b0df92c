// This process as a victim on its machine's shared memory (victim_mail.hpp).
#include "victim_mail.hpp"

#include <exception>
#include <ostream>
#include <string>

#include "byte_streams.hpp"
#include "registry.hpp"
#include "steal_victim.hpp"
#include "tascell/detail/entry.hpp"
#include "tascell/wire.hpp"

namespace tascell::detail::net {

std::size_t write_work(writer& w, std::uint64_t seq, task* t, std::size_t limit) {
  w.put(seq);
  w.put(id_of(t->kind));
  w.put(t->serial);
  w.put(t->lo);
  w.put(t->hi);
  w.put(t->tree_depth);
  std::size_t at = w.open_bytes();
  {
    string_sink sink(w.out(), limit);
    std::ostream os(&sink);
    out_archive a(os);
    t->kind->wire->pack(t, a);
  }
  return w.close_bytes(at);
}

int victim_mail::mail_piece(worker_face* proxy_worker, task* t) {
  // Read before the piece is handed over (the message thread may reuse the
  // proxy then); written by the message thread before it published the
  // proxy (remote_rank last, with release).
  int thief = proxy_worker->remote_rank.load(std::memory_order_acquire);
  int k = proxy_worker->post_slot;
  if (k < 0 || thief < 0 || !t->kind->wire) return -1;
  // Packed into this worker's own buffer, and no further than a mailbox
  // holds: a bigger piece goes by MPI, packed by the message thread.
  thread_local std::string body;
  body.clear();
  std::size_t inputs = 0;
  try {
    writer w(body);
    inputs = write_work(w, c_.shared.posted_seq(thief, k), t, shared_requests::mailbox_capacity);
  } catch (const std::exception&) {
    return -1;  // the message thread tries again and says why it cannot
  }
  if (!c_.shared.write_mail(thief, body)) return -1;
  steal_context::count_sent(sent_, inputs);
  t->mailed = true;
  return thief;
}

void victim_mail::mail_sent(int thief) {
  c_.shared.publish_mail(thief);
  mailed_.fetch_add(1, std::memory_order_relaxed);
  // The message thread is not woken: it records the piece at its next turn,
  // or when a message about it comes (steal_victim::given_proxy); the
  // thief's next request finds another slot free (slots_per_thief). The
  // results of such pieces do not wake it either (mail_result), so once
  // half the thief's slots wait, this worker records the pieces and frees
  // the slots itself when the thread is not in a turn, or rings it: else
  // the thief's requests would go by MPI, waking both message threads. The
  // results waiting in shared memory are taken then too, so that the
  // thief's results need not go by MPI for want of room.
  if (c_.shared.unadopted(thief) < shared_requests::slots_per_thief / 2) return;
  if (!c_.loop.try_take_turn()) {
    c_.loop.wake();
    return;
  }
  victim_.collect_mailed();
  take_results_in_turn();
}

void victim_mail::apply_result(int from, std::string_view bytes) {
  reader r(bytes);
  victim_.on_result(from, r);
  if (!r.done()) throw malformed_message("bytes after the result");
}

bool victim_mail::take_results() {
  // Each result guarded with its own sender: a malformed one names the
  // process that put it into the ring.
  return c_.shared.take_results(
      [&](int thief, std::string_view bytes) { c_.guarded(thief, [&] { apply_result(thief, bytes); }); });
}

bool victim_mail::take_results_here() {
  if (!c_.shared.results_waiting() || !c_.loop.try_take_turn()) return false;
  return take_results_in_turn();
}

bool victim_mail::take_results_in_turn() {
  bool any = false, bad = false;
  try {
    any = c_.shared.take_results([&](int thief, std::string_view bytes) {
      apply_result(thief, bytes);
      results_here_.fetch_add(1, std::memory_order_relaxed);
    });
  } catch (const std::exception&) {
    bad = true;  // left where it is: the message thread takes it and says what is wrong
  }
  c_.loop.end_taken_turn();
  if (bad) c_.loop.wake();
  return any;
}

}  // namespace tascell::detail::net
