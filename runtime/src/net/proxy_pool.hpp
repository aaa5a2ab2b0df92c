// The proxies through which this process's message thread asks its own
// workers for work on behalf of other processes (steal_victim.hpp): those
// in use, the spare ones (their piece came back) and, once shared memory
// is open, those that stand for each thief of this machine, one per slot
// (shared_requests.hpp), ready for a request the thief posts itself. The
// message thread's.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <vector>

#include "steal_context.hpp"
#include "worker_face.hpp"

namespace tascell::detail::net {

// A proxy: it asks a local worker for work on behalf of another process,
// then stands for the remote thief of the piece it got (its `requester`
// receives local steal-back requests).
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

class proxy_pool {
 public:
  explicit proxy_pool(steal_context& c) : c_(c) {}
  ~proxy_pool();
  proxy_pool(const proxy_pool&) = delete;
  proxy_pool& operator=(const proxy_pool&) = delete;

  // A fresh proxy, in use.
  proxy* take();
  // Not in use any more: spare.
  void give_back(proxy* p);
  // The standing proxies, once shared memory is open.
  void stand_all();
  // Thief `thief` posted a request in slot k: the proxy standing there, now
  // in use; a fresh one stands in its place.
  proxy* adopt(int thief, int k);

  const std::vector<proxy*>& in_use() const { return in_use_; }
  // Calls f(p) for every proxy not in use (spare or standing).
  template <class F> void for_each_idle(F&& f) const {
    for (const auto* list : {&spare_, &standing_})
      for (proxy* p : *list)
        if (p) f(*p);
  }
  // The proxy in use whose requester object is w, or nullptr; and what the
  // pool knows of one not in use (describe.cpp).
  const proxy* in_use_by(const worker_face* w) const;
  void say_idle(std::ostream& m, const worker_face* w) const;

 private:
  proxy* make();  // a fresh proxy, not yet in use
  void stand(int thief, int k);  // in slot k (shared_requests::slots_per_thief)

  steal_context& c_;
  std::vector<proxy*> in_use_;
  std::vector<proxy*> spare_;
  std::vector<proxy*> standing_;  // by thief and slot
};

}  // namespace tascell::detail::net
