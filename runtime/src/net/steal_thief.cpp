// This process as a thief (steal_thief.hpp).
#include "steal_thief.hpp"

#include <climits>
#include <sstream>
#include <thread>

#include "registry.hpp"
#include "tascell/detail/entry.hpp"
#include "tascell/wire.hpp"

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
    {
      std::lock_guard<std::mutex> g(lat_m_);
      latencies_.push_back(ns);
    }
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
  std::uint64_t seen = arm_.load(std::memory_order_acquire);
  if (arm_state_of(seen) != arm_ready || !out_of_work()) return false;
  if (int us = claim_delay_us_for_testing.load(std::memory_order_relaxed)) [[unlikely]]
    std::this_thread::sleep_for(std::chrono::microseconds(us));
  if (claim_window_for_testing) [[unlikely]] claim_window_for_testing();
  // The arming seen, still ready: no request has been out since, so no
  // answer can have filled the inbox since out_of_work() looked.
  if (!arm_.compare_exchange_strong(seen, arm_word(seen, arm_claimed), std::memory_order_acq_rel)) return false;
  armed_.claimed = c_.now();
  ask_sent_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(armed_.claimed.time_since_epoch()).count(),
                     std::memory_order_relaxed);
  if (c_.loop.tracing()) armed_.claimed_trace = trace_now();
  expecting_.store(true, std::memory_order_relaxed);
  bool ok = c_.shared.post(armed_.rank, armed_.root, armed_.seq, armed_.largest, armed_.start);
  c_.log.note(protocol_log::step::claim, armed_.seq, ok);
  arm_.store(arm_word(seen, ok ? arm_posted : arm_failed), std::memory_order_release);
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

int steal_thief::choose_victim_rank() {
  if (preferred_victim_ >= 0 && preferred_victim_ < c_.size && preferred_victim_ != c_.rank) {
    int v = preferred_victim_;
    preferred_victim_ = -1;
    return v;
  }
  auto random_other = [&] {
    c_.rng ^= c_.rng << 13;
    c_.rng ^= c_.rng >> 7;
    c_.rng ^= c_.rng << 17;
    int v = static_cast<int>(c_.rng % static_cast<std::uint64_t>(c_.size - 1));
    return v >= c_.rank ? v + 1 : v;
  };
  if (c_.cfg.remote_victim == victim_choice::loaded) {
    // The process with the highest load heard of (piggy-backed on every
    // batch); ties and no news: random.
    int best = -1, best_load = 0;
    int start = random_other();
    for (int k = 0; k < c_.size; ++k) {
      int r = (start + k) % c_.size;
      if (r == c_.rank) continue;
      if (c_.loads[static_cast<std::size_t>(r)] > best_load) {
        best = r;
        best_load = c_.loads[static_cast<std::size_t>(r)];
      }
    }
    if (best >= 0) return best;
  }
  return random_other();
}

bool steal_thief::may_ask() const {
  return c_.size >= 2 && c_.root.open() && !c_.process.root_done() && !asking_seq_;
}

bool steal_thief::out_of_work() const { return !inbox_.load(std::memory_order_acquire) && all_hungry(); }

bool steal_thief::wants_work() const { return may_ask() && out_of_work(); }

bool steal_thief::keep_worker_post() {
  std::uint64_t word = arm_.load(std::memory_order_acquire);
  int st = arm_state_of(word);
  if (st >= arm_claimed) return adopt_worker_post();
  // Armed also while a piece waits in the inbox (it came in this turn): a
  // worker can claim only when every worker is idle, so after that piece has
  // been taken, and when it has run the request leaves at once. Arming only
  // at the next turn would wait for this thread to wake.
  bool can = c_.shared.active() && c_.cfg.loop == message_loop::adaptive && c_.loop.attached() &&
             may_ask() && c_.now() >= next_ask_;
  if (st == arm_ready) {
    if (!can && !disarm_worker_post()) return adopt_worker_post();
    return false;
  }
  if (!can) return false;
  int to = choose_victim_rank();
  if (!c_.shared.reaches(to)) return false;  // another machine: the message thread asks by MPI
  armed_.rank = to;
  armed_.seq = c_.next_seq++;
  armed_.root = c_.root.number();
  armed_.largest = c_.cfg.remote_giver == giver_choice::largest;
  armed_.start = c_.rng >> 17;
  c_.log.note(protocol_log::step::arm, armed_.seq, 0, to);
  arm_.store(arm_word(word + 8, arm_ready), std::memory_order_release);  // the next arming
  return false;
}

bool steal_thief::disarm_worker_post() {
  std::uint64_t word = arm_.load(std::memory_order_acquire);
  if (arm_state_of(word) == arm_ready &&
      arm_.compare_exchange_strong(word, arm_word(word, arm_none), std::memory_order_acq_rel)) {
    c_.log.note(protocol_log::step::disarm, armed_.seq);
    return true;
  }
  return arm_state_of(word) == arm_none;
}

bool steal_thief::adopt_worker_post() {
  int st = arm_state_of(arm_.load(std::memory_order_acquire));
  if (st < arm_claimed) return false;
  // A worker between its claim and the end of its post: a few atomics (its
  // answer cannot come before the post ends). It may have been preempted by
  // this thread on its own core: at real-time priority sched_yield() would
  // never let it run again, so the thread leaves that priority (as pause()
  // does) and takes it again before it sleeps.
  while (st == arm_claimed) {
    c_.loop.step_aside();
    st = arm_state_of(arm_.load(std::memory_order_acquire));
  }
  const armed_request& a = armed_;
  asking_seq_ = a.seq;
  asking_rank_ = a.rank;
  asking_since_ = a.claimed;
  expecting_.store(true, std::memory_order_relaxed);
  posted_ = st == arm_posted;
  posted_rung_ = false;
  c_.log.note(protocol_log::step::adopt, a.seq, posted_, a.rank);
  if (c_.loop.tracing()) c_.loop.note_at(a.claimed_trace, trace_type::ask, 0, a.rank, posted_ ? 1 : 0);
  if (posted_) {
    posts_.fetch_add(1, std::memory_order_relaxed);
    worker_posts_.fetch_add(1, std::memory_order_relaxed);
  } else {
    writer w(c_.out.begin(a.rank, msg::request));
    w.put(a.root);
    w.put(a.seq);
    w.put(std::uint64_t{0});
  }
  arm_.store(arm_word(arm_.load(std::memory_order_relaxed), arm_none), std::memory_order_release);
  return true;
}

bool steal_thief::ask_for_work() {
  if (adopt_worker_post()) return true;
  auto started = c_.now();
  if (started < next_ask_ || !wants_work()) return false;
  // Every worker is idle but none has taken the armed request yet: ask here.
  if (!disarm_worker_post()) return adopt_worker_post();
  int to = choose_victim_rank();
  asking_seq_ = c_.next_seq++;
  expecting_.store(true, std::memory_order_relaxed);
  asking_rank_ = to;
  asking_since_ = started;
  ask_sent_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(started.time_since_epoch()).count(),
                     std::memory_order_relaxed);
  // To a process on this machine: posted to one of its workers directly
  // (shared_requests.hpp), or by MPI when that cannot be done now.
  posted_ = c_.shared.post(to, c_.root.number(), asking_seq_, c_.cfg.remote_giver == giver_choice::largest, c_.rng >> 17);
  posted_rung_ = false;
  c_.log.note(protocol_log::step::ask, asking_seq_, posted_, to);
  if (c_.loop.tracing()) c_.loop.note(trace_type::ask, 0, to, posted_ ? 1 : 0);
  if (posted_) {
    posts_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  writer w(c_.out.begin(to, msg::request));
  w.put(c_.root.number());
  w.put(asking_seq_);
  w.put(std::uint64_t{0});
  return true;
}

task* steal_thief::unpack_work(int from, reader& r, std::uint64_t& seq) {
  seq = r.get<std::uint64_t>("a request number");
  auto kind_id = r.get<std::uint64_t>("a kind of work");
  auto handle = r.get<std::uint64_t>("a piece handle");
  auto lo = r.get<std::int64_t>("a range");
  auto hi = r.get<std::int64_t>("a range");
  auto depth = r.get<std::int32_t>("a depth in the task tree");
  std::string_view inputs = r.bytes("the inputs");
  const node_kind* k = find_kind(kind_id);
  if (!k || !k->wire) throw malformed_message("work of a kind this binary does not have");
  std::istringstream is{std::string(inputs)};
  task* t = nullptr;
  {
    in_archive a(is);
    t = k->wire->unpack(lo, hi, a);
  }
  t->kind = k;
  t->tree_depth = depth;
  t->from_rank = from;
  t->from_handle = handle;
  t->serial = next_task_serial();
  return t;
}

task* steal_thief::on_work(int from, reader& r, std::uint64_t& seq) {
  adopt_worker_post();  // the answer to a worker's post may come before its adoption
  task* t = unpack_work(from, r, seq);
  std::uint64_t handle = t->from_handle;
  record_received(seq, t);
  if (seq == asking_seq_ && from == asking_rank_) {
    answered();
    t->asked_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(asking_since_.time_since_epoch()).count();
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

void steal_thief::record_received(std::uint64_t seq, task* t) {
  received_[{t->from_rank, t->from_handle}] = t;
  c_.log.note(protocol_log::step::work, seq, t->from_handle, t->from_rank);
  if (c_.loop.tracing()) c_.loop.note(trace_type::arrived, piece_flow_id(t->from_rank, t->from_handle), t->from_rank);
}

void steal_thief::answered() {
  asking_seq_ = 0;
  posted_ = false;
  expecting_.store(false, std::memory_order_relaxed);
  refusals_ = 0;
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
    t = unpack_work(from, r, seq);
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
  int st = arm_state_of(arm_.load(std::memory_order_acquire));
  int from = t->from_rank;
  bool plain = c_.shared.mail_state() == shared_requests::mail_is_taken && taken_.t == t &&
               (st == arm_posted ? armed_.seq == seq && armed_.rank == from
                                 : st == arm_none && asking_seq_ == seq && asking_rank_ == from);
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
  record_received(seq, t);
  if (seq != asking_seq_ || from != asking_rank_)
    c_.fatal("internal error: a worker took piece " + std::to_string(t->from_handle) + " of rank " +
          std::to_string(from) + " from the mailbox, answering request " + std::to_string(seq) +
          ", but the request out is " + std::to_string(asking_seq_) + " to rank " + std::to_string(asking_rank_) +
          "; the last steps:\n" + c_.say_log());
  answered();
  {
    std::lock_guard<std::mutex> g(lat_m_);
    latencies_.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(taken_.at - asking_since_).count());
  }
  c_.shared.mail_empty();
  return true;
}

bool steal_thief::on_refuse(int from, std::uint64_t seq) {
  adopt_worker_post();
  c_.log.note(protocol_log::step::refuse, seq, 0, from);
  if (seq == asking_seq_ && from == asking_rank_) {
    if (c_.loop.tracing()) c_.loop.note(trace_type::denied, 0, from);
    asking_seq_ = 0;
    posted_ = false;
    expecting_.store(false, std::memory_order_relaxed);
    c_.loads[static_cast<std::size_t>(from)] = 0;
    ++refusals_;
    // Ask the next victim at once until every other process has refused in
    // a row; then wait, longer each time, up to 1 ms.
    int over = refusals_ - (c_.size - 1);
    long us = over < 0 ? 0 : std::min<long>(1000, 5L << std::min(over, 8));
    next_ask_ = c_.now() + std::chrono::microseconds(us);
    return true;
  }
  return false;
}

std::uint8_t steal_thief::result_flags(const task* t) {
  return static_cast<std::uint8_t>((t->completed ? 1 : 0) | (t->cancel_up.load() ? 2 : 0) | (t->error ? 4 : 0));
}

std::size_t steal_thief::write_result(writer& w, task* t) {
  std::ostringstream os;
  {
    out_archive a(os);
    t->kind->wire->pack_result(t, a);
  }
  w.put(t->from_handle);
  w.put(result_flags(t));
  std::string outputs = os.str();
  w.bytes(outputs);
  w.bytes(t->error ? pack_exception(t->error) : std::string());
  return outputs.size();
}

void steal_thief::send_result(task* t) {
  received_.erase({t->from_rank, t->from_handle});
  std::string body;
  try {
    writer w(body);
    steal_context::count_sent(results_out_, write_result(w, t));
  } catch (const std::exception& e) {
    c_.fatal(std::string("cannot send the outputs of a piece of ") + t->kind->site + ": " + e.what());
  }
  // The victim needs a result only at its join: one that nothing waits for
  // yet does not wake its message thread, which takes it at its next turn
  // (a worker at that join steals back first, which rings). A stopped,
  // cancelling or failed piece, and one asked for, ring.
  bool quiet = result_flags(t) == 1 && !t->waited_for.load(std::memory_order_relaxed);
  (quiet ? c_.out.begin_quiet(t->from_rank, msg::result) : c_.out.begin(t->from_rank, msg::result)).append(body);
  delete t;
}

bool steal_thief::mail_result(task* t) {
  // Only a piece that ended normally: a stopped, cancelling or failed one
  // goes by MPI, which rings its victim at once.
  if (!c_.shared.active() || result_flags(t) != 1 || !t->kind->wire || !c_.shared.reaches(t->from_rank)) return false;
  std::string body;
  std::size_t outputs = 0;
  try {
    writer w(body);
    outputs = write_result(w, t);
  } catch (const std::exception&) {
    return false;  // the message thread tries again and says why it cannot
  }
  if (!c_.shared.write_result(t->from_rank, body)) return false;
  steal_context::count_sent(results_out_, outputs);
  results_mailed_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void steal_thief::result_mailed(task* t) {
  received_.erase({t->from_rank, t->from_handle});
  delete t;
}

void steal_thief::on_stop(int from, std::uint64_t handle) {
  auto it = received_.find({from, handle});
  if (it == received_.end()) return;  // finished meanwhile
  task* t = it->second;
  t->stop.store(true, std::memory_order_seq_cst);
  if (auto* thief = static_cast<worker_face*>(t->thief.load(std::memory_order_seq_cst)))
    thief->attention.store(1, std::memory_order_release);
}

std::vector<std::int64_t> steal_thief::take_steal_latencies() {
  std::lock_guard<std::mutex> g(lat_m_);
  std::vector<std::int64_t> v;
  v.swap(latencies_);
  return v;
}

bool steal_thief::all_hungry() const {
  if (!c_.loop.attached()) return false;
  for (int i = 0; i < c_.process.workers(); ++i)
    if (!c_.process.worker(i)->hungry.load(std::memory_order_relaxed)) return false;
  return true;
}

void steal_thief::send_cancel_up(task* t) {
  writer w(c_.out.begin(t->from_rank, msg::cancel_up));
  w.put(t->from_handle);
}

long steal_thief::posted_wait_us() {
  if (!posted_ || posted_rung_) return LONG_MAX;
  auto waited = c_.now() - asking_since_;
  if (waited >= shared_requests::ring_after) {
    c_.loop.nudge(asking_rank_);
    posted_rung_ = true;
    return LONG_MAX;
  }
  return 1 + std::chrono::duration_cast<std::chrono::microseconds>(shared_requests::ring_after - waited).count();
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
  if (!now_or_never && c_.now() - mail_seen_.at < std::chrono::microseconds(50) && all_hungry()) return any;
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
      forget_received(from, t->from_handle);
      delete t;
      throw malformed_message("a piece in the mailbox that answers no request");
    }
    if (!r.done()) throw malformed_message("bytes after the piece in the mailbox");
  });
  return true;
}


void steal_thief::root_begun() {
  refusals_ = 0;
  next_ask_ = c_.now();
}

task* steal_thief::received_piece(int from, std::uint64_t handle) const {
  auto it = received_.find({from, handle});
  return it == received_.end() ? nullptr : it->second;
}

}  // namespace tascell::detail::net
