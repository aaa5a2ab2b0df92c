// Everything about one list of clauses (clause_set), and what a part or a
// common(...) contributes through it: the references a spawn point keeps,
// what a piece stores, what the body receives and what merges back.
// Part of tascell/dowork.hpp.
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tascell/chain.hpp"
#include "tascell/clauses.hpp"
#include "tascell/dowork/options.hpp"
#include "tascell/owned.hpp"
#include "tascell/read.hpp"
#include "tascell/read_section.hpp"
#include "tascell/wire.hpp"

namespace tascell::detail {

template <class T> struct is_part : std::false_type {};
template <class F, class... C> struct is_part<part_t<F, C...>> : std::true_type {};

template <class P> struct as_part { using type = part_t<std::remove_cvref_t<P>>; };
template <class F, class... C> struct as_part<part_t<F, C...>> { using type = part_t<F, C...>; };

template <class P> decltype(auto) to_part(P&& p) {
  if constexpr (is_part<std::remove_cvref_t<P>>::value) return std::forward<P>(p);
  else return part_t<std::remove_cvref_t<P>>{{}, std::forward<P>(p)};
}

// Whether F can be called with the types of Lead, then A, then B (tuples).
template <class F, class Lead, class A, class B> struct invocable_with;
template <class F, class... L, class... A, class... B>
struct invocable_with<F, std::tuple<L...>, std::tuple<A...>, std::tuple<B...>>
    : std::is_invocable<F&, L..., A..., B...> {};

// Everything about one list of clauses.
template <class... C>
struct clause_set {
  using clauses_t = std::tuple<C...>;
  using refs_t = std::tuple<typename clause_traits<C>::ref...>;
  using stored_t = std::tuple<typename clause_traits<C>::stored...>;
  using targets_t = std::tuple<typename clause_traits<C>::target...>;
  static constexpr bool local_only = (false || ... || clause_traits<C>::local_only);

  TASCELL_INLINE static refs_t refs(const clauses_t& c) {
    return std::apply([](const C&... x) TASCELL_LAMBDA_INLINE { return refs_t{clause_traits<C>::make_ref(x)...}; }, c);
  }
  TASCELL_INLINE static refs_t refs(stored_t& s) {
    return std::apply([](typename clause_traits<C>::stored&... x) TASCELL_LAMBDA_INLINE {
      return refs_t{clause_traits<C>::ref_of(x)...};
    }, s);
  }
  static void put(const refs_t& r, stored_t& s) {
    [&]<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE {
      (clause_traits<C>::put(std::get<I>(r), std::get<I>(s)), ...);
    }(std::index_sequence_for<C...>{});
  }
  TASCELL_INLINE static targets_t targets(const clauses_t& c) {
    return std::apply([](const C&... x) TASCELL_LAMBDA_INLINE { return targets_t{clause_traits<C>::target_of(x)...}; }, c);
  }
  TASCELL_INLINE static targets_t targets(stored_t& s) {
    return std::apply([](typename clause_traits<C>::stored&... x) TASCELL_LAMBDA_INLINE {
      return targets_t{clause_traits<C>::target_of(x)...};
    }, s);
  }
  TASCELL_INLINE static void merge(targets_t& t, stored_t& s, bool completed) {
    [&]<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE {
      (clause_traits<C>::merge(std::get<I>(t), std::get<I>(s), completed), ...);
    }(std::index_sequence_for<C...>{});
  }
  // Between processes (only when !local_only).
  static void pack_in(out_archive& a, stored_t& s) {
    std::apply([&](typename clause_traits<C>::stored&... x) { (clause_traits<C>::pack_in(a, x), ...); }, s);
  }
  static void unpack_in(in_archive& a, stored_t& s) {
    std::apply([&](typename clause_traits<C>::stored&... x) { (clause_traits<C>::unpack_in(a, x), ...); }, s);
  }
  static void pack_out(out_archive& a, stored_t& s) {
    std::apply([&](typename clause_traits<C>::stored&... x) { (clause_traits<C>::pack_out(a, x), ...); }, s);
  }
  static void unpack_out(in_archive& a, stored_t& s) {
    std::apply([&](typename clause_traits<C>::stored&... x) { (clause_traits<C>::unpack_out(a, x), ...); }, s);
  }
  // The same for a loop piece over the iterations r: a clause whose values
  // depend on them (owned(), per-iteration writes) packs only theirs.
  static void pack_in(out_archive& a, stored_t& s, const iteration_span& r) {
    std::apply([&](typename clause_traits<C>::stored&... x) { (pack_in_one<C>(a, x, r), ...); }, s);
  }
  static void unpack_in(in_archive& a, stored_t& s, const iteration_span& r) {
    std::apply([&](typename clause_traits<C>::stored&... x) { (unpack_in_one<C>(a, x, r), ...); }, s);
  }
  static void pack_out(out_archive& a, stored_t& s, const iteration_span& r) {
    std::apply([&](typename clause_traits<C>::stored&... x) { (pack_out_one<C>(a, x, r), ...); }, s);
  }
  static void unpack_out(in_archive& a, stored_t& s, const iteration_span& r) {
    std::apply([&](typename clause_traits<C>::stored&... x) { (unpack_out_one<C>(a, x, r), ...); }, s);
  }
  // Call f(lead..., params...) with the owner's variables or a task's
  // copies: lead is (ctx) for a part, (ctx, i) for a loop body, and (i) for
  // a leaf loop body, which takes no ctx (loop_site).
  // (Expanded here rather than through std::apply, whose std::__invoke
  // chain GCC leaves as a call per iteration: KQKR's table loops spent a
  // quarter of their time in its prologue and epilogue.)
  template <class F, class... L>
  TASCELL_INLINE static void call(F& f, const clauses_t& cl, L&&... lead) {
    call_each(f, cl, std::index_sequence_for<C...>{}, std::forward<L>(lead)...);
  }
  template <class F, class... L>
  TASCELL_INLINE static void call(F& f, stored_t& st, L&&... lead) {
    call_each(f, st, std::index_sequence_for<C...>{}, std::forward<L>(lead)...);
  }
  template <class F, class Tuple, std::size_t... I, class... L>
  TASCELL_INLINE static void call_each(F& f, Tuple& t, std::index_sequence<I...>, L&&... lead) {
    f(std::forward<L>(lead)..., clause_traits<C>::param(std::get<I>(t))...);
  }
  // The parameter types the body receives, one per clause.
  using params_t = std::tuple<decltype(clause_traits<C>::param(std::declval<const C&>()))...>;
  // Whether F can be called without a ctx.
  template <class F>
  static constexpr bool leaf_body = invocable_with<F, std::tuple<std::int64_t>, params_t, std::tuple<>>::value;
  // Whether F is a block body: it runs the iterations it is given itself,
  // (iterations, params...) (the translator's leaf bodies: the compiler
  // sees a plain loop, as in the sequential program).
  template <class F>
  static constexpr bool block_body = invocable_with<F, std::tuple<iterations>, params_t, std::tuple<>>::value;
};

// One clause's values for a loop piece: by its iterations when the clause
// has a *_range function, else as for any piece.
template <class C> concept by_iterations = requires { &clause_traits<C>::pack_in_range; };
template <class C>
void pack_in_one(out_archive& a, typename clause_traits<C>::stored& s, const iteration_span& r) {
  if constexpr (by_iterations<C>) clause_traits<C>::pack_in_range(a, s, r);
  else clause_traits<C>::pack_in(a, s);
}
template <class C>
void unpack_in_one(in_archive& a, typename clause_traits<C>::stored& s, const iteration_span& r) {
  if constexpr (by_iterations<C>) clause_traits<C>::unpack_in_range(a, s, r);
  else clause_traits<C>::unpack_in(a, s);
}
template <class C>
void pack_out_one(out_archive& a, typename clause_traits<C>::stored& s, const iteration_span& r) {
  if constexpr (by_iterations<C>) clause_traits<C>::pack_out_range(a, s, r);
  else clause_traits<C>::pack_out(a, s);
}
template <class C>
void unpack_out_one(in_archive& a, typename clause_traits<C>::stored& s, const iteration_span& r) {
  if constexpr (by_iterations<C>) clause_traits<C>::unpack_out_range(a, s, r);
  else clause_traits<C>::unpack_out(a, s);
}

template <class Common> struct common_info;
template <class... C> struct common_info<common_t<C...>> : clause_set<C...> {};

template <class P> struct part_info;
template <class F, class... C>
struct part_info<part_t<F, C...>> : clause_set<C...> {
  using fn_t = F;
  static constexpr bool portable = std::is_empty_v<F> && std::is_default_constructible_v<F>;
};

}  // namespace tascell::detail
