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
// (victim_mail.hpp). The proxies are proxy_pool.hpp's.
#pragma once

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include "proxy_pool.hpp"
#include "steal_context.hpp"
#include "worker_face.hpp"

namespace tascell::detail::net {

class steal_victim {
 public:
  explicit steal_victim(steal_context& c) : c_(c) {}
  steal_victim(const steal_victim&) = delete;
  steal_victim& operator=(const steal_victim&) = delete;

  // Pieces given by MPI or through a mailbox (victim_mail.hpp counts those).
  steal_context::sent_figures& pieces_sent() { return pieces_out_; }
  const steal_context::sent_figures& pieces_sent() const { return pieces_out_; }

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
  void stand_all() { pool_.stand_all(); }
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
  // The pieces that workers put into thieves' mailboxes since the last
  // look, recorded (and the requests posted since, adopted).
  void collect_mailed();
  void on_cancel_up(int from, std::uint64_t handle);
  // No proxy is in use and no steal-back is out.
  bool quiet() const { return pool_.in_use().empty() && backs_.empty(); }
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
  // Pieces out in other processes, and steal-backs out.
  std::pair<std::size_t, std::size_t> out() const { return {given_.size(), backs_.size()}; }

 private:
  bool ask_local(proxy& p);  // posts p's request to a local worker
  // Answers the local worker that asks through p (a steal-back) with t, or
  // `refused`.
  void answer(proxy& p, task* t);
  void send_work(proxy& p, task* t);
  void adopt_posted();
  // A message about piece `handle` given to `from` came, and given_ does
  // not have it: it may have gone through the mailbox, its proxy not looked
  // at yet (collect_mailed). The proxy, or nullptr.
  proxy* given_proxy(int from, std::uint64_t handle);
  void say_in_use(std::ostream& m, const proxy& p) const;

  steal_context& c_;

  // --- message thread only ---
  proxy_pool pool_{c_};
  std::map<std::uint64_t, proxy*> given_;  // handle -> proxy of a piece given away
  std::map<std::uint64_t, proxy*> backs_;  // steal-back request number -> proxy
  // Requests for the next root call, which this process has not begun yet.
  std::vector<std::pair<int, std::uint64_t>> deferred_;
  bool claims_seen_ = false;
  bool posted_local_ = false;

  alignas(64) steal_context::sent_figures pieces_out_;  // counted by workers too (victim_mail)
};

}  // namespace tascell::detail::net
