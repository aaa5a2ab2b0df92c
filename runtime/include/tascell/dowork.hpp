// @dowork on the runtime: parallel parts and parallel loops.
//
//   tascell::dowork(c, part0, part1, ...);
//   tascell::dowork(c, tascell::when(cond), part0, part1, ...);   (or priority(f[, cond]))
//   tascell::dowork_for(c, tascell::range(lo, hi[, step]), clauses..., body);
//   tascell::dowork_for(c, tascell::priority(f), range, clauses..., body);
//
// A part is a callable `f(ctx)` or `tascell::part(clauses..., f)` where f
// receives `(ctx, params...)`, one parameter per clause (clauses.hpp).
// Inputs that several parts after the first read can be given once, before
// part 0, as `tascell::common(in(x), shared(p), ...)`: the point then keeps
// one copy of them instead of one per part, and a part that can take them
// receives `(ctx, common params..., its own params...)` (the translator's
// part 0, `[&](ctx)`, takes only the ctx). The
// body of a loop receives `(ctx, std::int64_t i, params...)`, or
// `(std::int64_t i, params...)` when it calls no @task function and needs
// no ctx (a leaf body: its iterations run in blocks between polls, which the
// compiler can vectorise; see loop_block).
//
// A callable that captures nothing can run on any worker of any process with
// only its parameters; one that captures (by reference) runs in this process
// only, reading the frame it was written in. The translator emits the former.
//
// The fast path (nobody asked for work) of a @dowork with N parts: a spawn
// point of four words plus the inputs of parts 1..N-1 is written into the
// frame, one poll, the parts run in order, and one load at the join.
//
// The pieces, one concept a file (tascell/dowork/): options.hpp (what a
// @dowork is written with), clause_set.hpp (a list of clauses),
// site.hpp (what every site has), parts_site.hpp and loop_site.hpp (the
// two kinds of spawn point); here, the entry points that pick a site.
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tascell/chain.hpp"
#include "tascell/dowork/loop_site.hpp"
#include "tascell/dowork/options.hpp"
#include "tascell/dowork/parts_site.hpp"

namespace tascell {
namespace detail {

template <class T> struct is_options : std::false_type {};
template <class Pr> struct is_options<options<Pr>> : std::true_type {};

template <class Prio, class Common, class... P>
TASCELL_INLINE void dowork_parts(ctx c, const options<Prio>& o, const Common& co, const std::tuple<P...>& ps) {
  using site = parts_site<Prio, Common, P...>;
  if constexpr (sizeof...(P) == 1) {
    site::exec_serial(c, co, ps);
  } else {
    if (!o.when) [[unlikely]] {
      site::exec_serial(c, co, ps);
      return;
    }
    site::exec(c, o, co, ps);
  }
}

template <class T> struct is_common : std::false_type {};
template <class... C> struct is_common<common_t<C...>> : std::true_type {};

template <class Common, class Parts> struct parts_site_of;
template <class Common, class... P> struct parts_site_of<Common, std::tuple<P...>> {
  using type = parts_site<no_priority, Common, P...>;
};

// The arguments of a @dowork, [options,] [common(...),] part0, parts...,
// handed to f(options, common, parts) (dowork, dowork_resume).
template <class F, class First, class... Rest>
TASCELL_INLINE void split_parts(F&& f, First&& first, Rest&&... rest) {
  if constexpr (is_options<std::remove_cvref_t<First>>::value) {
    static_assert(sizeof...(Rest) >= 1, "dowork: the options must be followed by the parts");
    [&](auto&& second, auto&&... more) TASCELL_LAMBDA_INLINE {
      if constexpr (is_common<std::remove_cvref_t<decltype(second)>>::value) {
        static_assert(sizeof...(more) >= 1, "dowork: common(...) must be followed by the parts");
        f(first, second, std::make_tuple(to_part(std::forward<decltype(more)>(more))...));
      } else {
        f(first, common_t<>{},
          std::make_tuple(to_part(std::forward<decltype(second)>(second)), to_part(std::forward<decltype(more)>(more))...));
      }
    }(std::forward<Rest>(rest)...);
  } else {
    split_parts(f, options<>{}, std::forward<First>(first), std::forward<Rest>(rest)...);
  }
}

// What the owner of a rebuilt frame runs first (dowork_resume,
// dowork_for_resume), or nothing: a resume function's cases pass their
// different lambdas as this one type, so that the @dowork they rebuild is
// one site (one kind, one copy of its code), as the eager @dowork's is. It
// refers to the lambda, a temporary of the call it is passed to.
class resume_first {
 public:
  resume_first(std::nullptr_t) {}
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, resume_first> && std::is_invocable_v<F&, ctx>)
  resume_first(F&& f)
      : fn_([](void* o, ctx c) { (*static_cast<std::remove_reference_t<F>*>(o))(c); }),
        obj_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))) {}
  void operator()(ctx c) const { fn_(obj_, c); }
  explicit operator bool() const { return fn_ != nullptr; }

 private:
  void (*fn_)(void*, ctx) = nullptr;
  void* obj_ = nullptr;
};

// Calls f with first, or with nullptr when first is a resume_first that
// holds nothing: the sites' resume() tells the two apart at compile time.
template <class First, class F>
TASCELL_INLINE void with_first(First&& first, F&& f) {
  if constexpr (std::is_same_v<std::remove_cvref_t<First>, resume_first>) {
    if (first) f(first);
    else f(nullptr);
  } else {
    f(first);
  }
}

// A lazy frame rebuilt (lazy.hpp, emitted by the translator's resume
// functions): dowork_resume(c, k, first, [when(cond),] [common(...),]
// part0, parts...). The owner is in part k: first(ctx) finishes it (the
// callee's resume), or, with first = nullptr, part k has not started and
// runs as written. Parts k+1.. can be given away, from a point of the same
// kind as the @dowork's; with a false when(), the rest runs as plain code.
template <class First, class... A>
void dowork_resume(ctx c, std::int64_t k, First&& first, A&&... a) {
  split_parts(
      [&](const auto& o, const auto& co, const auto& ps) {
        static_assert(!has_priority<std::remove_cvref_t<decltype(o.priority)>>, "a lazy @dowork has no priority()");
        using site = typename parts_site_of<std::remove_cvref_t<decltype(co)>, std::remove_cvref_t<decltype(ps)>>::type;
        with_first(first, [&](auto&& f) {
          if constexpr (std::is_null_pointer_v<std::remove_cvref_t<decltype(f)>>)
            site::resume(c, o.when, co, ps, k, [&](ctx in) { site::call_owner_at(k, ps, co, in); });
          else
            site::resume(c, o.when, co, ps, k, f);
        });
      },
      std::forward<A>(a)...);
}

template <class Prio, class Body, class... C>
TASCELL_INLINE void dowork_loop(ctx c, const options<Prio>& o, range r,
                                const std::tuple<C...>& cl, Body& body) {
  using site = loop_site<Prio, Body, C...>;
  if (!o.when) [[unlikely]] {
    site::exec_serial(c, r, cl, body);
    return;
  }
  site::exec(c, o, r, cl, body);
}

// The arguments of a @dowork for, [options,] range, clauses..., body,
// handed to f(options, range, clauses, body) (dowork_for, dowork_for_resume).
template <class F, class First, class... Rest>
TASCELL_INLINE void split_loop(F&& f, First&& first, Rest&&... rest) {
  if constexpr (is_options<std::remove_cvref_t<First>>::value) {
    [&](auto r, auto&&... a) TASCELL_LAMBDA_INLINE {
      auto all = std::forward_as_tuple(std::forward<decltype(a)>(a)...);
      constexpr std::size_t n = sizeof...(a);
      static_assert(n >= 1, "dowork_for needs a body");
      [&]<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE {
        auto cl = std::make_tuple(std::get<I>(all)...);
        f(first, r, cl, std::get<n - 1>(all));
      }(std::make_index_sequence<n - 1>{});
    }(std::forward<Rest>(rest)...);
  } else {
    split_loop(f, options<>{}, std::forward<First>(first), std::forward<Rest>(rest)...);
  }
}

template <class Prio, class Body, class First, class... C>
void dowork_loop_resume(ctx c, const options<Prio>& o, range r, const std::tuple<C...>& cl, Body& body,
                        std::int64_t k, First&& first) {
  static_assert(!has_priority<Prio>, "a lazy @dowork for has no priority()");
  with_first(first, [&](auto&& f) { loop_site<Prio, Body, C...>::resume(c, o.when, r, cl, body, k, f); });
}

// A lazy frame rebuilt in a @dowork for (lazy.hpp, emitted by the
// translator's resume functions): dowork_for_resume(c, k, first,
// [when(cond),] range, clauses..., body), the arguments of dowork_for
// after k and first. The owner is in iteration k (its index in the range,
// from 0): first(ctx) finishes it, or, with first = nullptr, iteration k has
// not started and runs as written. Iterations k+1.. can be given away, from
// a point of the same kind as the loop's; with a false when(), the rest
// runs as plain code.
template <class First, class... A>
void dowork_for_resume(ctx c, std::int64_t k, First&& first, A&&... a) {
  split_loop(
      [&](const auto& o, range r, const auto& cl, auto& body) {
        dowork_loop_resume(c, o, r, cl, body, k, first);
      },
      std::forward<A>(a)...);
}

}  // namespace detail

// @dowork { part; part; ... }: dowork(c, [options,] [common(...),] part0, parts...)
template <class First, class... Rest>
TASCELL_INLINE void dowork(ctx c, First&& first, Rest&&... rest) {
  detail::split_parts(
      [&](const auto& o, const auto& co, const auto& ps) TASCELL_LAMBDA_INLINE { detail::dowork_parts(c, o, co, ps); },
      std::forward<First>(first), std::forward<Rest>(rest)...);
}

namespace detail {
template <class T> struct is_index_space : std::false_type {};
template <class T> struct is_index_space<index_space<T>> : std::true_type {};
// A loop over a table's indices (table_loop.hpp).
template <class Prio, class T, class Body, class... C>
void dowork_table_loop(ctx c, const options<Prio>& o, const index_space<T>& s, const std::tuple<C...>& cl,
                       Body& body);
}  // namespace detail

// @dowork for: dowork_for(c, [options,] range, clauses..., body), or over
// the indices of a table: dowork_for(c, [options,] t.indices(), ...).
template <class First, class... Rest>
TASCELL_INLINE void dowork_for(ctx c, First&& first, Rest&&... rest) {
  detail::split_loop(
      [&](const auto& o, auto r, const auto& cl, auto& body) TASCELL_LAMBDA_INLINE {
        if constexpr (detail::is_index_space<decltype(r)>::value) detail::dowork_table_loop(c, o, r, cl, body);
        else detail::dowork_loop(c, o, range(r), cl, body);
      },
      std::forward<First>(first), std::forward<Rest>(rest)...);
}

}  // namespace tascell

