// TASCELL_WATCHDOG: a worker that has waited that many seconds for the
// answer to one request says so on stderr, once per wait. Answers come at
// the victim's next poll, normally within microseconds; a long wait means
// either a victim running long code without a poll, or a runtime stuck (the
// rare multi-process hang that docs/decisions.md, "Stale steal-back claims
// on standing proxies", describes was one). The message names both, so a
// user on a cluster can tell which, and a report says where it stuck.
#include <cstdio>

#include "net/worker_link.hpp"
#include "runtime.hpp"
#include "worker.hpp"

namespace tascell::detail {

void watch_request(worker_impl* w, worker_face* v, task* wanted, long_wait& wait) {
  int limit = w->rt->config().watchdog_s;
  if (limit == 0 || wait.said) return;
  auto now = std::chrono::steady_clock::now();
  if (wait.since == std::chrono::steady_clock::time_point{}) {
    wait.since = now;  // the first look: a few milliseconds after the request
    return;
  }
  if (now - wait.since < std::chrono::seconds(limit)) return;
  wait.said = true;
  int from = v->remote_rank.load(std::memory_order_relaxed);
  char whom[96];
  if (from >= 0)
    std::snprintf(whom, sizeof whom, "the proxy of a thief in rank %d (the message thread describes it next)", from);
  else
    std::snprintf(whom, sizeof whom, "worker %d", v->id);
  char what[64];
  if (wanted)
    std::snprintf(what, sizeof what, "to steal back piece %llu at a join",
                  static_cast<unsigned long long>(wanted->serial));
  else
    std::snprintf(what, sizeof what, "for work");
  std::fprintf(stderr,
               "tascell: rank %d, worker %d has waited %d s for the answer to its request %s from %s. A victim "
               "answers at its next poll (a @dowork or a join): code that runs %d s without one explains this; "
               "otherwise the runtime is stuck, and this message and the next belong in a bug report "
               "(TASCELL_WATCHDOG=%d; 0 turns this message off).\n",
               w->rt->rank(), w->id, limit, what, whom, limit, limit);
  if (from >= 0 && w->rt->link()) w->rt->link()->describe_proxy(v);
}

}  // namespace tascell::detail
