// What the message thread says on stderr when a wait has lasted
// TASCELL_WATCHDOG seconds: what it knows of one proxy, when a worker has
// waited that long for the proxy's answer (watchdog.cpp; the proxy lists
// are the message thread's own, so it is the one to read them), and that
// its own request for work has had no answer. And, on SIGUSR1, everything
// it knows: the pieces out and in, the requests, and each worker's shared
// words (a run that seems stuck: `kill -USR1` the mpirun, which forwards
// the signal to every process).
#include <signal.h>

#include <cstdio>
#include <sstream>

#include "worker_face.hpp"
#include "network.hpp"
#include "steal_protocol.hpp"

namespace tascell::detail::net {

std::atomic<bool> dump_asked{false};

namespace {
void on_dump_signal(int) { dump_asked.store(true, std::memory_order_relaxed); }
}  // namespace

void network::catch_dump_signal() {
  struct sigaction old {};
  if (sigaction(SIGUSR1, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) return;  // the program's own
  struct sigaction sa {};
  sa.sa_handler = on_dump_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &sa, nullptr);
}

void steal_victim::say_in_use(std::ostream& m, const proxy& p) const {
  m << "serves request " << p.seq << " of rank " << p.from;
  if (p.victim) m << ", asking worker " << p.victim->id << " of this process";
  if (p.given) m << ", carrying piece " << p.handle << " (given to rank " << p.from << ")";
  if (p.back_seq) m << ", a steal-back of it out as request " << p.back_seq;
  if (!p.victim && !p.given) m << ", between a victim's refusal and the next step";
}

void network::describe_all() {
  std::ostringstream m;
  m << "tascell: rank " << at_.rank << " (SIGUSR1): root call " << root_.number()
    << (root_.in_root() ? ", in it" : ", not in one") << (root_.done_here() ? ", its end announced" : "") << "; ";
  steal_.describe_all(m);
  std::fprintf(stderr, "%s", m.str().c_str());
}

void steal_protocol::describe_all(std::ostream& m) const {
  thief_.describe(m);
  pieces_.describe(m);
  victim_.describe(m);
  const char* head = "tascell: rank ";
  c_.log.print(m, ("tascell: rank " + std::to_string(c_.rank) + ": ").c_str());
  for (int i = 0; i < c_.process.workers(); ++i) {
    const worker_face* w = c_.process.worker(i);
    const worker_face* r = w->requester.load(std::memory_order_acquire);
    m << head << c_.rank << ": worker " << i << (w->busy.load(std::memory_order_relaxed) ? " busy" : " not busy")
      << (w->hungry.load(std::memory_order_relaxed) ? ", hungry" : "") << ", asked by ";
    if (!r) m << "nobody";
    else if (r->remote_rank.load(std::memory_order_relaxed) >= 0)
      m << "a proxy for rank " << r->remote_rank.load(std::memory_order_relaxed);
    else m << "worker " << r->id;
    m << ".\n";
  }
}

// The request out, the inbox and the mailbox (the first line), and the
// pieces of other processes here.
void steal_thief::describe(std::ostream& m) const {
  m << (!asking_.quiet() ? "request " + std::to_string(asking_.seq) + " for work out to rank " + std::to_string(asking_.rank)
                         : std::string("no request for work out"))
    << "; inbox " << (inbox_.load(std::memory_order_acquire) ? "holds a piece" : "empty");
  if (c_.shared.active()) {
    static const char* const mailbox[] = {"empty", "holds a piece", "being taken by a worker",
                                          "taken by a worker, not yet recorded"};
    m << "; mailbox " << mailbox[c_.shared.mail_state() & 3];
  }
  m << ".\n";
}

void received_pieces::describe(std::ostream& m) const {
  const char* head = "tascell: rank ";
  for (const auto& [key, t] : pieces_) {
    const auto* thief = static_cast<const worker_face*>(t->thief.load(std::memory_order_acquire));
    m << head << c_.rank << ": piece " << key.second << " of rank " << key.first << " here, "
      << (thief ? "run by worker " + std::to_string(thief->id) : std::string("not started")) << ".\n";
  }
}

// The pieces out and the proxies in use.
void steal_victim::describe(std::ostream& m) const {
  const char* head = "tascell: rank ";
  for (const auto& [handle, p] : given_)
    m << head << c_.rank << ": piece " << handle << " out to rank " << p->from
      << (p->back_seq ? ", a steal-back of it out as request " + std::to_string(p->back_seq) : std::string())
      << ".\n";
  for (const proxy* p : pool_.in_use()) {
    m << head << c_.rank << ": a proxy ";
    say_in_use(m, *p);
    m << ".\n";
  }
}

void steal_protocol::describe(const worker_face* pw) const {
  std::ostringstream m;
  m << "tascell: rank " << c_.rank << ", message thread: that proxy ";
  victim_.describe(m, pw);
  auto [given, backs] = victim_.out();
  m << ". This process has " << given << " piece(s) out in other processes, " << pieces_.size() << " from them, "
    << backs << " steal-back(s) out, ";
  if (int to = thief_.request().rank_or_none(); to >= 0) m << "and a request for work out to rank " << to << ".";
  else m << "and no request for work out.";
  std::fprintf(stderr, "%s\n", m.str().c_str());
}

void steal_victim::describe(std::ostream& m, const worker_face* pw) const {
  if (const proxy* p = pool_.in_use_by(pw)) say_in_use(m, *p);
  else pool_.say_idle(m, pw);
  const worker_face* claim = pw->requester.load(std::memory_order_acquire);
  m << "; its claim slot holds ";
  if (claim) m << "worker " << claim->id;
  else m << "nobody";
}

void steal_thief::watch() {
  if (asking_.quiet() || asking_.seq == asking_.said) return;
  auto waited = c_.now() - asking_.since;
  if (waited < std::chrono::seconds(c_.cfg.watchdog_s)) return;
  asking_.said = asking_.seq;
  std::fprintf(stderr,
               "tascell: rank %d, message thread: its request %llu for work, %s rank %d, has had no answer for "
               "%d s. Rank %d answers when one of its busy workers polls: workers that run %d s without a poll "
               "explain this; otherwise the runtime is stuck, and this message belongs in a bug report "
               "(TASCELL_WATCHDOG=%d; 0 turns this message off).\n",
               c_.rank, static_cast<unsigned long long>(asking_.seq),
               asking_.posted ? "posted through shared memory to" : "sent to", asking_.rank, c_.cfg.watchdog_s,
               asking_.rank, c_.cfg.watchdog_s, c_.cfg.watchdog_s);
}

}  // namespace tascell::detail::net
