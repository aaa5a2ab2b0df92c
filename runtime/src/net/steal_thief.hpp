// This process as a thief: asking another process for work when every
// worker is hungry, and running what comes (docs/message-thread.md has a
// diagram of each exchange).
//
// One request is out at a time. The message thread asks (ask_for_work: by
// MPI, or posted straight to a worker of a process of this machine through
// shared memory), or arms a request that the first worker to find the
// process out of work posts itself (keep_worker_post, post_request) and
// the thread adopts as its own (adopt_worker_post). The piece that answers
// goes into the inbox, or, posted, comes back through this process's
// mailbox, where an idle worker takes it (take_mailed) and, when the
// thread is not in a turn, records it and arms the next request itself
// (settle_take). When a piece has run, its RESULT goes back (by MPI, or
// into the victim's ring in shared memory). The pieces here answer stops
// and steal-back requests from their victims (received_piece, on_stop).
//
// Workers touch the inbox, the armed request (arm_), the mailbox (through
// shared_requests), the latencies and the counters, each on cache lines of
// their own; the rest is the message thread's.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "steal_context.hpp"
#include "worker_face.hpp"

namespace tascell::detail {
// claim_delay_for_testing (testing.hpp).
extern std::atomic<int> claim_delay_us_for_testing;
// Called, when set, where claim_delay_for_testing waits: the protocol
// simulation runs other steps there, as if the worker were preempted.
extern void (*claim_window_for_testing)();
}  // namespace tascell::detail

namespace tascell::detail::net {

class steal_thief {
 public:
  explicit steal_thief(steal_context& c) : c_(c) {}
  steal_thief(const steal_thief&) = delete;
  steal_thief& operator=(const steal_thief&) = delete;

  // --- workers (network.hpp says what each does) ---
  task* take_work(worker_face* w, bool hungry);
  bool post_request(bool* through_shared_memory = nullptr);
  // A piece from another process finished on worker w: when w goes back to
  // looking for work (`last`: nothing under the piece), it counts as hungry
  // and posts the next request if it can (before the piece's outputs are
  // sent: the victim answers meanwhile).
  void piece_finishing(worker_face* w, bool last);
  // A worker: piece t of a process on this machine has ended normally; its
  // result goes into that process's ring for this one (shared_requests),
  // where a worker of the victim waiting at the join, or its message
  // thread, takes it. False when it must go by MPI (send_result).
  bool mail_result(task* t);
  bool expecting_work() const {
    return expecting_.load(std::memory_order_relaxed) || inbox_.load(std::memory_order_relaxed) != nullptr;
  }
  std::int64_t requests_posted() const { return posts_.load(std::memory_order_relaxed); }
  std::int64_t requests_posted_by_workers() const { return worker_posts_.load(std::memory_order_relaxed); }
  std::int64_t results_mailed() const { return results_mailed_.load(std::memory_order_relaxed); }
  const steal_context::sent_figures& results_sent() const { return results_out_; }
  std::vector<std::int64_t> take_steal_latencies();

  // --- the message thread ---
  void begin_turn() { filled_inbox_ = false; }
  // This turn put work from another process into the inbox.
  bool filled_inbox() const { return filled_inbox_; }
  bool ask_for_work();
  bool keep_worker_post();
  // Takes the armed request back; false when a worker took it first (then
  // adopt it).
  bool disarm_worker_post();
  // Adopts a post that a worker made (waiting out one being made) and
  // sends a request that could not be posted by MPI; false when none was.
  bool adopt_worker_post();
  // TASCELL_WATCHDOG for this process's own request.
  void watch();
  // The piece in this process's mailbox (now_or_never: also while idle
  // workers could take it soon), after recording one a worker took.
  bool take_mail(bool now_or_never = false);
  bool collect_taken();
  void root_begun();
  // No request of this process for work is out.
  bool quiet() const { return asking_seq_ == 0; }
  // Work waits for this process at `rank` (a loop over a table's indices
  // holds its block there): the next request for work goes there.
  void prefer_victim(int rank) { preferred_victim_ = rank; }
  // WORK from `from`: into the inbox when it answers this process's
  // request; otherwise (a steal-back's answer) recorded and returned, with
  // its request number, for the victim's side.
  task* on_work(int from, reader& r, std::uint64_t& seq);
  // A refusal of this process's request; false when seq is not it.
  bool on_refuse(int from, std::uint64_t seq);
  void on_stop(int from, std::uint64_t handle);
  // A piece received from `from` answered no request: forgotten.
  void forget_received(int from, std::uint64_t handle) { received_.erase({from, handle}); }
  // The piece `handle` of process `from` that runs here, or nullptr (a
  // steal-back's target).
  task* received_piece(int from, std::uint64_t handle) const;
  void send_result(task* t);
  // ... and the message thread forgets t (no message).
  void result_mailed(task* t);
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
  bool answer_due(Polled polled) const {
    return asking_seq_ != 0 && polled(asking_rank_);
  }
  bool wants_work() const;
  loop_services::time_point next_ask() const { return next_ask_; }
  bool all_hungry() const;

  // The SIGUSR1 dump's lines (describe.cpp); the pieces of other processes
  // here, and the process this one's request for work is out to (-1: none).
  void describe(std::ostream& m) const;
  std::size_t pieces_here() const { return received_.size(); }
  int asking_rank() const { return asking_seq_ ? asking_rank_ : -1; }

 private:
  int choose_victim_rank();
  // Whether this process may ask for work now, the workers' idleness and
  // the inbox apart: in a root call that has not ended, no request out.
  bool may_ask() const;
  // This process has nothing to run: nothing in the inbox (it holds one
  // piece, which the answer to a new request would overwrite), every worker
  // idle. The rule for asking, whoever asks: the message thread
  // (wants_work) or an idle worker claiming an armed request (post_request).
  bool out_of_work() const;
  // The mailbox: a worker's side.
  task* take_mailed(worker_face* w);
  // The worker that took piece t, answering request seq, from the mailbox
  // records it and arms the next request, as the message thread's next
  // turn would; false (nothing done) when it must ring the thread instead.
  bool settle_take(task* t, std::uint64_t seq);
  // A WORK message's piece made again (no state of the message thread
  // touched); the fields are steal_victim::write_work's.
  task* unpack_work(int from, reader& r, std::uint64_t& seq);
  // A piece of another process is here (by WORK, or from the mailbox),
  // answering request seq: stops and steal-backs find it.
  void record_received(std::uint64_t seq, task* t);
  // The request out was answered with work.
  void answered();
  // RESULT's fields for the ended piece t (throws what packing its outputs
  // throws), and its flags. Returns the size of its outputs.
  static std::size_t write_result(writer& w, task* t);
  static std::uint8_t result_flags(const task* t);

  steal_context& c_;

  // Pieces received for this process, waiting for a worker. Words that
  // workers read and write (the inbox, the armed request, the latencies)
  // are each on cache lines of their own, apart from the message thread's
  // state below: shared with it, they made n-queens on 2 x 1 4% slower
  // (the false sharing moved with the layout).
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
  // request whose answer overwrote that piece (decisions.md, "The lost
  // piece").
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
  // The request this process has out for work (0: none), to whom, since
  // when, and whether it was posted through shared memory (and the
  // victim's doorbell rung because its answer was late).
  alignas(64) std::uint64_t asking_seq_ = 0;
  int asking_rank_ = -1;
  std::chrono::steady_clock::time_point asking_since_;
  bool posted_ = false;
  bool posted_rung_ = false;
  std::uint64_t asking_said_ = 0;  // the request watch() spoke of
  // No request before this time; refusals in a row.
  std::chrono::steady_clock::time_point next_ask_;
  int refusals_ = 0;
  int preferred_victim_ = -1;  // prefer_victim()
  std::map<std::pair<int, std::uint64_t>, task*> received_;  // (rank, handle) -> piece here
  bool filled_inbox_ = false;

  // The piece a worker took from the mailbox (take_mailed), for
  // collect_taken: written before the mailbox says `taken`.
  struct mail_take {
    task* t = nullptr;
    std::uint64_t seq = 0;
    std::chrono::steady_clock::time_point at;
  } taken_;
  alignas(64) std::atomic<bool> mail_bad_{false};  // a worker could not read it: the message thread takes it
  // take_mail saw the mailbox full since `at`.
  alignas(64) struct {
    bool seen = false;
    std::chrono::steady_clock::time_point at;
  } mail_seen_;

  alignas(64) std::atomic<std::int64_t> posts_{0};  // requests posted through shared memory
  std::atomic<std::int64_t> worker_posts_{0};      // ... by a worker (post_request)
  std::atomic<std::int64_t> results_mailed_{0};    // results through a victim's ring (mail_result)
  steal_context::sent_figures results_out_;
};

}  // namespace tascell::detail::net
