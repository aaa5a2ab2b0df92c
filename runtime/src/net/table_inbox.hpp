// One worker in each process: that worker is the only writer of its
// process's table entries, so nobody takes a lock. During a root call the
// message thread hands it the update batches and the reads that arrive
// (the worker applies them at its next poll or wait, then rings), and a
// fence waits until the worker has applied every batch handed before it;
// outside root calls the message thread applies them itself under this
// inbox's lock (no worker runs). table_protocol.hpp has the messages;
// table_arrivals.hpp the several-worker case.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "tascell/detail/table_core.hpp"

namespace tascell::detail::net {

class table_inbox {
 public:
  // A batch of updates (checked), or a read of [lo, hi) of t.
  struct inbound {
    int from = 0;
    std::string batch;
    std::shared_ptr<table_core> t;
    std::uint64_t token = 0;
    std::int64_t lo = 0, hi = 0;
  };

  void set_on(bool on) { on_.store(on, std::memory_order_relaxed); }
  bool on() const { return on_.load(std::memory_order_relaxed); }
  // Something waits for the worker (it calls table_protocol::serve_inbound).
  bool ready() const { return ready_.load(std::memory_order_acquire); }

  // --- the worker ---
  // It enters a root call.
  void enter() {
    std::lock_guard<std::mutex> g(m_);
    in_ = true;
  }
  // It leaves one: false while something handed to it waits (serve it, then
  // try again).
  bool try_leave() {
    std::lock_guard<std::mutex> g(m_);
    if (!items_.empty()) return false;
    in_ = false;
    return true;
  }
  // What was handed to it, taken.
  std::vector<inbound> take() {
    std::vector<inbound> items;
    std::lock_guard<std::mutex> g(m_);
    items.swap(items_);
    ready_.store(false, std::memory_order_relaxed);
    return items;
  }
  // It applied `batches` of them (fences may wait for these).
  void applied(std::int64_t batches) { applied_.fetch_add(batches, std::memory_order_release); }

  // --- the message thread ---
  // Hands `in` to the worker and returns true (call the worker then), or,
  // when it is not in a root call, runs apply_now() under the inbox's lock
  // (so that the worker that enters the next root call sees what it wrote)
  // and returns false.
  template <class F> bool hand_or_apply(inbound in, F&& apply_now) {
    std::lock_guard<std::mutex> g(m_);
    if (!in_) {
      apply_now();
      return false;
    }
    if (!in.t) ++handed_;
    items_.push_back(std::move(in));
    ready_.store(true, std::memory_order_release);
    return true;
  }
  // A fence from `from`: true when it waits for the worker to apply what
  // was handed before it (answered by ack_applied()).
  bool fence_waits(int from, std::uint64_t token) {
    if (!on() || applied_.load(std::memory_order_acquire) >= handed_) return false;
    fences_.push_back({from, token, handed_});
    return true;
  }
  // Calls ack(from, token) for every fence whose batches the worker has
  // applied; true if any.
  template <class F> bool ack_applied(F&& ack) {
    if (fences_.empty()) return false;
    std::int64_t applied = applied_.load(std::memory_order_acquire);
    std::size_t k = 0;
    for (; k < fences_.size() && fences_[k].batches <= applied; ++k) ack(fences_[k].from, fences_[k].token);
    fences_.erase(fences_.begin(), fences_.begin() + static_cast<std::ptrdiff_t>(k));
    return k > 0;
  }

 private:
  std::atomic<bool> on_{false};
  std::mutex m_;
  bool in_ = false;              // under m_: the worker is in a root call
  std::vector<inbound> items_;   // under m_
  std::atomic<bool> ready_{false};
  std::int64_t handed_ = 0;                // message thread: batches handed
  std::atomic<std::int64_t> applied_{0};  // the worker: batches applied
  struct fence_after_worker {
    int from;
    std::uint64_t token;
    std::int64_t batches;  // answered once applied_ reaches it
  };
  std::vector<fence_after_worker> fences_;  // message thread
};

}  // namespace tascell::detail::net
