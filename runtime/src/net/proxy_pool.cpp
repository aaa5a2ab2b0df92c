#include "proxy_pool.hpp"

#include <ostream>

namespace tascell::detail::net {

proxy_pool::~proxy_pool() {
  for (auto* list : {&in_use_, &spare_, &standing_})
    for (proxy* p : *list) {
      if (!p) continue;
      delete p->w;
      delete p;
    }
}

proxy* proxy_pool::make() {
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

proxy* proxy_pool::take() {
  proxy* p = make();
  in_use_.push_back(p);
  return p;
}

void proxy_pool::give_back(proxy* p) {
  for (auto it = in_use_.begin(); it != in_use_.end(); ++it)
    if (*it == p) {
      in_use_.erase(it);
      break;
    }
  p->given = nullptr;
  spare_.push_back(p);
}

// A proxy ready for a request that `thief` (on this machine) posts to one
// of this process's workers itself: its address is published in the slot
// the thief writes.
void proxy_pool::stand(int thief, int k) {
  proxy* p = make();
  p->from = thief;
  p->w->wanted = nullptr;
  p->w->reply.store(no_reply, std::memory_order_relaxed);
  p->w->post_slot = k;
  // Last, with release: the worker that answers reads it with acquire
  // (serve.cpp, answer_request).
  p->w->remote_rank.store(thief, std::memory_order_release);
  standing_[static_cast<std::size_t>(thief * shared_requests::slots_per_thief + k)] = p;
  c_.shared.stand(thief, k, p->w);
}

void proxy_pool::stand_all() {
  standing_.assign(static_cast<std::size_t>(c_.size * shared_requests::slots_per_thief), nullptr);
  for (int r : c_.shared.thieves())
    for (int k = 0; k < shared_requests::slots_per_thief; ++k) stand(r, k);
}

proxy* proxy_pool::adopt(int thief, int k) {
  proxy* p = standing_[static_cast<std::size_t>(thief * shared_requests::slots_per_thief + k)];
  in_use_.push_back(p);
  stand(thief, k);
  return p;
}

const proxy* proxy_pool::in_use_by(const worker_face* w) const {
  for (const proxy* p : in_use_)
    if (p->w == w) return p;
  return nullptr;
}

void proxy_pool::say_idle(std::ostream& m, const worker_face* w) const {
  for (const proxy* p : spare_)
    if (p->w == w) {
      m << "is spare: its piece came back";
      return;
    }
  for (std::size_t r = 0; r < standing_.size(); ++r)
    if (standing_[r] && standing_[r]->w == w) {
      m << "stands for the thieves of rank " << r / shared_requests::slots_per_thief << " on this machine (slot "
        << r % shared_requests::slots_per_thief << ")";
      return;
    }
  m << "is in none of its lists";
}

}  // namespace tascell::detail::net
