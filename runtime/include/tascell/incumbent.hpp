// An incumbent: the best value found so far in a search, shared by every
// worker (LANGUAGE.md `@shared(min) long best = LONG_MAX;`).
//
// Reading is a plain relaxed load; improving is a compare-and-swap loop that
// only writes when the new value is better. Reads may be stale but only ever
// too optimistic (worse than the true best), never wrong; after the root call
// returns the value is exact.
#pragma once

#include <atomic>
#include <type_traits>

#include "tascell/reduction.hpp"

namespace tascell {

template <class Op, class T>
class incumbent {
  static_assert(std::is_same_v<Op, op::min> || std::is_same_v<Op, op::max>,
                "an incumbent is shared(min) or shared(max)");
  static_assert(std::atomic<T>::is_always_lock_free, "an incumbent must fit a lock-free atomic");

 public:
  // Not explicit: `@shared(min) long best = LONG_MAX;` becomes
  // `tascell::incumbent<op::min, long> best = LONG_MAX;`.
  constexpr incumbent(T initial) : v_(initial) {}  // NOLINT
  incumbent(const incumbent&) = delete;
  incumbent& operator=(const incumbent&) = delete;

  T get() const { return v_.load(std::memory_order_relaxed); }
  operator T() const { return get(); }  // NOLINT: reads like the plain variable it stands for

  // Makes v the incumbent if it is better. Returns true if it was.
  bool improve(T v) {
    T cur = v_.load(std::memory_order_relaxed);
    while (better(v, cur)) {
      if (v_.compare_exchange_weak(cur, v, std::memory_order_acq_rel, std::memory_order_relaxed))
        return true;
    }
    return false;
  }
  // Sets the value unconditionally (for example before a new search).
  void reset(T v) { v_.store(v, std::memory_order_relaxed); }

  static bool better(T a, T b) {
    if constexpr (std::is_same_v<Op, op::min>) return a < b;
    else return b < a;
  }

 private:
  std::atomic<T> v_;
};

template <class Op, class T, class U>
bool improve(incumbent<Op, T>& inc, const U& v) {
  return inc.improve(static_cast<T>(v));
}

}  // namespace tascell
