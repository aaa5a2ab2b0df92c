// Stealing between processes (steal_protocol.hpp).
#include <climits>
#include <cstdio>
#include <sstream>
#include <thread>
#include <utility>

#include "worker_face.hpp"
#include "giver.hpp"
#include "steal_protocol.hpp"
#include "registry.hpp"
#include "tascell/detail/entry.hpp"
#include "tascell/wire.hpp"

namespace tascell::detail::net {

using clock = std::chrono::steady_clock;

// --- worker side ---

task* steal_protocol::take_work(worker_face* w, bool hungry) {
  // A piece in this process's mailbox (shared_requests.hpp): taken here,
  // without waiting for the message thread to wake and move it.
  if (task* m = take_mailed(w)) return m;
  task* t = inbox_.load(std::memory_order_acquire);
  if (t && inbox_.compare_exchange_strong(t, nullptr, std::memory_order_acq_rel)) {
    t->thief.store(w, std::memory_order_seq_cst);
    log_.note(protocol_log::step::take, 0, t->from_handle, t->from_rank);
    if (t->stop.load(std::memory_order_seq_cst)) w->attention.store(1, std::memory_order_release);
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now().time_since_epoch()).count() -
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
    if (first || posted) loop_.wake();
  }
  return nullptr;
}

bool steal_protocol::post_request(bool* through_shared_memory) {
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
  armed_.claimed = now();
  ask_sent_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(armed_.claimed.time_since_epoch()).count(),
                     std::memory_order_relaxed);
  if (loop_.tracing()) armed_.claimed_trace = trace_now();
  expecting_.store(true, std::memory_order_relaxed);
  bool ok = shared_.post(armed_.rank, armed_.root, armed_.seq, armed_.largest, armed_.start);
  log_.note(protocol_log::step::claim, armed_.seq, ok);
  arm_.store(arm_word(seen, ok ? arm_posted : arm_failed), std::memory_order_release);
  if (through_shared_memory) *through_shared_memory = ok;
  return true;
}

void steal_protocol::piece_finishing(worker_face* w, bool last) {
  // Nothing under the piece (last), and not the root task (rank 0 runs it
  // busy, with nothing under it).
  if (last && !w->busy.load(std::memory_order_relaxed)) {
    w->hungry.store(true, std::memory_order_relaxed);
    post_request();
  }
}

int steal_protocol::mail_piece(worker_face* proxy_worker, task* t) {
  // Read before the piece is handed over (the message thread may reuse the
  // proxy then); written by the message thread before it published the
  // proxy (remote_rank last, with release).
  int thief = proxy_worker->remote_rank.load(std::memory_order_acquire);
  int k = proxy_worker->post_slot;
  if (k < 0 || thief < 0 || !t->kind->wire) return -1;
  std::string body;
  std::size_t inputs = 0;
  try {
    writer w(body);
    inputs = write_work(w, shared_.posted_seq(thief, k), t);
  } catch (const std::exception&) {
    return -1;  // the message thread tries again and says why it cannot
  }
  if (!shared_.write_mail(thief, body)) return -1;
  count_sent(pieces_out_, inputs);
  t->mailed = true;
  return thief;
}

void steal_protocol::mail_sent(int thief) {
  shared_.publish_mail(thief);
  mailed_.fetch_add(1, std::memory_order_relaxed);
  // The message thread is not woken: it records the piece at its next turn,
  // or when a message about it comes (given_proxy); the thief's next
  // request finds another slot free (slots_per_thief). The results of
  // such pieces do not wake it either (mail_result), so once half the
  // thief's slots wait, this worker records the pieces and frees the slots
  // itself when the thread is not in a turn, or rings it: else the thief's
  // requests would go by MPI, waking both message threads. The results
  // waiting in shared memory are taken then too, so that the thief's
  // results need not go by MPI for want of room.
  if (shared_.unadopted(thief) < shared_requests::slots_per_thief / 2) return;
  if (!loop_.try_take_turn()) {
    loop_.wake();
    return;
  }
  collect_mailed();
  take_results_in_turn();
}


// --- thief side ---

int steal_protocol::choose_victim_rank() {
  if (preferred_victim_ >= 0 && preferred_victim_ < size_ && preferred_victim_ != rank_) {
    int v = preferred_victim_;
    preferred_victim_ = -1;
    return v;
  }
  auto random_other = [&] {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    int v = static_cast<int>(rng_ % static_cast<std::uint64_t>(size_ - 1));
    return v >= rank_ ? v + 1 : v;
  };
  if (cfg_.remote_victim == victim_choice::loaded) {
    // The process with the highest load heard of (piggy-backed on every
    // batch); ties and no news: random.
    int best = -1, best_load = 0;
    int start = random_other();
    for (int k = 0; k < size_; ++k) {
      int r = (start + k) % size_;
      if (r == rank_) continue;
      if (loads_[static_cast<std::size_t>(r)] > best_load) {
        best = r;
        best_load = loads_[static_cast<std::size_t>(r)];
      }
    }
    if (best >= 0) return best;
  }
  return random_other();
}

bool steal_protocol::may_ask() const {
  return size_ >= 2 && root_.open() && !host_.root_done() && !asking_seq_;
}

bool steal_protocol::out_of_work() const { return !inbox_.load(std::memory_order_acquire) && all_hungry(); }

bool steal_protocol::wants_work() const { return may_ask() && out_of_work(); }

bool steal_protocol::keep_worker_post() {
  std::uint64_t word = arm_.load(std::memory_order_acquire);
  int st = arm_state_of(word);
  if (st >= arm_claimed) return adopt_worker_post();
  // Armed also while a piece waits in the inbox (it came in this turn): a
  // worker can claim only when every worker is idle, so after that piece has
  // been taken, and when it has run the request leaves at once. Arming only
  // at the next turn would wait for this thread to wake.
  bool can = shared_.active() && cfg_.loop == message_loop::adaptive && loop_.attached() &&
             may_ask() && now() >= next_ask_;
  if (st == arm_ready) {
    if (!can && !disarm_worker_post()) return adopt_worker_post();
    return false;
  }
  if (!can) return false;
  int to = choose_victim_rank();
  if (!shared_.reaches(to)) return false;  // another machine: the message thread asks by MPI
  armed_.rank = to;
  armed_.seq = next_seq_++;
  armed_.root = root_.number();
  armed_.largest = cfg_.remote_giver == giver_choice::largest;
  armed_.start = rng_ >> 17;
  log_.note(protocol_log::step::arm, armed_.seq, 0, to);
  arm_.store(arm_word(word + 8, arm_ready), std::memory_order_release);  // the next arming
  return false;
}

bool steal_protocol::disarm_worker_post() {
  std::uint64_t word = arm_.load(std::memory_order_acquire);
  if (arm_state_of(word) == arm_ready &&
      arm_.compare_exchange_strong(word, arm_word(word, arm_none), std::memory_order_acq_rel)) {
    log_.note(protocol_log::step::disarm, armed_.seq);
    return true;
  }
  return arm_state_of(word) == arm_none;
}

bool steal_protocol::adopt_worker_post() {
  int st = arm_state_of(arm_.load(std::memory_order_acquire));
  if (st < arm_claimed) return false;
  // A worker between its claim and the end of its post: a few atomics (its
  // answer cannot come before the post ends). It may have been preempted by
  // this thread on its own core: at real-time priority sched_yield() would
  // never let it run again, so the thread leaves that priority (as pause()
  // does) and takes it again before it sleeps.
  while (st == arm_claimed) {
    loop_.step_aside();
    st = arm_state_of(arm_.load(std::memory_order_acquire));
  }
  const armed_request& a = armed_;
  asking_seq_ = a.seq;
  asking_rank_ = a.rank;
  asking_since_ = a.claimed;
  expecting_.store(true, std::memory_order_relaxed);
  posted_ = st == arm_posted;
  posted_rung_ = false;
  log_.note(protocol_log::step::adopt, a.seq, posted_, a.rank);
  if (loop_.tracing()) loop_.note_at(a.claimed_trace, trace_type::ask, 0, a.rank, posted_ ? 1 : 0);
  if (posted_) {
    posts_.fetch_add(1, std::memory_order_relaxed);
    worker_posts_.fetch_add(1, std::memory_order_relaxed);
  } else {
    writer w(out_.begin(a.rank, msg::request));
    w.put(a.root);
    w.put(a.seq);
    w.put(std::uint64_t{0});
  }
  arm_.store(arm_word(arm_.load(std::memory_order_relaxed), arm_none), std::memory_order_release);
  return true;
}

bool steal_protocol::ask_for_work() {
  if (adopt_worker_post()) return true;
  auto started = now();
  if (started < next_ask_ || !wants_work()) return false;
  // Every worker is idle but none has taken the armed request yet: ask here.
  if (!disarm_worker_post()) return adopt_worker_post();
  int to = choose_victim_rank();
  asking_seq_ = next_seq_++;
  expecting_.store(true, std::memory_order_relaxed);
  asking_rank_ = to;
  asking_since_ = started;
  ask_sent_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(started.time_since_epoch()).count(),
                     std::memory_order_relaxed);
  // To a process on this machine: posted to one of its workers directly
  // (shared_requests.hpp), or by MPI when that cannot be done now.
  posted_ = shared_.post(to, root_.number(), asking_seq_, cfg_.remote_giver == giver_choice::largest, rng_ >> 17);
  posted_rung_ = false;
  log_.note(protocol_log::step::ask, asking_seq_, posted_, to);
  if (loop_.tracing()) loop_.note(trace_type::ask, 0, to, posted_ ? 1 : 0);
  if (posted_) {
    posts_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  writer w(out_.begin(to, msg::request));
  w.put(root_.number());
  w.put(asking_seq_);
  w.put(std::uint64_t{0});
  return true;
}

task* steal_protocol::unpack_work(int from, reader& r, std::uint64_t& seq) {
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

void steal_protocol::on_work(int from, reader& r) {
  adopt_worker_post();  // the answer to a worker's post may come before its adoption
  std::uint64_t seq = 0;
  task* t = unpack_work(from, r, seq);
  std::uint64_t handle = t->from_handle;
  record_received(seq, t);
  if (seq == asking_seq_ && from == asking_rank_) {
    answered();
    t->asked_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(asking_since_.time_since_epoch()).count();
    log_.note(protocol_log::step::inbox, seq, handle, from);
    // One request out at a time, made only when the inbox was empty
    // (out_of_work): a piece still there now would be lost for good, and
    // the process that gave it would wait for it for ever.
    if (task* old = inbox_.exchange(t, std::memory_order_acq_rel))
      fatal("internal error: work for request " + std::to_string(seq) + " from rank " + std::to_string(from) +
            " arrived while the inbox still held piece " + std::to_string(old->from_handle) + " of rank " +
            std::to_string(old->from_rank) + "; the last steps:\n" + say_log());
    filled_inbox_ = true;
    // Hungry workers may be asleep in their back-off.
    host_.wake_workers();
    return;
  }
  if (!answer_back(seq, t)) {
    delete t;
    received_.erase({from, handle});
    throw malformed_message("work that answers no request");
  }
}

void steal_protocol::record_received(std::uint64_t seq, task* t) {
  received_[{t->from_rank, t->from_handle}] = t;
  log_.note(protocol_log::step::work, seq, t->from_handle, t->from_rank);
  if (loop_.tracing()) loop_.note(trace_type::arrived, piece_flow_id(t->from_rank, t->from_handle), t->from_rank);
}

void steal_protocol::answered() {
  asking_seq_ = 0;
  posted_ = false;
  expecting_.store(false, std::memory_order_relaxed);
  refusals_ = 0;
}

task* steal_protocol::take_mailed(worker_face* w) {
  if (shared_.mail_state() != shared_requests::mail_is_full || mail_bad_.load(std::memory_order_relaxed))
    return nullptr;
  int from = -1;
  std::string buf;
  task* t = nullptr;
  std::uint64_t seq = 0;
  try {
    if (!shared_.claim_mail(from, buf)) return nullptr;  // another worker, or the message thread
    if (from < 0 || from >= size_ || from == rank_) throw malformed_message("from no other rank");
    reader r(buf);
    t = unpack_work(from, r, seq);
    if (!r.done()) throw malformed_message("bytes after the piece");
  } catch (...) {
    // The message thread takes it again and says what is wrong with it.
    delete t;
    mail_bad_.store(true, std::memory_order_relaxed);
    if (from != -1) shared_.mail_full_again();
    loop_.wake();
    return nullptr;
  }
  t->thief.store(w, std::memory_order_seq_cst);
  mail_task_ = t;
  // When the request it answers left (the piece's trace record says how
  // long the steal took): one request is out at a time.
  t->asked_ns = ask_sent_ns_.load(std::memory_order_relaxed);
  mail_seq_ = seq;
  mail_taken_at_ = now();
  shared_.mail_taken();  // release: the message thread reads the three above after it
  log_.note(protocol_log::step::take_mail, seq, t->from_handle, from);
  w->hungry.store(false, std::memory_order_relaxed);
  // The piece is recorded (collect_taken) and the next request armed while
  // this piece runs, so that a worker can post it the moment the piece
  // ends: here, when the message thread is not in a turn (settle_take),
  // else by that thread, rung for it. (Armed only when the piece ended, the
  // request left 20-30 us later: UTS T3 on 2 x 1 idled that long per steal;
  // rung at every take, the thread's turns took the thief's core for about
  // 10 us a steal.)
  if (!settle_take(t, seq)) loop_.wake();
  return t;
}

bool steal_protocol::settle_take(task* t, std::uint64_t seq) {
  if (loop_.tracing() || !loop_.try_take_turn()) return false;
  // Only the plain case: the piece is still the one taken and unrecorded
  // (the message thread may have recorded it before this took the turn, and
  // another worker taken the next), the request it answers was posted by a
  // worker, adopted or not, and nothing is half done. Anything else (a post
  // still being made, or one that failed and must go by MPI) is the message
  // thread's.
  int st = arm_state_of(arm_.load(std::memory_order_acquire));
  int from = t->from_rank;
  bool plain = shared_.mail_state() == shared_requests::mail_is_taken && mail_task_ == t &&
               (st == arm_posted ? armed_.seq == seq && armed_.rank == from
                                 : st == arm_none && asking_seq_ == seq && asking_rank_ == from);
  if (plain) {
    collect_taken();
    keep_worker_post();
  }
  loop_.end_taken_turn();
  return plain;
}

bool steal_protocol::collect_taken() {
  std::uint32_t st = shared_.mail_state();
  if (st == shared_requests::mail_is_empty || st == shared_requests::mail_is_full) return false;
  // A worker between its claim and mail_taken(): a copy and an unpack. It
  // may have been preempted by this thread on its own core (as in
  // adopt_worker_post).
  while (st == shared_requests::mail_is_taking) {
    loop_.step_aside();
    st = shared_.mail_state();
  }
  if (st != shared_requests::mail_is_taken) return false;  // it gave it back (mail_bad_)
  adopt_worker_post();
  task* t = mail_task_;
  std::uint64_t seq = mail_seq_;
  int from = t->from_rank;
  record_received(seq, t);
  if (seq != asking_seq_ || from != asking_rank_)
    fatal("internal error: a worker took piece " + std::to_string(t->from_handle) + " of rank " +
          std::to_string(from) + " from the mailbox, answering request " + std::to_string(seq) +
          ", but the request out is " + std::to_string(asking_seq_) + " to rank " + std::to_string(asking_rank_) +
          "; the last steps:\n" + say_log());
  answered();
  {
    std::lock_guard<std::mutex> g(lat_m_);
    latencies_.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(mail_taken_at_ - asking_since_).count());
  }
  shared_.mail_empty();
  return true;
}

void steal_protocol::answer(proxy& p, task* t) {
  worker_face* req = p.w->requester.load(std::memory_order_acquire);
  if (t != refused) t->thief.store(req, std::memory_order_seq_cst);
  p.w->requester.store(nullptr, std::memory_order_release);
  req->reply.store(t, std::memory_order_release);
}

bool steal_protocol::answer_back(std::uint64_t seq, task* t) {
  auto it = backs_.find(seq);
  if (it == backs_.end()) return false;
  proxy* p = it->second;
  backs_.erase(it);
  p->back_seq = 0;
  answer(*p, t);
  if (!p->given) free_proxy(p);
  return true;
}

void steal_protocol::on_refuse(int from, std::uint64_t seq) {
  adopt_worker_post();
  log_.note(protocol_log::step::refuse, seq, 0, from);
  if (seq == asking_seq_ && from == asking_rank_) {
    if (loop_.tracing()) loop_.note(trace_type::denied, 0, from);
    asking_seq_ = 0;
    posted_ = false;
    expecting_.store(false, std::memory_order_relaxed);
    loads_[static_cast<std::size_t>(from)] = 0;
    ++refusals_;
    // Ask the next victim at once until every other process has refused in
    // a row; then wait, longer each time, up to 1 ms.
    int over = refusals_ - (size_ - 1);
    long us = over < 0 ? 0 : std::min<long>(1000, 5L << std::min(over, 8));
    next_ask_ = now() + std::chrono::microseconds(us);
    return;
  }
  if (!answer_back(seq, refused)) throw malformed_message("a refusal that answers no request");
}

std::uint8_t steal_protocol::result_flags(const task* t) {
  return static_cast<std::uint8_t>((t->completed ? 1 : 0) | (t->cancel_up.load() ? 2 : 0) | (t->error ? 4 : 0));
}

std::size_t steal_protocol::write_result(writer& w, task* t) {
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

void steal_protocol::send_result(task* t) {
  received_.erase({t->from_rank, t->from_handle});
  std::string body;
  try {
    writer w(body);
    count_sent(results_out_, write_result(w, t));
  } catch (const std::exception& e) {
    fatal(std::string("cannot send the outputs of a piece of ") + t->kind->site + ": " + e.what());
  }
  // The victim needs a result only at its join: one that nothing waits for
  // yet does not wake its message thread, which takes it at its next turn
  // (a worker at that join steals back first, which rings). A stopped,
  // cancelling or failed piece, and one asked for, ring.
  bool quiet = result_flags(t) == 1 && !t->waited_for.load(std::memory_order_relaxed);
  (quiet ? out_.begin_quiet(t->from_rank, msg::result) : out_.begin(t->from_rank, msg::result)).append(body);
  delete t;
}

bool steal_protocol::mail_result(task* t) {
  // Only a piece that ended normally: a stopped, cancelling or failed one
  // goes by MPI, which rings its victim at once.
  if (!shared_.active() || result_flags(t) != 1 || !t->kind->wire || !shared_.reaches(t->from_rank)) return false;
  std::string body;
  std::size_t outputs = 0;
  try {
    writer w(body);
    outputs = write_result(w, t);
  } catch (const std::exception&) {
    return false;  // the message thread tries again and says why it cannot
  }
  if (!shared_.write_result(t->from_rank, body)) return false;
  count_sent(results_out_, outputs);
  results_mailed_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void steal_protocol::result_mailed(task* t) {
  received_.erase({t->from_rank, t->from_handle});
  delete t;
}

void steal_protocol::apply_result(int from, std::string_view bytes) {
  reader r(bytes);
  on_result(from, r);
  if (!r.done()) throw malformed_message("bytes after the result");
}

bool steal_protocol::take_results() {
  bool any = false;
  int from = -1;
  guarded(from, [&] {
    any = shared_.take_results([&](int thief, std::string_view bytes) {
      from = thief;
      apply_result(thief, bytes);
    });
  });
  return any;
}

bool steal_protocol::take_results_here() {
  if (!shared_.results_waiting() || !loop_.try_take_turn()) return false;
  return take_results_in_turn();
}

bool steal_protocol::take_results_in_turn() {
  bool any = false, bad = false;
  try {
    any = shared_.take_results([&](int thief, std::string_view bytes) {
      apply_result(thief, bytes);
      results_here_.fetch_add(1, std::memory_order_relaxed);
    });
  } catch (const std::exception&) {
    bad = true;  // left where it is: the message thread takes it and says what is wrong
  }
  loop_.end_taken_turn();
  if (bad) loop_.wake();
  return any;
}

void steal_protocol::on_stop(int from, std::uint64_t handle) {
  auto it = received_.find({from, handle});
  if (it == received_.end()) return;  // finished meanwhile
  task* t = it->second;
  t->stop.store(true, std::memory_order_seq_cst);
  if (auto* thief = static_cast<worker_face*>(t->thief.load(std::memory_order_seq_cst)))
    thief->attention.store(1, std::memory_order_release);
}

// --- victim side ---

steal_protocol::proxy* steal_protocol::make_proxy() {
  proxy* p;
  if (!spare_.empty()) {
    p = spare_.back();
    spare_.pop_back();
    worker_face* w = p->w;
    *p = proxy{};
    p->w = w;
    w->post_slot = -1;
  } else {
    p = new proxy;
    p->w = new worker_face;
    p->w->id = -1;
  }
  return p;
}

steal_protocol::proxy* steal_protocol::new_proxy() {
  proxy* p = make_proxy();
  proxies_.push_back(p);
  return p;
}

// A proxy ready for a request that `thief` (on this machine) posts to one
// of this process's workers itself: its address is published in the slot
// the thief writes.
void steal_protocol::stand(int thief, int k) {
  proxy* p = make_proxy();
  p->from = thief;
  p->w->wanted = nullptr;
  p->w->reply.store(no_reply, std::memory_order_relaxed);
  p->w->post_slot = k;
  // Last, with release: the worker that answers reads it with acquire
  // (serve.cpp, answer_request).
  p->w->remote_rank.store(thief, std::memory_order_release);
  standing_[static_cast<std::size_t>(thief * shared_requests::slots_per_thief + k)] = p;
  shared_.stand(thief, k, p->w);
}

void steal_protocol::stand_all() {
  standing_.assign(static_cast<std::size_t>(size_ * shared_requests::slots_per_thief), nullptr);
  for (int r : shared_.thieves())
    for (int k = 0; k < shared_requests::slots_per_thief; ++k) stand(r, k);
}

void steal_protocol::adopt_posted() {
  claims_seen_ = shared_.adopt([&](int thief, int k, std::uint64_t seq, int victim) {
    if (victim < 0 || victim >= host_.workers())
      fatal("malformed request from rank " + std::to_string(thief) + " through shared memory: worker " +
            std::to_string(victim) + " of " + std::to_string(host_.workers()));
    proxy* p = standing_[static_cast<std::size_t>(thief * shared_requests::slots_per_thief + k)];
    p->seq = seq;
    p->victim = host_.worker(victim);
    proxies_.push_back(p);
    stand(thief, k);
    // Not answered yet: the worker may be napping at a join.
    if (p->w->reply.load(std::memory_order_acquire) == no_reply) {
      posted_local_ = true;
      host_.wake_workers();
    }
  });
}

void steal_protocol::free_proxy(proxy* p) {
  for (auto it = proxies_.begin(); it != proxies_.end(); ++it)
    if (*it == p) {
      proxies_.erase(it);
      break;
    }
  p->given = nullptr;
  spare_.push_back(p);
}

void steal_protocol::on_request(int from, std::uint64_t seq, std::uint64_t wanted) {
  auto refuse_now = [&] {
    writer w(out_.begin(from, msg::refuse));
    w.put(seq);
  };
  if (!root_.open() || host_.root_done()) return refuse_now();
  task* target = nullptr;
  if (wanted) {
    auto it = received_.find({from, wanted});
    if (it == received_.end()) return refuse_now();  // finished meanwhile
    target = it->second;
    target->waited_for.store(true, std::memory_order_relaxed);  // its result rings (send_result)
  }
  proxy* p = new_proxy();
  p->from = from;
  p->seq = seq;
  p->wanted = target;
  p->w->remote_rank.store(from, std::memory_order_relaxed);
  if (!ask_local(*p)) {
    free_proxy(p);
    refuse_now();
  }
}

bool steal_protocol::ask_local(proxy& p) {
  auto tried = [&](worker_face* v) {
    for (worker_face* x : p.tried)
      if (x == v) return true;
    return false;
  };
  auto post = [&](worker_face* v) {
    if (!v || tried(v)) return false;
    p.w->wanted = p.wanted;
    p.w->reply.store(no_reply, std::memory_order_relaxed);
    worker_face* expected = nullptr;
    if (!v->requester.compare_exchange_strong(expected, p.w, std::memory_order_acq_rel,
                                              std::memory_order_relaxed))
      return false;
    p.victim = v;
    posted_local_ = true;
    v->attention.store(1, std::memory_order_release);
    host_.wake_workers();  // it may be napping at a join
    return true;
  };
  if (p.wanted) return post(static_cast<worker_face*>(p.wanted->thief.load(std::memory_order_seq_cst)));
  int n = host_.workers();
  int start = static_cast<int>(rng_ % static_cast<std::uint64_t>(n));
  if (cfg_.remote_giver == giver_choice::largest) {
    // The largest piece on offer here, so that one round trip keeps the
    // asking process busy longest (giver.hpp).
    int i = choose_giver(
        n, static_cast<std::uint64_t>(start), true, [&](int k) { return host_.worker(k); },
        [&](worker_face* v) { return v->busy.load(std::memory_order_relaxed) && !tried(v); });
    if (i >= 0 && post(host_.worker(i))) return true;
  }
  for (int k = 0; k < n; ++k) {
    worker_face* v = host_.worker((start + k) % n);
    if (v->busy.load(std::memory_order_relaxed) && post(v)) return true;
  }
  return false;
}

void steal_protocol::send_work(proxy& p, task* t) {
  std::uint64_t handle = t->serial;
  p.given = t;
  p.handle = handle;
  given_[handle] = &p;
  loads_[static_cast<std::size_t>(p.from)] = 1;  // it has work now
  if (t->mailed) {  // the worker put it into the thief's mailbox
    log_.note(protocol_log::step::mailed, p.seq, handle, p.from);
    return;
  }
  // Packed first: a type that cannot be sent leaves no half message.
  std::string body;
  try {
    writer w(body);
    count_sent(pieces_out_, write_work(w, p.seq, t));
  } catch (const std::exception& e) {
    fatal(std::string("cannot send the inputs of a piece of ") + t->kind->site + ": " + e.what());
  }
  out_.begin(p.from, msg::work).append(body);
}

// WORK's fields, as unpack_work reads them; the handle is the piece's serial.
std::size_t steal_protocol::write_work(writer& w, std::uint64_t seq, task* t) {
  std::ostringstream os;
  {
    out_archive a(os);
    t->kind->wire->pack(t, a);
  }
  w.put(seq);
  w.put(id_of(t->kind));
  w.put(t->serial);
  w.put(t->lo);
  w.put(t->hi);
  w.put(t->tree_depth);
  std::string inputs = os.str();
  w.bytes(inputs);
  return inputs.size();
}

void steal_protocol::count_sent(sent_figures& f, std::size_t bytes) {
  f.count.fetch_add(1, std::memory_order_relaxed);
  f.bytes.fetch_add(static_cast<std::int64_t>(bytes), std::memory_order_relaxed);
}

bool steal_protocol::tend_proxies() {
  bool any = false;
  std::vector<proxy*> list = proxies_;
  for (proxy* p : list) {
    if (p->victim) {
      // Waiting for the local worker's answer.
      task* t = p->w->reply.load(std::memory_order_acquire);
      if (t == no_reply) {
        if (host_.root_done()) {
          // The workers are leaving the root call: withdraw the request
          // unless the victim has answered it. A victim that is answering
          // it at this moment finds it withdrawn and sends nothing
          // (release_request).
          worker_face* expected = p->w;
          if (p->victim->requester.compare_exchange_strong(expected, nullptr,
                                                           std::memory_order_acq_rel)) {
            p->victim = nullptr;
            writer w(out_.begin(p->from, msg::refuse));
            w.put(p->seq);
            free_proxy(p);
            any = true;
          }
        }
        continue;
      }
      any = true;
      p->tried.push_back(p->victim);
      p->victim = nullptr;
      if (t != refused) {
        send_work(*p, t);
        continue;
      }
      if (!p->wanted && !host_.root_done() && ask_local(*p)) continue;
      writer w(out_.begin(p->from, msg::refuse));
      w.put(p->seq);
      free_proxy(p);
      continue;
    }
    if (!p->given) continue;
    // A local worker waiting for this piece asks to steal back from it.
    worker_face* req = p->w->requester.load(std::memory_order_acquire);
    if (req && !p->back_seq) {
      any = true;
      if (req->wanted != p->given || host_.root_done()) {
        answer(*p, refused);
      } else {
        p->back_seq = next_seq_++;
        backs_[p->back_seq] = p;
        writer w(out_.begin(p->from, msg::request));
        w.put(root_.number());
        w.put(p->back_seq);
        w.put(p->handle);
      }
    }
    // The victim asked the piece to stop.
    if (!p->stop_sent && p->given->stop.load(std::memory_order_acquire)) {
      any = true;
      p->stop_sent = true;
      writer w(out_.begin(p->from, msg::stop));
      w.put(p->handle);
    }
  }
  // A claim on a proxy that carries no piece is stale: refuse it. Spare
  // proxies' pieces came back. Standing proxies never have one: a worker
  // waiting at a join read its piece's thief (a proxy) just before the
  // piece's result came back; the proxy went to spare_ and from there to
  // stand for a thief on this machine (make_proxy takes the newest spare),
  // and the worker's claim came after. Left for the proxy's next adoption
  // to answer, the worker would wait until then (mpi.late_steal_back makes
  // such claims: 1-4 per run; decisions.md, "Stale steal-back claims on
  // standing proxies").
  for (const auto* list : {&spare_, &standing_})
    for (proxy* p : *list)
      if (p && p->w->requester.load(std::memory_order_acquire)) {
        answer(*p, refused);
        any = true;
      }
  return any;
}

steal_protocol::proxy* steal_protocol::given_proxy(int from, std::uint64_t handle) {
  auto it = given_.find(handle);
  if (it == given_.end()) {
    collect_mailed();
    it = given_.find(handle);
  }
  return it != given_.end() && it->second->from == from ? it->second : nullptr;
}

void steal_protocol::collect_mailed() {
  // The mailbox's piece was handed to its proxy before the thief could see
  // it (mail_piece, then the reply, then mail_sent): a message of the thief
  // about it finds the reply set here.
  adopt_posted();
  std::vector<proxy*> list = proxies_;
  for (proxy* p : list) {
    if (!p->victim) continue;
    task* t = p->w->reply.load(std::memory_order_acquire);
    if (t == no_reply || t == refused || !t->mailed) continue;
    p->tried.push_back(p->victim);
    p->victim = nullptr;
    send_work(*p, t);
  }
}

void steal_protocol::on_result(int from, reader& r) {
  auto handle = r.get<std::uint64_t>("a piece handle");
  auto flags = r.get<std::uint8_t>("the result flags");
  std::string_view outputs = r.bytes("the outputs");
  std::string_view error = r.bytes("the exception");
  proxy* p = given_proxy(from, handle);
  if (!p) throw malformed_message("a result for a piece this process did not give it");
  task* t = p->given;
  {
    std::istringstream is{std::string(outputs)};
    in_archive a(is);
    t->kind->wire->unpack_result(t, a);
  }
  t->completed = (flags & 1) != 0;
  if (flags & 2) t->cancel_up.store(true, std::memory_order_release);
  if (flags & 4) {
    try {
      t->error = unpack_exception(error, from);
    } catch (const std::exception& e) {
      t->error = std::make_exception_ptr(std::runtime_error(e.what()));
    }
  }
  given_.erase(handle);
  p->given = nullptr;
  host_.piece_done(t);  // as a local thief ends one (run_task)
  if (!p->back_seq) free_proxy(p);
}

void steal_protocol::on_cancel_up(int from, std::uint64_t handle) {
  proxy* p = given_proxy(from, handle);
  if (!p) return;  // its result came meanwhile
  task* t = p->given;
  t->cancel_up.store(true, std::memory_order_release);
  host_.alarm_victim(t);
}

// --- set-up ---

steal_protocol::steal_protocol(host& h, const settings& cfg, outbox& out, protocol_log& log,
                               const root_protocol& root, loop_services& loop)
    : host_(h), cfg_(cfg), out_(out), log_(log), root_(root), loop_(loop) {}

steal_protocol::~steal_protocol() {
  for (auto* list : {&proxies_, &spare_, &standing_})
    for (proxy* p : *list) {
      if (!p) continue;
      delete p->w;
      delete p;
    }
}

void steal_protocol::place(int rank, int size, std::uint64_t seed) {
  rank_ = rank;
  size_ = size;
  rng_ = seed | 1u;
  loads_.assign(static_cast<std::size_t>(size_), 0);
}

void steal_protocol::open_shared(MPI_Comm node, bool wanted, int workers) {
  std::string why;
  if (shared_.open(node, wanted, rank_, size_, workers, why)) {
    stand_all();
  } else if (cfg_.stats && wanted) {
    std::fprintf(stderr, "tascell: rank %d: requests from this machine go by MPI: %s\n", rank_, why.c_str());
  }
}

void steal_protocol::share_for_testing(const std::vector<char*>& objects, int workers) {
  shared_.attach_for_testing(rank_, objects, workers);
  stand_all();
}

std::vector<std::int64_t> steal_protocol::take_steal_latencies() {
  std::lock_guard<std::mutex> g(lat_m_);
  std::vector<std::int64_t> v;
  v.swap(latencies_);
  return v;
}

bool steal_protocol::all_hungry() const {
  if (!loop_.attached()) return false;
  for (int i = 0; i < host_.workers(); ++i)
    if (!host_.worker(i)->hungry.load(std::memory_order_relaxed)) return false;
  return true;
}

// --- the message thread's turn ---

void steal_protocol::adopt_posted_requests() {
  if (!shared_.active()) return;
  bool open = loop_.attached() && root_.open() && !host_.root_done();
  shared_.set_accepting(open ? root_.number() : 0);
  adopt_posted();
}

void steal_protocol::root_begun() {
  refusals_ = 0;
  next_ask_ = now();
  for (auto [from, seq] : std::exchange(deferred_, {})) on_request(from, seq, 0);
}

bool steal_protocol::quiet_for_root_end(bool& acted) {
  acted = false;
  // A request armed for a worker is taken back; one a worker made is adopted
  // (and answered) first.
  if (!disarm_worker_post() && adopt_worker_post()) {
    acted = true;
    return false;
  }
  if (asking_seq_ || !proxies_.empty() || !backs_.empty()) return false;
  // No request posted through shared memory is left unadopted (it stops
  // accepting them first); one posted meanwhile is adopted, and withdrawn,
  // soon (the back-off starts over).
  if (!shared_.quiet()) {
    claims_seen_ = true;
    return false;
  }
  return true;
}

void steal_protocol::on_request_message(int from, reader& r) {
  auto n = r.get<std::uint64_t>("a root call number");
  auto seq = r.get<std::uint64_t>("a request number");
  auto wanted = r.get<std::uint64_t>("a wanted piece");
  // The asker has begun the next root call and this process has not yet:
  // answer when it begins, rather than refuse and make the asker back off
  // just when the work appears.
  if (!root_.in_root() && n == root_.number() + 1 && !wanted) {
    deferred_.push_back({from, seq});
    return;
  }
  if (n != root_.number()) {
    writer w(out_.begin(from, msg::refuse));
    w.put(seq);
    return;
  }
  on_request(from, seq, wanted);
}

void steal_protocol::send_cancel_up(task* t) {
  writer w(out_.begin(t->from_rank, msg::cancel_up));
  w.put(t->from_handle);
}

long steal_protocol::posted_wait_us() {
  if (!posted_ || posted_rung_) return LONG_MAX;
  auto waited = now() - asking_since_;
  if (waited >= shared_requests::ring_after) {
    loop_.nudge(asking_rank_);
    posted_rung_ = true;
    return LONG_MAX;
  }
  return 1 + std::chrono::duration_cast<std::chrono::microseconds>(shared_requests::ring_after - waited).count();
}

template <class F>
void steal_protocol::guarded(int from, F&& f) {
  guard_message(from, f, [&](const std::string& cause) { fatal(cause); });
}

bool steal_protocol::take_mail(bool now_or_never) {
  bool any = collect_taken();
  // Idle workers watch the mailbox and take a piece themselves (take_mailed);
  // taken here, it would wait in the inbox until this thread, which may
  // share their core, has ended its turn. So this thread takes it only when
  // no worker has for a while (they may all be busy with their own pieces
  // after a steal-back, or asleep).
  if (shared_.mail_state() != shared_requests::mail_is_full) {
    mail_seen_ = false;
    return any;
  }
  if (!mail_seen_) {
    mail_seen_ = true;
    mail_seen_at_ = now();
  }
  if (!now_or_never && now() - mail_seen_at_ < std::chrono::microseconds(50) && all_hungry()) return any;
  mail_seen_ = false;
  int from = -1;
  std::string buf;
  bool claimed = false;
  guarded(from, [&] { claimed = shared_.claim_mail(from, buf); });
  if (!claimed) return any;
  shared_.mail_empty();
  log_.note(protocol_log::step::mail_in, 0, 0, from);
  guarded(from, [&] {
    if (from < 0 || from >= size_ || from == rank_)
      throw malformed_message("a piece in the mailbox from rank " + std::to_string(from));
    reader r(buf);
    on_work(from, r);
    if (!r.done()) throw malformed_message("bytes after the piece in the mailbox");
  });
  return true;
}

}  // namespace tascell::detail::net
