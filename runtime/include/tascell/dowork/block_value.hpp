// A block's own copy of a small reduction or out variable.
//
// A block body receives a reduction's accumulator (and an out variable) as
// `T&`. Bound to the variable itself, whose address the spawn point keeps,
// the compiler must assume that any call in the body, and any store
// through a pointer of the same type (`s += v[i]` with a `long&` s), may
// change it: the sum stays in memory, and each iteration adds to it there,
// a store and a load on the loop's critical path (KQKR's loops over a
// table: 5 cycles a position). run_block_with gives the body a copy that
// lives in the block's frame instead, whose address goes nowhere else, and
// writes it back when the block ends. The block runs its iterations one
// after another, and a block body takes no ctx (it never polls, so no
// piece is handed over while it runs): nothing reads the variable
// meanwhile.
#pragma once

#include <type_traits>
#include <utility>

#include "tascell/detail/macros.hpp"

namespace tascell::detail {

template <class V>
struct block_value {
  V& to;
  V v;
  explicit block_value(V& x) : to(x), v(x) {}
  block_value(const block_value&) = delete;
  block_value& operator=(const block_value&) = delete;
  ~block_value() { to = v; }
};

// What a block passes its body for a parameter: a block_value for a small
// trivially copyable variable the body may write (a `T&` parameter),
// anything else as it is.
template <class X>
TASCELL_INLINE decltype(auto) block_held(X&& x) {
  using V = std::remove_reference_t<X>;
  if constexpr (std::is_lvalue_reference_v<X> && !std::is_const_v<V> && std::is_trivially_copyable_v<V> &&
                sizeof(V) <= 16 && std::is_copy_assignable_v<V>)
    return block_value<V>(x);  // (guaranteed copy elision: never copied)
  else
    return std::forward<X>(x);
}

template <class X> inline constexpr bool is_block_value = false;
template <class V> inline constexpr bool is_block_value<block_value<V>> = true;

// The parameter itself, from what block_held made.
template <class X>
TASCELL_INLINE decltype(auto) block_param(X&& x) {
  if constexpr (is_block_value<std::remove_cvref_t<X>>)
    return (x.v);
  else
    return std::forward<X>(x);
}

}  // namespace tascell::detail
