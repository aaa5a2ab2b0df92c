// An incumbent: the best value found so far in a search, shared by every
// worker (docs/language.md `@shared(min) long best = LONG_MAX;`).
//
// Reading is a plain relaxed load; improving is a compare-and-swap loop that
// only writes when the new value is better. Reads may be stale but only ever
// too optimistic (worse than the true best), never wrong; after the root call
// returns the value is exact.
//
// With several processes an improvement is also sent to the other processes
// (TASCELL_INCUMBENT: broadcast, random:x, lifeline:l), and the end of every
// root call combines every process's value. An incumbent that takes part in
// that must be at namespace scope (it is known by its place in the binary).
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tascell/reduction.hpp"

namespace tascell {
namespace detail {

struct incumbent_ops {
  std::size_t size;  // bytes of the value
  // Improves the incumbent at obj with the value in bytes (not spread again).
  bool (*apply)(void* obj, const void* bytes);
  void (*read)(const void* obj, void* bytes);
};
// Returns the incumbent's id, the same in every process of the binary.
std::uint64_t register_incumbent(void* obj, const incumbent_ops* ops);
void unregister_incumbent(void* obj);
// True when the runtime wants to hear of improvements: to send them to
// other processes, or to trace them.
extern std::atomic<bool> spreading;
// value: the improvement as a number for the trace, when it is one.
void incumbent_improved(std::uint64_t id, const void* bytes, std::size_t n, bool is_number, double value);

}  // namespace detail

template <class Op, class T>
class incumbent {
  static_assert(std::is_same_v<Op, op::min> || std::is_same_v<Op, op::max>,
                "an incumbent is shared(min) or shared(max)");
  static_assert(std::atomic<T>::is_always_lock_free, "an incumbent must fit a lock-free atomic");

 public:
  // Not explicit: `@shared(min) long best = LONG_MAX;` becomes
  // `tascell::incumbent<op::min, long> best = LONG_MAX;`.
  incumbent(T initial) : v_(initial), id_(detail::register_incumbent(this, &ops)) {}  // NOLINT
  incumbent(const incumbent&) = delete;
  incumbent& operator=(const incumbent&) = delete;
  ~incumbent() { detail::unregister_incumbent(this); }

  T get() const { return v_.load(std::memory_order_relaxed); }
  operator T() const { return get(); }  // NOLINT: reads like the plain variable it stands for

  // Makes v the incumbent if it is better. Returns true if it was.
  bool improve(T v) {
    if (!improve_here(v)) return false;
    if (detail::spreading.load(std::memory_order_relaxed)) [[unlikely]]
      detail::incumbent_improved(id_, &v, sizeof v, std::is_arithmetic_v<T>, as_number(v));
    return true;
  }
  // Sets the value unconditionally (for example before a new search).
  void reset(T v) { v_.store(v, std::memory_order_relaxed); }

  static bool better(T a, T b) {
    if constexpr (std::is_same_v<Op, op::min>) return a < b;
    else return b < a;
  }

 private:
  bool improve_here(T v) {
    T cur = v_.load(std::memory_order_relaxed);
    while (better(v, cur)) {
      if (v_.compare_exchange_weak(cur, v, std::memory_order_acq_rel, std::memory_order_relaxed))
        return true;
    }
    return false;
  }
  static double as_number(const T& v) {
    if constexpr (std::is_arithmetic_v<T>) return static_cast<double>(v);
    else return 0;
  }
  static bool apply(void* obj, const void* bytes) {
    T v;
    std::memcpy(&v, bytes, sizeof v);
    return static_cast<incumbent*>(obj)->improve_here(v);
  }
  static void read(const void* obj, void* bytes) {
    T v = static_cast<const incumbent*>(obj)->get();
    std::memcpy(bytes, &v, sizeof v);
  }
  static constexpr detail::incumbent_ops ops{sizeof(T), &apply, &read};

  std::atomic<T> v_;
  std::uint64_t id_;
};

template <class Op, class T, class U>
bool improve(incumbent<Op, T>& inc, const U& v) {
  return inc.improve(static_cast<T>(v));
}
// The spellings that name the direction (a program compiled by a plain
// compiler needs them: tascell/api.hpp). The translator checks the
// direction at the call.
template <class T, class U>
bool improve_min(incumbent<op::min, T>& inc, const U& v) {
  return inc.improve(static_cast<T>(v));
}
template <class T, class U>
bool improve_max(incumbent<op::max, T>& inc, const U& v) {
  return inc.improve(static_cast<T>(v));
}

}  // namespace tascell
