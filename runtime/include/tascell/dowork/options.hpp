// What a @dowork statement is written with, before any spawn point: its
// options (if(), priority()), its parts (part(clauses..., f)), the inputs
// several parts share (common(...)), and a loop's iteration space (range).
// Part of tascell/dowork.hpp.
#pragma once

#include <cstdint>
#include <ranges>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tascell/clauses.hpp"

namespace tascell {

struct no_priority {};
template <class T> class index_space;

// Statement-level options of a @dowork: `if(cond)` and `priority(expr)`.
// `priority` is a callable returning an integer, evaluated when work is
// given away; the highest is given first, oldest first among equals.
template <class Prio = no_priority>
struct options {
  bool when = true;
  Prio priority{};
};
// if(cond): when false the @dowork runs as plain sequential code.
inline options<> when(bool cond) { return {cond, {}}; }
// priority(f): f() is the priority of the work, evaluated at each hand-over.
template <class Prio>
options<Prio> priority(Prio f, bool cond = true) {
  return {cond, std::move(f)};
}

template <class F, class... C>
struct part_t {
  std::tuple<C...> clauses;
  F fn;
};

// common(in(x), shared(p), ...): inputs read by several parts after the
// first, kept once in the spawn point (and once in a piece) rather than once
// per part. Only in() and shared(): what a part writes stays its own.
template <class... C>
struct common_t {
  std::tuple<C...> clauses;
};
namespace detail {
template <class C> struct common_clause : std::false_type {};
template <class T> struct common_clause<in_t<T>> : std::true_type {};
template <class T> struct common_clause<shared_t<T>> : std::true_type {};
}  // namespace detail
template <class... C>
common_t<std::remove_cvref_t<C>...> common(C&&... c) {
  static_assert((true && ... && detail::common_clause<std::remove_cvref_t<C>>::value),
                "common(...) takes in() and shared() clauses only");
  return {{std::forward<C>(c)...}};
}

// part(clauses..., f): a part whose body receives one parameter per clause.
template <class... A>
auto part(A&&... a) {
  auto all = std::forward_as_tuple(std::forward<A>(a)...);
  constexpr std::size_t n = sizeof...(A);
  return [&]<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE {
    using F = std::remove_cvref_t<std::tuple_element_t<n - 1, std::tuple<A...>>>;
    return part_t<F, std::remove_cvref_t<std::tuple_element_t<I, std::tuple<A...>>>...>{
        {std::get<I>(all)...}, std::get<n - 1>(all)};
  }(std::make_index_sequence<n - 1>{});
}

// The comparison of a canonical loop's condition: i < e, i <= e, i > e, i >= e.
enum class cmp { lt, le, gt, ge };

// An iteration space: iterations k = 0 .. count-1, i = first + k * step.
// The iterations a block body runs (a loop body written as its own loop,
// the translator's form of a leaf body: loop_site): the values from `first`
// up to `end` (not included), by the loop's own step.
struct iterations {
  std::int64_t first, end;
};

struct range {
  std::int64_t first;
  std::int64_t count;
  std::int64_t step;
  // [lo, hi) with the given positive step.
  constexpr range(std::int64_t lo, std::int64_t hi, std::int64_t st = 1)
      : first(lo), count(hi > lo ? (hi - lo + st - 1) / st : 0), step(st) {}
  // The iterations of `for (i = first; i CMP bound; i += step)` (the
  // translator's form of a canonical loop). A step that goes away from the
  // bound gives no iterations.
  static constexpr range canonical(std::int64_t first, std::int64_t bound, std::int64_t step, cmp c) {
    std::int64_t n = 0;
    switch (c) {
      case cmp::lt: n = step > 0 && bound > first ? (bound - first + step - 1) / step : 0; break;
      case cmp::le: n = step > 0 && bound >= first ? (bound - first) / step + 1 : 0; break;
      case cmp::gt: n = step < 0 && first > bound ? (first - bound - step - 1) / -step : 0; break;
      case cmp::ge: n = step < 0 && first >= bound ? (first - bound) / -step + 1 : 0; break;
    }
    return of_count(first, n, step);
  }
  // The positions 0 .. size-1 of a range a @dowork for walks with a range
  // for statement (`@dowork for (auto& x : v)`): split by halves as an
  // index loop is, so it must reach any position at once.
  template <class R> static constexpr range over(R&& r) {
    static_assert(std::ranges::random_access_range<R> && std::ranges::sized_range<R>,
                  "@dowork for (x : r) needs a range with random access and a size (std::vector, std::array, "
                  "std::span, a C array, std::string, std::views::iota(a, b), ...)");
    return of_count(0, static_cast<std::int64_t>(std::ranges::size(r)), 1);
  }
  // The trip count of a canonical loop given explicitly.
  static constexpr range of_count(std::int64_t first, std::int64_t count, std::int64_t step) {
    range r(0, 0);
    r.first = first;
    r.count = count < 0 ? 0 : count;
    r.step = step;
    return r;
  }
};

}  // namespace tascell
