// This process as a thief (steal_thief.hpp).
#include "steal_thief.hpp"

#include <climits>
#include <string>
#include <thread>

namespace tascell::detail::net {

task* steal_thief::take_work(worker_face* w, bool hungry) {
  // A piece in this process's mailbox (shared_requests.hpp): taken here,
  // without waiting for the message thread to wake and move it.
  if (task* m = take_mailed(w)) return m;
  task* t = inbox_.load(std::memory_order_acquire);
  if (t && inbox_.compare_exchange_strong(t, nullptr, std::memory_order_acq_rel)) {
    t->thief.store(w, std::memory_order_seq_cst);
    c_.log.note(protocol_log::step::take, 0, t->from_handle, t->from_rank);
    if (t->stop.load(std::memory_order_seq_cst)) w->attention.store(1, std::memory_order_release);
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(c_.now().time_since_epoch()).count() -
              t->asked_ns;
    latencies_.add(ns);
    w->hungry.store(false, std::memory_order_relaxed);
    return t;
  }
  if (hungry) {
    bool first = !w->hungry.exchange(true, std::memory_order_relaxed);
    bool posted = post_request();
    if (first || posted) c_.loop.wake();
  }
  return nullptr;
}

bool steal_thief::post_request(bool* through_shared_memory) {
  // A request is armed also while a piece waits in the inbox
  // (keep_worker_post); out_of_work() keeps it until that piece has been
  // taken. (The piece was stored before the request was armed: seen here
  // after the acquire.)
  std::uint64_t seen = post_.ready_arming();
  if (!seen || !out_of_work()) return false;
  if (int us = claim_delay_us_for_testing.load(std::memory_order_relaxed)) [[unlikely]]
    std::this_thread::sleep_for(std::chrono::microseconds(us));
  if (claim_window_for_testing) [[unlikely]] claim_window_for_testing();
  // The arming seen, still ready: no request has been out since, so no
  // answer can have filled the inbox since out_of_work() looked.
  if (!post_.claim(seen)) return false;
  worker_post::request& a = post_.claimed_request();
  a.claimed = c_.now();
  ask_sent_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(a.claimed.time_since_epoch()).count(),
                     std::memory_order_relaxed);
  if (c_.loop.tracing()) a.claimed_trace = trace_now();
  expecting_.store(true, std::memory_order_relaxed);
  bool ok = c_.shared.post(a.rank, a.root, a.seq, a.largest, a.start);
  c_.log.note(protocol_log::step::claim, a.seq, ok);
  post_.post_ended(seen, ok);
  if (through_shared_memory) *through_shared_memory = ok;
  return true;
}

void steal_thief::piece_finishing(worker_face* w, bool last) {
  // Nothing under the piece (last), and not the root task (rank 0 runs it
  // busy, with nothing under it).
  if (last && !w->busy.load(std::memory_order_relaxed)) {
    w->hungry.store(true, std::memory_order_relaxed);
    post_request();
  }
}

bool steal_thief::may_ask() const {
  return c_.size >= 2 && c_.root.open() && !c_.process.root_done() && asking_.quiet();
}

bool steal_thief::out_of_work() const { return !inbox_.load(std::memory_order_acquire) && c_.all_hungry(); }

bool steal_thief::wants_work() const { return may_ask() && out_of_work(); }

bool steal_thief::keep_worker_post() {
  int st = post_.state_now();
  if (st >= worker_post::claimed) return adopt_worker_post();
  // Armed also while a piece waits in the inbox (it came in this turn): a
  // worker can claim only when every worker is idle, so after that piece has
  // been taken, and when it has run the request leaves at once. Arming only
  // at the next turn would wait for this thread to wake.
  bool can = c_.shared.active() && c_.cfg.loop == message_loop::adaptive && c_.loop.attached() &&
             may_ask() && c_.now() >= asking_.next_ask;
  if (st == worker_post::ready) return !can && adopt_or_disarm();
  if (!can) return false;
  int to = victims_.choose();
  if (!c_.shared.reaches(to)) return false;  // another machine: the message thread asks by MPI
  worker_post::request r;
  r.rank = to;
  r.seq = c_.next_seq++;
  r.root = c_.root.number();
  r.largest = c_.cfg.remote_giver == giver_choice::largest;
  r.start = c_.rng >> 17;
  c_.log.note(protocol_log::step::arm, r.seq, 0, to);
  post_.arm(r);
  return false;
}

bool steal_thief::adopt_or_disarm() {
  bool was_ready = post_.state_now() == worker_post::ready;
  if (post_.disarm()) {
    if (was_ready) c_.log.note(protocol_log::step::disarm, post_.armed().seq);
    return false;
  }
  // A worker claimed it first: its post is adopted.
  return adopt_worker_post();
}

bool steal_thief::adopt_worker_post() {
  int st = post_.state_now();
  if (st < worker_post::claimed) return false;
  // A worker between its claim and the end of its post: a few atomics (its
  // answer cannot come before the post ends). It may have been preempted by
  // this thread on its own core: at real-time priority sched_yield() would
  // never let it run again, so the thread leaves that priority (as pause()
  // does) and takes it again before it sleeps.
  while (st == worker_post::claimed) {
    c_.loop.step_aside();
    st = post_.state_now();
  }
  const worker_post::request& a = post_.armed();
  asking_.sent(a.seq, a.rank, a.claimed, st == worker_post::posted);
  expecting_.store(true, std::memory_order_relaxed);
  c_.log.note(protocol_log::step::adopt, a.seq, asking_.posted, a.rank);
  if (c_.loop.tracing()) c_.loop.note_at(a.claimed_trace, trace_type::ask, 0, a.rank, asking_.posted ? 1 : 0);
  if (asking_.posted) {
    posts_.all.fetch_add(1, std::memory_order_relaxed);
    posts_.by_workers.fetch_add(1, std::memory_order_relaxed);
  } else {
    writer w(c_.out.begin(a.rank, msg::request));
    w.put(a.root);
    w.put(a.seq);
    w.put(std::uint64_t{0});
  }
  post_.adopted();
  return true;
}

bool steal_thief::ask_for_work() {
  if (adopt_worker_post()) return true;
  auto started = c_.now();
  if (started < asking_.next_ask || !wants_work()) return false;
  // Every worker is idle but none has taken the armed request yet: ask here.
  if (adopt_or_disarm()) return true;
  int to = victims_.choose();
  std::uint64_t seq = c_.next_seq++;
  expecting_.store(true, std::memory_order_relaxed);
  ask_sent_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(started.time_since_epoch()).count(),
                     std::memory_order_relaxed);
  // To a process on this machine: posted to one of its workers directly
  // (shared_requests.hpp), or by MPI when that cannot be done now.
  bool posted = c_.shared.post(to, c_.root.number(), seq, c_.cfg.remote_giver == giver_choice::largest, c_.rng >> 17);
  asking_.sent(seq, to, started, posted);
  c_.log.note(protocol_log::step::ask, seq, posted, to);
  if (c_.loop.tracing()) c_.loop.note(trace_type::ask, 0, to, posted ? 1 : 0);
  if (posted) {
    posts_.all.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  writer w(c_.out.begin(to, msg::request));
  w.put(c_.root.number());
  w.put(seq);
  w.put(std::uint64_t{0});
  return true;
}

task* steal_thief::on_work(int from, reader& r, std::uint64_t& seq) {
  adopt_worker_post();  // the answer to a worker's post may come before its adoption
  task* t = received_pieces::unpack(from, r, seq);
  std::uint64_t handle = t->from_handle;
  pieces_.record(seq, t);
  if (asking_.answers(seq, from)) {
    t->asked_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(asking_.since.time_since_epoch()).count();
    asking_.answered();
    expecting_.store(false, std::memory_order_relaxed);
    c_.log.note(protocol_log::step::inbox, seq, handle, from);
    // One request out at a time, made only when the inbox was empty
    // (out_of_work): a piece still there now would be lost for good, and
    // the process that gave it would wait for it for ever.
    if (task* old = inbox_.exchange(t, std::memory_order_acq_rel))
      c_.fatal("internal error: work for request " + std::to_string(seq) + " from rank " + std::to_string(from) +
            " arrived while the inbox still held piece " + std::to_string(old->from_handle) + " of rank " +
            std::to_string(old->from_rank) + "; the last steps:\n" + c_.say_log());
    filled_inbox_ = true;
    // Hungry workers may be asleep in their back-off.
    c_.process.wake_workers();
    return nullptr;
  }
  return t;
}

task* steal_thief::take_mailed(worker_face* w) {
  if (c_.shared.mail_state() != shared_requests::mail_is_full || mail_bad_.load(std::memory_order_relaxed))
    return nullptr;
  int from = -1;
  std::string buf;
  task* t = nullptr;
  std::uint64_t seq = 0;
  try {
    if (!c_.shared.claim_mail(from, buf)) return nullptr;  // another worker, or the message thread
    if (from < 0 || from >= c_.size || from == c_.rank) throw malformed_message("from no other rank");
    reader r(buf);
    t = received_pieces::unpack(from, r, seq);
    if (!r.done()) throw malformed_message("bytes after the piece");
  } catch (...) {
    // The message thread takes it again and says what is wrong with it.
    delete t;
    mail_bad_.store(true, std::memory_order_relaxed);
    if (from != -1) c_.shared.mail_full_again();
    c_.loop.wake();
    return nullptr;
  }
  t->thief.store(w, std::memory_order_seq_cst);
  taken_.t = t;
  // When the request it answers left (the piece's trace record says how
  // long the steal took): one request is out at a time.
  t->asked_ns = ask_sent_ns_.load(std::memory_order_relaxed);
  taken_.seq = seq;
  taken_.at = c_.now();
  c_.shared.mail_taken();  // release: the message thread reads the three above after it
  c_.log.note(protocol_log::step::take_mail, seq, t->from_handle, from);
  w->hungry.store(false, std::memory_order_relaxed);
  // The piece is recorded (collect_taken) and the next request armed while
  // this piece runs, so that a worker can post it the moment the piece
  // ends: here, when the message thread is not in a turn (settle_take),
  // else by that thread, rung for it. (Armed only when the piece ended, the
  // request left 20-30 us later: UTS T3 on 2 x 1 idled that long per steal;
  // rung at every take, the thread's turns took the thief's core for about
  // 10 us a steal.)
  if (!settle_take(t, seq)) c_.loop.wake();
  return t;
}

bool steal_thief::settle_take(task* t, std::uint64_t seq) {
  if (c_.loop.tracing() || !c_.loop.try_take_turn()) return false;
  // Only the plain case: the piece is still the one taken and unrecorded
  // (the message thread may have recorded it before this took the turn, and
  // another worker taken the next), the request it answers was posted by a
  // worker, adopted or not, and nothing is half done. Anything else (a post
  // still being made, or one that failed and must go by MPI) is the message
  // thread's.
  int st = post_.state_now();
  int from = t->from_rank;
  bool plain = c_.shared.mail_state() == shared_requests::mail_is_taken && taken_.t == t &&
               (st == worker_post::posted ? post_.armed().seq == seq && post_.armed().rank == from
                                          : st == worker_post::none && asking_.answers(seq, from));
  if (plain) {
    collect_taken();
    keep_worker_post();
  }
  c_.loop.end_taken_turn();
  return plain;
}

bool steal_thief::collect_taken() {
  std::uint32_t st = c_.shared.mail_state();
  if (st == shared_requests::mail_is_empty || st == shared_requests::mail_is_full) return false;
  // A worker between its claim and mail_taken(): a copy and an unpack. It
  // may have been preempted by this thread on its own core (as in
  // adopt_worker_post).
  while (st == shared_requests::mail_is_taking) {
    c_.loop.step_aside();
    st = c_.shared.mail_state();
  }
  if (st != shared_requests::mail_is_taken) return false;  // it gave it back (mail_bad_)
  adopt_worker_post();
  task* t = taken_.t;
  std::uint64_t seq = taken_.seq;
  int from = t->from_rank;
  pieces_.record(seq, t);
  if (!asking_.answers(seq, from))
    c_.fatal("internal error: a worker took piece " + std::to_string(t->from_handle) + " of rank " +
          std::to_string(from) + " from the mailbox, answering request " + std::to_string(seq) +
          ", but the request out is " + std::to_string(asking_.seq) + " to rank " + std::to_string(asking_.rank) +
          "; the last steps:\n" + c_.say_log());
  latencies_.add(std::chrono::duration_cast<std::chrono::nanoseconds>(taken_.at - asking_.since).count());
  asking_.answered();
  expecting_.store(false, std::memory_order_relaxed);
  c_.shared.mail_empty();
  return true;
}

bool steal_thief::on_refuse(int from, std::uint64_t seq) {
  adopt_worker_post();
  c_.log.note(protocol_log::step::refuse, seq, 0, from);
  if (asking_.answers(seq, from)) {
    if (c_.loop.tracing()) c_.loop.note(trace_type::denied, 0, from);
    asking_.refused(c_.now(), c_.size - 1);
    expecting_.store(false, std::memory_order_relaxed);
    c_.loads[static_cast<std::size_t>(from)] = 0;
    return true;
  }
  return false;
}

long steal_thief::posted_wait_us() {
  long us = asking_.posted_wait_us(c_.now());
  if (us != 0) return us;
  c_.loop.nudge(asking_.rank);
  return LONG_MAX;
}

bool steal_thief::take_mail(bool now_or_never) {
  bool any = collect_taken();
  // Idle workers watch the mailbox and take a piece themselves (take_mailed);
  // taken here, it would wait in the inbox until this thread, which may
  // share their core, has ended its turn. So this thread takes it only when
  // no worker has for a while (they may all be busy with their own pieces
  // after a steal-back, or asleep).
  if (c_.shared.mail_state() != shared_requests::mail_is_full) {
    mail_seen_.seen = false;
    return any;
  }
  if (!mail_seen_.seen) {
    mail_seen_.seen = true;
    mail_seen_.at = c_.now();
  }
  if (!now_or_never && c_.now() - mail_seen_.at < std::chrono::microseconds(50) && c_.all_hungry()) return any;
  mail_seen_.seen = false;
  int from = -1;
  std::string buf;
  bool claimed = false;
  c_.guarded(from, [&] { claimed = c_.shared.claim_mail(from, buf); });
  if (!claimed) return any;
  c_.shared.mail_empty();
  c_.log.note(protocol_log::step::mail_in, 0, 0, from);
  c_.guarded(from, [&] {
    if (from < 0 || from >= c_.size || from == c_.rank)
      throw malformed_message("a piece in the mailbox from rank " + std::to_string(from));
    reader r(buf);
    std::uint64_t seq = 0;
    // A piece in the mailbox answers a posted request, never a steal-back
    // (those go by MPI: steal_victim::on_request makes a proxy that stands
    // in no slot).
    if (task* t = on_work(from, r, seq)) {
      pieces_.forget(from, t->from_handle);
      delete t;
      throw malformed_message("a piece in the mailbox that answers no request");
    }
    if (!r.done()) throw malformed_message("bytes after the piece in the mailbox");
  });
  return true;
}

void steal_thief::root_begun() { asking_.root_begun(c_.now()); }

}  // namespace tascell::detail::net
