// @wind(before, after) statement: Tascell's dynamic-wind.
//
// Runs before(), then body(ctx) with a wind node on the chain, then after()
// (also when body exits by an exception). When this worker gives work away
// from a spawn point older than the wind, it runs after() first and before()
// again once the work is packed, so the packed work sees the state of the
// older point (temporary backtracking).
#pragma once

#include <new>
#include <type_traits>
#include <utility>

#include "tascell/chain.hpp"

namespace tascell {
namespace detail {

// A wind node keeps its closures by value when they are small and trivially
// copyable (so `[=]` closures leave nothing of the frame in memory), and by
// address otherwise.
template <class F>
struct held {
  static constexpr bool by_value =
      std::is_trivially_copyable_v<F> && std::is_trivially_destructible_v<F> && sizeof(F) <= 32;
  using type = std::conditional_t<by_value, F, F*>;
  static type make(F& f) {
    if constexpr (by_value) return f; else return &f;
  }
  static void call(type& h) {
    if constexpr (by_value) h(); else (*h)();
  }
};

template <class B, class A>
struct wind_site {
  struct wnode {
    typename held<B>::type before;
    typename held<A>::type after;
    std::uintptr_t kind;
  };
  static void undo(void* n) { held<A>::call(static_cast<wnode*>(n)->after); }
  static void redo(void* n) { held<B>::call(static_cast<wnode*>(n)->before); }
  static constexpr node_kind kind{node_type::wind, sizeof(wnode), nullptr, nullptr, nullptr,
                                   false, "wind", &undo, &redo, nullptr};
  static_assert(alignof(wnode) <= 8, "a wind's closures must be at most 8-aligned");
};

template <class A>
struct run_after {
  A& after;
  ~run_after() { after(); }
};

}  // namespace detail

template <class B, class A, class F>
TASCELL_INLINE decltype(auto) wind(ctx c, B&& before, A&& after, F&& body) {
  using Bt = std::remove_reference_t<B>;
  using At = std::remove_reference_t<A>;
  using site = detail::wind_site<Bt, At>;
  before();
  auto* n = ::new (detail::free_of(c)) typename site::wnode{
      detail::held<Bt>::make(before), detail::held<At>::make(after),
      detail::kind_word(&site::kind, c)};
  detail::run_after<At> guard{after};
  return body(detail::after(n + 1));
}

}  // namespace tascell
