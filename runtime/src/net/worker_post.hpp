// The request for work that the message thread arms and a worker posts
// (steal_thief::post_request): the first worker to find this process out
// of work claims it and posts it to a worker of a process on this machine
// through shared memory, without waiting for the message thread to wake;
// the thread then adopts it as its own request out (or, when the post
// failed, sends it by MPI).
//
// The request's fields are written by the message thread while the state
// is `none`, and by the worker that claimed it (its time) before `posted`
// or `failed`. The word holds the state in its low bits and, above them,
// how many requests have been armed: a worker claims only the arming it
// saw ready when it found its process out of work. Without the count, a
// worker that saw one arming, was preempted, and then claimed the next
// (taken back, asked, answered and re-armed meanwhile, with the answer
// waiting in the inbox) posted a request whose answer overwrote that
// piece (decisions.md, "The lost piece").
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace tascell::detail::net {

class worker_post {
 public:
  enum state : int { none, ready, claimed, posted, failed };
  struct request {
    int rank = -1;
    std::uint64_t seq = 0, root = 0, start = 0;
    bool largest = false;
    std::chrono::steady_clock::time_point claimed;
    std::int64_t claimed_trace = 0;  // trace_now() then, when tracing
  };

  // --- the message thread ---
  int state_now() const { return state_of(word_.load(std::memory_order_acquire)); }
  // In state `none`: arms r.
  void arm(const request& r) {
    r_ = r;
    std::uint64_t w = word_.load(std::memory_order_relaxed);
    word_.store(with_state(w + 8, ready), std::memory_order_release);  // the next arming
  }
  // Takes the armed request back: true when it was, or none was armed;
  // false when a worker claimed it first.
  bool disarm() {
    std::uint64_t w = word_.load(std::memory_order_acquire);
    if (state_of(w) == ready && word_.compare_exchange_strong(w, with_state(w, none), std::memory_order_acq_rel))
      return true;
    return state_of(w) == none;
  }
  // After adopting a claimed request (posted or failed): none armed.
  void adopted() {
    word_.store(with_state(word_.load(std::memory_order_relaxed), none), std::memory_order_release);
  }
  const request& armed() const { return r_; }

  // --- a worker ---
  // The arming it sees ready, or 0.
  std::uint64_t ready_arming() const {
    std::uint64_t w = word_.load(std::memory_order_acquire);
    return state_of(w) == ready ? w : 0;
  }
  // Claims the arming `seen` (from ready_arming) if it is still ready: no
  // request has been out since. Then the worker alone writes claimed_request()
  // until post_ended(seen, ok).
  bool claim(std::uint64_t seen) {
    return word_.compare_exchange_strong(seen, with_state(seen, claimed), std::memory_order_acq_rel);
  }
  request& claimed_request() { return r_; }
  void post_ended(std::uint64_t seen, bool ok) {
    word_.store(with_state(seen, ok ? posted : failed), std::memory_order_release);
  }

 private:
  static int state_of(std::uint64_t w) { return static_cast<int>(w & 7); }
  static std::uint64_t with_state(std::uint64_t w, int s) {
    return (w & ~std::uint64_t{7}) | static_cast<std::uint64_t>(s);
  }

  std::atomic<std::uint64_t> word_{none};
  request r_;
};

}  // namespace tascell::detail::net
