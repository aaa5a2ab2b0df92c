// Stealing between processes: requests, proxies, steal-backs, pieces and
// their results (docs/message-thread.md has a diagram of each exchange).
//
// Thief process: when every worker is hungry, one request for work goes to
// a victim process (by MPI, or posted straight to one of its workers
// through shared memory when it is on this machine, shared_requests.hpp);
// the piece that answers goes into the inbox (or, posted, comes back
// through this process's mailbox, where an idle worker takes it); when the
// piece has run, its RESULT goes back (by MPI, or into the victim's ring in
// shared memory when it is on this machine). A worker waiting at a join for a
// piece held by another process steals back through that piece's proxy: a
// REQUEST naming the piece.
//
// Victim process: a request is served by a proxy, a worker-like object that
// asks a local worker for work exactly as a local thief would (the worker
// gives at its next poll, by temporary backtracking); the piece travels as
// bytes. The proxy stands for the remote thief until the RESULT comes:
// stops are forwarded to it, and local steal-backs go through it.
//
// The state is the message thread's, except what workers touch: the inbox,
// the armed request a worker may post (arm_), the mailbox and the rings
// (through shared_requests), the latencies and the counters. A worker may
// also take the message thread's turn when the thread is not in one
// (loop_services::try_take_turn) and do a step of it: record a piece it
// took (settle_take), adopt posted slots (mail_sent), take results
// (take_results_here). It reaches the rest of
// the process through the host (its workers), the root-call protocol (is a
// call open, its number), the outbox (messages) and the message loop
// (loop_services: clock, doorbell, tracing, errors).
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "../settings.hpp"
#include "../trace.hpp"
#include "frame.hpp"
#include "host.hpp"
#include "outbox.hpp"
#include "protocol_log.hpp"
#include "root_protocol.hpp"
#include "shared_requests.hpp"

namespace tascell {
struct task;
}

namespace tascell::detail {
// claim_delay_for_testing (testing.hpp).
extern std::atomic<int> claim_delay_us_for_testing;
// Called, when set, where claim_delay_for_testing waits: the protocol
// simulation runs other steps there, as if the worker were preempted.
extern void (*claim_window_for_testing)();
}  // namespace tascell::detail

namespace tascell::detail::net {

// What the message loop (network.hpp) offers the protocols besides the
// outbox.
class loop_services {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  virtual time_point now() const = 0;
  [[noreturn]] virtual void fatal(const std::string& cause) = 0;
  // Rings this process's message thread (any thread).
  virtual void wake() = 0;
  // Rings the message thread of `rank` on this machine (no message).
  virtual void nudge(int rank) = 0;
  // Calls worker 0 to its next poll (attention), waking it if it naps.
  virtual void call_worker() = 0;
  // The message thread spins on a worker's step of a few atomics: lets the
  // worker, which may share its core, run (leaving real-time priority).
  virtual void step_aside() = 0;
  // The runtime's workers exist (network::attach).
  virtual bool attached() const = 0;
  // The message thread's turn, taken by a worker while the thread is not in
  // one (it holds it for each turn and for the look before it sleeps): the
  // worker does the bookkeeping of the turn it would otherwise ring for
  // (steal_protocol::settle_take). False when the thread is in a turn.
  virtual bool try_take_turn() = 0;
  virtual void end_taken_turn() = 0;
  virtual bool tracing() const = 0;
  virtual void note(trace_type t, std::uint64_t id, std::int32_t a, std::int64_t b = 0, std::int64_t c = 0) = 0;
  virtual void note_at(std::int64_t when, trace_type t, std::uint64_t id, std::int32_t a, std::int64_t b = 0,
                       std::int64_t c = 0) = 0;

 protected:
  ~loop_services() = default;
};

class steal_protocol {
 public:
  steal_protocol(host& h, const settings& cfg, outbox& out, protocol_log& log, const root_protocol& root,
                 loop_services& loop);
  ~steal_protocol();
  steal_protocol(const steal_protocol&) = delete;
  steal_protocol& operator=(const steal_protocol&) = delete;
  // Once the ranks are known.
  void place(int rank, int size, std::uint64_t seed);
  // Requests and pieces between the processes of this machine through
  // shared memory (collective over `node`), when every process wants it.
  void open_shared(MPI_Comm node, bool wanted, int workers);
  // The protocol simulation's processes of one machine.
  void share_for_testing(const std::vector<char*>& objects, int workers);
  // At exit.
  void close_shared() { shared_.close(); }
  bool shares_requests() const { return shared_.active(); }
  void place_worker(int i, void* region) {
    if (shared_.active()) shared_.place_worker(i, region);
  }

  // --- workers (network.hpp says what each does) ---
  task* take_work(worker_face* w, bool hungry);
  bool post_request(bool* through_shared_memory = nullptr);
  // A piece from another process finished on worker w: when w goes back to
  // looking for work (`last`: nothing under the piece), it counts as hungry and posts the next request if it
  // can (before the piece's outputs are sent: the victim answers meanwhile).
  void piece_finishing(worker_face* w, bool last);
  int mail_piece(worker_face* proxy_worker, task* t);
  void mail_sent(int thief);
  bool expecting_work() const {
    return expecting_.load(std::memory_order_relaxed) || inbox_.load(std::memory_order_relaxed) != nullptr;
  }
  std::int64_t requests_posted() const { return posts_.load(std::memory_order_relaxed); }
  std::int64_t requests_posted_by_workers() const { return worker_posts_.load(std::memory_order_relaxed); }
  std::int64_t pieces_mailed() const { return mailed_.load(std::memory_order_relaxed); }
  std::vector<std::int64_t> take_steal_latencies();

  // --- the message thread ---
  // The start of a turn; what the turn did for local workers (network's
  // loop lets them run before it goes on).
  void begin_turn() { posted_local_ = filled_inbox_ = false; }
  bool posted_local() const { return posted_local_; }
  bool filled_inbox() const { return filled_inbox_; }
  // A thief of this machine was writing its shared-memory request at the
  // last look: look again soon.
  bool claims_seen() const { return claims_seen_; }
  // Requests posted through shared memory become proxies (and the root call
  // they may be posted for is published).
  void adopt_posted_requests();
  bool tend_proxies();
  bool ask_for_work();
  bool keep_worker_post();
  // TASCELL_WATCHDOG for this process's own request.
  void watch();
  // The piece in this process's mailbox (now_or_never: also while idle
  // workers could take it soon), after recording one a worker took.
  bool take_mail(bool now_or_never = false);
  bool collect_taken();
  // This process began a root call: requests held for it are served.
  void root_begun();
  // Nothing of this process's stealing is out (no request, proxy,
  // steal-back or posted slot): the root call may end here. Takes back an
  // armed request and adopts one a worker made first.
  bool quiet_for_root_end(bool& acted);
  // Messages.
  void heard_load(int from, int load) { loads_[static_cast<std::size_t>(from)] = load; }
  // Work waits for this process at `rank` (a loop over a table's indices
  // holds its block there): the next request for work goes there.
  void prefer_victim(int rank) { preferred_victim_ = rank; }
  void on_request_message(int from, reader& r);
  void on_work(int from, reader& r);
  void on_refuse(int from, std::uint64_t seq);
  void on_result(int from, reader& r);
  void on_stop(int from, std::uint64_t handle);
  void on_cancel_up(int from, std::uint64_t handle);
  // Events of workers.
  void send_result(task* t);
  // A worker: piece t of a process on this machine has ended normally; its
  // result goes into that process's ring for this one (shared_requests),
  // where a worker of the victim waiting at the join, or its message
  // thread, takes it. False when it must go by MPI (send_result).
  bool mail_result(task* t);
  // ... and the message thread forgets t (no message).
  void result_mailed(task* t);
  // The victim: the results waiting in this process's rings (the message
  // thread's turn), or taken by a worker waiting at a join when the thread
  // is not in a turn (false also when it could not take the turn).
  bool take_results();
  bool take_results_here();
  // A worker holding the turn (try_take_turn): takes the results, then
  // ends the turn.
  bool take_results_in_turn();
  std::int64_t results_mailed() const { return results_mailed_.load(std::memory_order_relaxed); }
  // Pieces this process sent to other processes and the bytes of their
  // inputs (what their clauses packed), and the same for the results it
  // sent back: TASCELL_STATS shows what a piece carries.
  struct sent_figures {
    std::atomic<std::int64_t> count{0}, bytes{0};
  };
  const sent_figures& pieces_sent() const { return pieces_out_; }
  const sent_figures& results_sent() const { return results_out_; }
  std::int64_t results_taken_here() const { return results_here_.load(std::memory_order_relaxed); }
  void send_cancel_up(task* t);

  // For the loop's sleep (network::pause).
  // A request posted through shared memory that has had no answer for
  // shared_requests::ring_after: rings the victim once; otherwise how long
  // the loop may sleep before that (LONG_MAX: no such request).
  long posted_wait_us();
  // A request by MPI is out and every worker is idle: the loop spins.
  bool spin_for_answer() const { return asking_seq_ != 0 && !posted_ && all_hungry(); }
  // An answer from a process that `polled(rank)` may come any moment.
  template <class Polled>
  bool answer_due(Polled polled) const;
  bool wants_work() const;
  loop_services::time_point next_ask() const { return next_ask_; }
  bool all_hungry() const;

  // Introspection (describe.cpp): the SIGUSR1 dump's lines, what the message
  // thread knows of one proxy, and the protocol log.
  void describe_all(std::ostream& m) const;
  void describe(const worker_face* proxy_worker) const;
  std::string say_log() const;

 private:
  // A worker-like object through which the message thread asks a local
  // worker for work on behalf of another process; it then stands for the
  // remote thief of the piece it got (its `requester` receives local
  // steal-back requests).
  struct proxy {
    worker_face* w = nullptr;  // the requester object (remote_rank set)
    int from = -1;             // the process that asked
    std::uint64_t seq = 0;     // its request number
    task* wanted = nullptr;    // steal-back: the local piece asked for
    std::vector<worker_face*> tried;  // local victims asked already
    worker_face* victim = nullptr;    // the one being asked now
    task* given = nullptr;     // the piece sent (until its result returns)
    std::uint64_t handle = 0;  // its handle
    bool stop_sent = false;
    // A local steal-back forwarded through this proxy: its request number.
    std::uint64_t back_seq = 0;
  };

  std::chrono::steady_clock::time_point now() const { return loop_.now(); }
  [[noreturn]] void fatal(const std::string& cause) {
    loop_.fatal(cause);
    std::abort();  // not reached: fatal() ends the process
  }
  void on_request(int from, std::uint64_t seq, std::uint64_t wanted);
  bool ask_local(proxy& p);  // posts p's request to a local worker
  // Answers the local worker that asks through p (a steal-back) with t, or
  // `refused`.
  void answer(proxy& p, task* t);
  // The answer to the steal-back request seq came: t or `refused`. False
  // when no such request is out.
  bool answer_back(std::uint64_t seq, task* t);
  void send_work(proxy& p, task* t);
  int choose_victim_rank();
  int preferred_victim_ = -1;  // prefer_victim()
  // Requests a worker may post (post_request): armed by the message thread
  // when it could ask but the workers are not all idle yet, taken by the
  // first worker that finds them all idle, adopted by the message thread as
  // its own request (asking_seq_, ...). keep_worker_post() arms, disarms or
  // adopts as the state of the root call asks; adopt_worker_post() adopts a
  // post that was made (waiting out one being made) and sends a request
  // that could not be posted by MPI.
  bool adopt_worker_post();
  // Takes the armed request back; false when a worker took it first (then
  // adopt it).
  bool disarm_worker_post();
  // Whether this process may ask for work now, the workers' idleness and
  // the inbox apart: in a root call that has not ended, no request out.
  bool may_ask() const;
  proxy* make_proxy();  // a fresh proxy, not yet in use
  proxy* new_proxy();   // ... in use (proxies_)
  void stand(int thief, int k);  // in slot k (shared_requests::slots_per_thief)
  void stand_all();
  void adopt_posted();
  void free_proxy(proxy* p);
  // This process has nothing to run: nothing in the inbox (it holds one
  // piece, which the answer to a new request would overwrite), every worker
  // idle. The rule for asking, whoever asks: the message thread
  // (wants_work) or an idle worker claiming an armed request (post_request).
  bool out_of_work() const;
  // The mailbox: a worker's side and the message thread's.
  task* take_mailed(worker_face* w);
  // The worker that took piece t, answering request seq, from the mailbox
  // records it and arms the next request, as the message thread's next
  // turn would; false (nothing done) when it must ring the thread instead.
  bool settle_take(task* t, std::uint64_t seq);
  // A WORK message's fields for piece t answering request seq (throws what
  // packing its inputs throws), and the piece made from them again (no
  // state of the message thread touched).
  // Both return the size of the piece's own bytes (its inputs, its outputs).
  static std::size_t write_work(writer& w, std::uint64_t seq, task* t);
  // RESULT's fields for the ended piece t (throws what packing its outputs
  // throws), and its flags.
  static std::size_t write_result(writer& w, task* t);
  static std::uint8_t result_flags(const task* t);
  // A result from the ring of `from` (a RESULT's fields).
  void apply_result(int from, std::string_view bytes);
  task* unpack_work(int from, reader& r, std::uint64_t& seq);
  // A piece of another process is here (by WORK, or from the mailbox),
  // answering request seq: stops and steal-backs find it.
  void record_received(std::uint64_t seq, task* t);
  // The request out was answered with work.
  void answered();
  // A message about piece `handle` given to `from` came, and given_ does
  // not have it: it may have gone through the mailbox, its proxy not looked
  // at yet (collect_mailed). The proxy, or nullptr.
  proxy* given_proxy(int from, std::uint64_t handle);
  void collect_mailed();
  // Runs f, turning a malformed message from `from` into a fatal error.
  template <class F>
  void guarded(int from, F&& f);
  void say_in_use(std::ostream& m, const proxy& p) const;

  host& host_;
  const settings& cfg_;
  outbox& out_;
  protocol_log& log_;
  const root_protocol& root_;
  loop_services& loop_;
  int rank_ = 0, size_ = 1;
  std::uint64_t rng_ = 1;

  // Pieces received for this process, waiting for a worker.
  // Words that workers read and write (the inbox, the armed request, the
  // latencies) are each on cache lines of their own, apart from the message
  // thread's state below: shared with it, they made n-queens on 2 x 1 4%
  // slower when this class was split out of network (the false sharing
  // moved with the layout).
  alignas(64) std::atomic<task*> inbox_{nullptr};
  std::atomic<bool> expecting_{false};

  // The request a worker may post (post_request). armed_ is written by the
  // message thread while the state is `none`, and by the worker that
  // claimed it (its time) before `posted` or `failed`. arm_ holds the state
  // in its low bits and, above them, how many requests have been armed: a
  // worker claims only the arming it saw ready when it found its process
  // out of work. Without the count, a worker that saw one arming, was
  // preempted, and then claimed the next (taken back, asked, answered and
  // re-armed meanwhile, with the answer waiting in the inbox) posted a
  // request whose answer overwrote that piece: the lost piece of the rare
  // hang (decisions.md, "The lost piece").
  enum arm_state : int { arm_none, arm_ready, arm_claimed, arm_posted, arm_failed };
  static int arm_state_of(std::uint64_t word) { return static_cast<int>(word & 7); }
  static std::uint64_t arm_word(std::uint64_t word, int state) {
    return (word & ~std::uint64_t{7}) | static_cast<std::uint64_t>(state);
  }
  struct armed_request {
    int rank = -1;
    std::uint64_t seq = 0, root = 0, start = 0;
    bool largest = false;
    std::chrono::steady_clock::time_point claimed;
    std::int64_t claimed_trace = 0;  // trace_now() then, when tracing
  };
  alignas(64) std::atomic<std::uint64_t> arm_{arm_none};
  armed_request armed_;
  alignas(64) std::mutex lat_m_;
  std::vector<std::int64_t> latencies_;
  // When this process's last request for work left (now(), in ns), for a
  // piece a worker takes from the mailbox.
  std::atomic<std::int64_t> ask_sent_ns_{0};

  // --- message thread only ---
  alignas(64) std::vector<int> loads_;        // last load heard from each rank
  std::vector<proxy*> proxies_;   // in use
  std::vector<proxy*> spare_;
  std::map<std::uint64_t, proxy*> given_;  // handle -> proxy of a piece given away
  std::map<std::pair<int, std::uint64_t>, task*> received_;  // (rank, handle) -> piece here
  std::map<std::uint64_t, proxy*> backs_;  // steal-back request number -> proxy
  std::uint64_t next_seq_ = 1;
  // Requests for the next root call, which this process has not begun yet.
  std::vector<std::pair<int, std::uint64_t>> deferred_;
  // The request this process has out for work (0: none).
  std::uint64_t asking_seq_ = 0;
  int asking_rank_ = -1;
  std::chrono::steady_clock::time_point asking_since_;
  std::chrono::steady_clock::time_point next_ask_;
  int refusals_ = 0;
  std::uint64_t asking_said_ = 0;  // the request watch() spoke of
  // The request out was posted through shared memory (shared_requests);
  // the victim's doorbell was rung because its answer was late.
  bool posted_ = false;
  bool posted_rung_ = false;
  // Shared-memory requests: this process's object and the other processes'
  // on this machine; the standing proxies (by thief and slot); a thief was
  // writing its slot at the last look.
  shared_requests shared_;
  std::vector<proxy*> standing_;
  bool claims_seen_ = false;
  // This turn asked a local worker for work on behalf of another process
  // (its answer rings the bell), or put work from another process into the
  // inbox for idle workers.
  bool posted_local_ = false;
  bool filled_inbox_ = false;
  alignas(64) std::atomic<std::int64_t> posts_{0};  // requests posted through shared memory
  std::atomic<std::int64_t> worker_posts_{0};  // ... by a worker (post_request)
  std::atomic<std::int64_t> mailed_{0};        // pieces given through a mailbox (mail_piece)
  std::atomic<std::int64_t> results_mailed_{0};  // results through a victim's ring (mail_result)
  sent_figures pieces_out_, results_out_;
  static void count_sent(sent_figures& f, std::size_t bytes);
  std::atomic<std::int64_t> results_here_{0};    // ... taken by a worker of the victim (take_results_here)
  // The piece a worker took from the mailbox (take_mailed), for
  // collect_taken: written before the mailbox says `taken`.
  task* mail_task_ = nullptr;
  std::uint64_t mail_seq_ = 0;
  std::chrono::steady_clock::time_point mail_taken_at_;
  alignas(64) std::atomic<bool> mail_bad_{false};  // a worker could not read it: the message thread takes it
  alignas(64) bool mail_seen_ = false;  // take_mail saw the mailbox full at mail_seen_at_
  std::chrono::steady_clock::time_point mail_seen_at_;
};

template <class Polled>
bool steal_protocol::answer_due(Polled polled) const {
  bool due = asking_seq_ != 0 && polled(asking_rank_);
  for (auto& [seq, p] : backs_) due = due || polled(p->from);
  for (int r = 0; r < size_; ++r) due = due || (r != rank_ && loads_[static_cast<std::size_t>(r)] == 0 && polled(r));
  return due;
}

}  // namespace tascell::detail::net
