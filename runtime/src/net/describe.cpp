// What the message thread says on stderr when a wait has lasted
// TASCELL_WATCHDOG seconds: what it knows of one proxy, when a worker has
// waited that long for the proxy's answer (watchdog.cpp; the proxy lists
// are the message thread's own, so it is the one to read them), and that
// its own request for work has had no answer.
#include <cstdio>
#include <sstream>

#include "../worker.hpp"
#include "network.hpp"

namespace tascell::detail::net {

void network::describe(const worker_impl* pw) const {
  std::ostringstream m;
  m << "tascell: rank " << rank_ << ", message thread: that proxy ";
  auto in = [&](const std::vector<proxy*>& list) -> const proxy* {
    for (const proxy* p : list)
      if (p && p->w == pw) return p;
    return nullptr;
  };
  if (const proxy* p = in(proxies_)) {
    m << "serves request " << p->seq << " of rank " << p->from;
    if (p->victim) m << ", asking worker " << p->victim->id << " of this process";
    if (p->given) m << ", carrying piece " << p->handle << " (given to rank " << p->from << ")";
    if (p->back_seq) m << ", a steal-back of it out as request " << p->back_seq;
    if (!p->victim && !p->given) m << ", between a victim's refusal and the next step";
  } else if (in(spare_)) {
    m << "is spare: its piece came back";
  } else if (in(standing_)) {
    for (std::size_t r = 0; r < standing_.size(); ++r)
      if (standing_[r] && standing_[r]->w == pw) m << "stands for the thieves of rank " << r << " on this machine";
  } else {
    m << "is in none of its lists";
  }
  const worker_impl* claim = pw->requester.load(std::memory_order_acquire);
  m << "; its claim slot holds ";
  if (claim) m << "worker " << claim->id;
  else m << "nobody";
  m << ". This process has " << given_.size() << " piece(s) out in other processes, " << received_.size()
    << " from them, " << backs_.size() << " steal-back(s) out, ";
  if (asking_seq_) m << "and a request for work out to rank " << asking_rank_ << ".";
  else m << "and no request for work out.";
  std::fprintf(stderr, "%s\n", m.str().c_str());
}

void network::watch_asking() {
  auto waited = std::chrono::steady_clock::now() - asking_since_;
  if (waited < std::chrono::seconds(cfg_.watchdog_s)) return;
  asking_said_ = asking_seq_;
  std::fprintf(stderr,
               "tascell: rank %d, message thread: its request %llu for work, %s rank %d, has had no answer for "
               "%d s. Rank %d answers when one of its busy workers polls: workers that run %d s without a poll "
               "explain this; otherwise the runtime is stuck, and this message belongs in a bug report "
               "(TASCELL_WATCHDOG=%d; 0 turns this message off).\n",
               rank_, static_cast<unsigned long long>(asking_seq_),
               posted_ ? "posted through shared memory to" : "sent to", asking_rank_, cfg_.watchdog_s,
               asking_rank_, cfg_.watchdog_s, cfg_.watchdog_s);
}

}  // namespace tascell::detail::net
