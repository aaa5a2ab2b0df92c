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

template <class B, class A>
struct wind_site {
  struct wnode {
    B* before;
    A* after;
    std::uintptr_t kind;
  };
  static void undo(void* n) { (*static_cast<wnode*>(n)->after)(); }
  static void redo(void* n) { (*static_cast<wnode*>(n)->before)(); }
  static constexpr node_kind kind{node_type::wind, sizeof(wnode), nullptr, nullptr, nullptr,
                                   false, "wind", &undo, &redo};
};

template <class A>
struct run_after {
  A& after;
  ~run_after() { after(); }
};

}  // namespace detail

template <class B, class A, class F>
TASCELL_INLINE decltype(auto) wind(ctx c, B&& before, A&& after, F&& body) {
  using site = detail::wind_site<std::remove_reference_t<B>, std::remove_reference_t<A>>;
  before();
  auto* n = ::new (detail::free_of(c))
      typename site::wnode{&before, &after, detail::kind_word(&site::kind, c)};
  detail::run_after<std::remove_reference_t<A>> guard{after};
  return body(detail::after(n + 1));
}

}  // namespace tascell
