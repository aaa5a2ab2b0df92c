// Reduction operators: each has an identity and a combining function.
// `reduce<op::plus>(s)` in the API; the translator maps `reduction(+: s)`.
#pragma once

#include <limits>
#include <type_traits>

namespace tascell::op {

struct plus {
  template <class T> static constexpr T identity() { return T(0); }
  template <class T> static constexpr T combine(const T& a, const T& b) { return a + b; }
};
struct times {
  template <class T> static constexpr T identity() { return T(1); }
  template <class T> static constexpr T combine(const T& a, const T& b) { return a * b; }
};
struct min {
  template <class T> static constexpr T identity() {
    if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
  template <class T> static constexpr T combine(const T& a, const T& b) { return b < a ? b : a; }
};
struct max {
  template <class T> static constexpr T identity() {
    if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
  template <class T> static constexpr T combine(const T& a, const T& b) { return a < b ? b : a; }
};
struct bit_and {
  template <class T> static constexpr T identity() { return static_cast<T>(~T(0)); }
  template <class T> static constexpr T combine(const T& a, const T& b) { return a & b; }
};
struct bit_or {
  template <class T> static constexpr T identity() { return T(0); }
  template <class T> static constexpr T combine(const T& a, const T& b) { return a | b; }
};
struct bit_xor {
  template <class T> static constexpr T identity() { return T(0); }
  template <class T> static constexpr T combine(const T& a, const T& b) { return a ^ b; }
};
struct logical_and {
  template <class T> static constexpr T identity() { return T(true); }
  template <class T> static constexpr T combine(const T& a, const T& b) { return a && b; }
};
struct logical_or {
  template <class T> static constexpr T identity() { return T(false); }
  template <class T> static constexpr T combine(const T& a, const T& b) { return a || b; }
};

}  // namespace tascell::op
