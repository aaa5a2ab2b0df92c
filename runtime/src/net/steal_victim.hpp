// This process as a victim: other processes' requests for work served
// here, and the pieces given to them until their results come back
// (docs/message-thread.md has a diagram of each exchange).
//
// A request is served by a proxy, a worker_face that is no thread: it asks
// a local worker for work exactly as a local thief would (the worker gives
// at its next poll, by temporary backtracking; ask_local), and the piece
// travels as bytes (send_work). The proxy stands for the remote thief
// until the RESULT comes: stops are forwarded to it, and local steal-backs
// go through it (tend_proxies). Thieves on this machine post requests
// straight into a worker's `requester` through shared memory, each in a
// slot where a standing proxy waits (stand, adopt_posted); the worker then
// puts the piece into the thief's mailbox (mail_piece) and the results
// come back through a ring that a worker waiting at the join may take
// (take_results_here).
#pragma once

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include "steal_context.hpp"
#include "worker_face.hpp"

namespace tascell::detail::net {

class steal_victim {
 public:
  explicit steal_victim(steal_context& c) : c_(c) {}
  ~steal_victim();
  steal_victim(const steal_victim&) = delete;
  steal_victim& operator=(const steal_victim&) = delete;

  // --- workers ---
  // A worker answering a standing proxy with piece t puts it into the
  // thief's mailbox: the thief's rank, or -1 (the message thread sends it).
  int mail_piece(worker_face* proxy_worker, task* t);
  void mail_sent(int thief);
  std::int64_t pieces_mailed() const { return mailed_.load(std::memory_order_relaxed); }
  const steal_context::sent_figures& pieces_sent() const { return pieces_out_; }
  std::int64_t results_taken_here() const { return results_here_.load(std::memory_order_relaxed); }
  // The results waiting in this process's rings (the message thread's
  // turn), or taken by a worker waiting at a join when the thread is not
  // in a turn (false also when it could not take the turn).
  bool take_results();
  bool take_results_here();
  // A worker holding the turn (try_take_turn): takes the results, then
  // ends the turn.
  bool take_results_in_turn();

  // --- the message thread ---
  void begin_turn() { posted_local_ = false; }
  // This turn asked a local worker for work on behalf of another process
  // (its answer rings the bell).
  bool posted_local() const { return posted_local_; }
  // A thief of this machine was writing its shared-memory request at the
  // last look: look again soon.
  bool claims_seen() const { return claims_seen_; }
  void see_claims() { claims_seen_ = true; }
  // The standing proxies, once shared memory is open.
  void stand_all();
  // Requests posted through shared memory become proxies (and the root call
  // they may be posted for is published).
  void adopt_posted_requests();
  bool tend_proxies();
  // A request from `from`: for any work, or (wanted) a steal-back of the
  // piece here `target` (nullptr: it has finished meanwhile); and one held
  // until this process begins the root call it is for.
  void on_request(int from, std::uint64_t seq, bool wanted, task* target);
  void defer(int from, std::uint64_t seq) { deferred_.push_back({from, seq}); }
  void root_begun();
  // The answer to the steal-back request seq came: t or `refused`. False
  // when no such request is out.
  bool answer_back(std::uint64_t seq, task* t);
  void on_result(int from, reader& r);
  void on_cancel_up(int from, std::uint64_t handle);
  // No proxy is in use and no steal-back is out.
  bool quiet() const { return proxies_.empty() && backs_.empty(); }
  template <class Polled>
  bool answer_due(Polled polled) const {
    for (auto& [seq, p] : backs_)
      if (polled(p->from)) return true;
    return false;
  }

  // Introspection (describe.cpp): the SIGUSR1 dump's lines, and what the
  // message thread knows of one proxy.
  void describe(std::ostream& m) const;
  void describe(std::ostream& m, const worker_face* proxy_worker) const;
  std::size_t pieces_out() const { return given_.size(); }
  std::size_t steal_backs_out() const { return backs_.size(); }

 private:
  // Through which the message thread asks a local worker for work on
  // behalf of another process; it then stands for the remote thief of the
  // piece it got (its `requester` receives local steal-back requests).
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

  bool ask_local(proxy& p);  // posts p's request to a local worker
  // Answers the local worker that asks through p (a steal-back) with t, or
  // `refused`.
  void answer(proxy& p, task* t);
  void send_work(proxy& p, task* t);
  // A WORK message's fields for piece t answering request seq (throws what
  // packing its inputs throws); returns the size of its inputs.
  static std::size_t write_work(writer& w, std::uint64_t seq, task* t);
  proxy* make_proxy();  // a fresh proxy, not yet in use
  proxy* new_proxy();   // ... in use (proxies_)
  void stand(int thief, int k);  // in slot k (shared_requests::slots_per_thief)
  void adopt_posted();
  void free_proxy(proxy* p);
  // A result from the ring of `from` (a RESULT's fields).
  void apply_result(int from, std::string_view bytes);
  // A message about piece `handle` given to `from` came, and given_ does
  // not have it: it may have gone through the mailbox, its proxy not looked
  // at yet (collect_mailed). The proxy, or nullptr.
  proxy* given_proxy(int from, std::uint64_t handle);
  void collect_mailed();
  void say_in_use(std::ostream& m, const proxy& p) const;

  steal_context& c_;

  // --- message thread only ---
  std::vector<proxy*> proxies_;  // in use
  std::vector<proxy*> spare_;
  std::vector<proxy*> standing_;  // by thief and slot
  std::map<std::uint64_t, proxy*> given_;  // handle -> proxy of a piece given away
  std::map<std::uint64_t, proxy*> backs_;  // steal-back request number -> proxy
  // Requests for the next root call, which this process has not begun yet.
  std::vector<std::pair<int, std::uint64_t>> deferred_;
  bool claims_seen_ = false;
  bool posted_local_ = false;

  alignas(64) std::atomic<std::int64_t> mailed_{0};  // pieces given through a mailbox (mail_piece)
  std::atomic<std::int64_t> results_here_{0};  // results taken by a worker of this process (take_results_here)
  steal_context::sent_figures pieces_out_;
};

}  // namespace tascell::detail::net
