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
// (settle_take). The pieces that came, their stops and their results are
// received_pieces.hpp's; the request out, request_out.hpp's; the choice of
// victim, victim_ranks.hpp's.
//
// Workers touch the inbox, the armed request (post_), the mailbox (through
// shared_requests), the latencies and the counters, each on cache lines of
// their own; the rest is the message thread's.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <vector>

#include "received_pieces.hpp"
#include "request_out.hpp"
#include "steal_context.hpp"
#include "steal_latencies.hpp"
#include "victim_ranks.hpp"
#include "worker_face.hpp"
#include "worker_post.hpp"

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
  steal_thief(steal_context& c, received_pieces& pieces, victim_ranks& victims)
      : c_(c), pieces_(pieces), victims_(victims) {}
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
  bool expecting_work() const {
    return expecting_.load(std::memory_order_relaxed) || inbox_.load(std::memory_order_relaxed) != nullptr;
  }
  // Requests posted through shared memory, and those of them by a worker
  // (post_request).
  struct post_counts {
    std::atomic<std::int64_t> all{0}, by_workers{0};
  };
  const post_counts& posts() const { return posts_; }
  std::vector<std::int64_t> take_steal_latencies() { return latencies_.take(); }

  // --- the message thread ---
  void begin_turn() { filled_inbox_ = false; }
  // This turn put work from another process into the inbox.
  bool filled_inbox() const { return filled_inbox_; }
  bool ask_for_work();
  bool keep_worker_post();
  // Takes the armed request back, or adopts the post a worker made from it
  // first (waiting out one being made; a post that failed is sent by MPI):
  // true when it adopted one.
  bool adopt_or_disarm();
  // TASCELL_WATCHDOG for this process's own request.
  void watch();
  // The piece in this process's mailbox (now_or_never: also while idle
  // workers could take it soon), after recording one a worker took.
  bool take_mail(bool now_or_never = false);
  bool collect_taken();
  void root_begun();
  // This process's request for work out, if any (quiet(): none), and when
  // the next may leave.
  const request_out& request() const { return asking_; }
  // WORK from `from`: into the inbox when it answers this process's
  // request; otherwise (a steal-back's answer) recorded and returned, with
  // its request number, for the victim's side.
  task* on_work(int from, reader& r, std::uint64_t& seq);
  // A refusal of this process's request; false when seq is not it.
  bool on_refuse(int from, std::uint64_t seq);

  // For the loop's sleep (network::pause).
  // A request posted through shared memory that has had no answer for
  // shared_requests::ring_after: rings the victim once; otherwise how long
  // the loop may sleep before that (LONG_MAX: no such request).
  long posted_wait_us();
  // A request by MPI is out and every worker is idle: the loop spins.
  bool spin_for_answer() const { return !asking_.quiet() && !asking_.posted && c_.all_hungry(); }
  bool wants_work() const;

  // The SIGUSR1 dump's line (describe.cpp).
  void describe(std::ostream& m) const;

 private:
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
  // Adopts a post that a worker made (waiting out one being made) and
  // sends a request that could not be posted by MPI; false when none was.
  bool adopt_worker_post();

  steal_context& c_;
  received_pieces& pieces_;
  victim_ranks& victims_;

  // Pieces received for this process, waiting for a worker. Words that
  // workers read and write (the inbox, the armed request, the latencies)
  // are each on cache lines of their own, apart from the message thread's
  // state below: shared with it, they made n-queens on 2 x 1 4% slower
  // (the false sharing moved with the layout).
  alignas(64) std::atomic<task*> inbox_{nullptr};
  std::atomic<bool> expecting_{false};

  // The request a worker may post (post_request).
  alignas(64) worker_post post_;
  alignas(64) steal_latencies latencies_;
  // When this process's last request for work left (now(), in ns), for a
  // piece a worker takes from the mailbox.
  std::atomic<std::int64_t> ask_sent_ns_{0};

  // --- message thread only ---
  alignas(64) request_out asking_;
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

  alignas(64) post_counts posts_;
};

}  // namespace tascell::detail::net
