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
#pragma once

#include <cstdint>
#include <new>
#include <memory>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "tascell/chain.hpp"
#include "tascell/clauses.hpp"
#include "tascell/detail/entry.hpp"
#include "tascell/poll.hpp"
#include "tascell/wire.hpp"

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
  // The trip count of a canonical loop given explicitly.
  static constexpr range of_count(std::int64_t first, std::int64_t count, std::int64_t step) {
    range r(0, 0);
    r.first = first;
    r.count = count < 0 ? 0 : count;
    r.step = step;
    return r;
  }
};

namespace detail {

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
  // Call f(lead..., params...) with the owner's variables or a task's
  // copies: lead is (ctx) for a part, (ctx, i) for a loop body, and (i) for
  // a leaf loop body, which takes no ctx (loop_site).
  template <class F, class... L>
  TASCELL_INLINE static void call(F& f, const clauses_t& cl, L&&... lead) {
    std::apply([&](const C&... x) TASCELL_LAMBDA_INLINE {
      f(std::forward<L>(lead)..., clause_traits<C>::param(x)...);
    }, cl);
  }
  template <class F, class... L>
  TASCELL_INLINE static void call(F& f, stored_t& st, L&&... lead) {
    std::apply([&](typename clause_traits<C>::stored&... x) TASCELL_LAMBDA_INLINE {
      f(std::forward<L>(lead)..., clause_traits<C>::param(x)...);
    }, st);
  }
  // The parameter types the body receives, one per clause.
  using params_t = std::tuple<decltype(clause_traits<C>::param(std::declval<const C&>()))...>;
  // Whether F can be called without a ctx.
  template <class F>
  static constexpr bool leaf_body = invocable_with<F, std::tuple<std::int64_t>, params_t, std::tuple<>>::value;
};

template <class Common> struct common_info;
template <class... C> struct common_info<common_t<C...>> : clause_set<C...> {};

template <class P> struct part_info;
template <class F, class... C>
struct part_info<part_t<F, C...>> : clause_set<C...> {
  using fn_t = F;
  static constexpr bool portable = std::is_empty_v<F> && std::is_default_constructible_v<F>;
};

// Priority: how a point answers "how urgent is your work".
template <class Prio>
struct prio_source {
  const Prio* fn = nullptr;       // the owner's callable
  const std::int64_t* fixed = nullptr;  // a value taken when the work was given away
  std::int64_t get() const { return fixed ? *fixed : static_cast<std::int64_t>((*fn)()); }
};
template <> struct prio_source<no_priority> {
  std::int64_t get() const { return 0; }
};

template <class Prio>
inline constexpr bool has_priority = !std::is_same_v<Prio, no_priority>;

// A node must be 8-aligned and end with its kind word (chain.hpp).
template <class Node>
constexpr bool well_formed_node() {
  return alignof(Node) <= 8 && sizeof(Node) % 8 == 0;
}

// The wire operations of a site whose work can travel, instantiated only
// for such sites (a local_only site may capture values that cannot).
template <class Site>
struct wire_holder {
  static constexpr wire_ops ops{&Site::pack, &Site::unpack, &Site::pack_result, &Site::unpack_result};
};

// ---------------------------------------------------------------- parts ---

template <class Prio, class Common, class... P>
struct parts_site {
  static constexpr std::int64_t N = sizeof...(P);
  using cm = common_info<Common>;
  using parts_t = std::tuple<P...>;
  using refs_t = std::tuple<typename part_info<P>::refs_t...>;
  using stored_t = std::tuple<typename part_info<P>::stored_t...>;
  using targets_t = std::tuple<typename part_info<P>::targets_t...>;
  // Part 0 is always run by the owner; only parts 1..N-1 can travel.
  static constexpr bool portable = []<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE {
    return (true && ... && (I == 0 || part_info<P>::portable));
  }(std::index_sequence_for<P...>{});
  static constexpr bool local_only = !portable || cm::local_only || []<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE {
    return (false || ... || (I != 0 && part_info<P>::local_only));
  }(std::index_sequence_for<P...>{});
  using parts_ptr = std::conditional_t<portable, std::tuple<>, const parts_t*>;

  // The node: [next, end) of part indices, what put needs, the kind word.
  struct point {
    spawn_point sp;
    [[no_unique_address]] typename cm::refs_t common;
    refs_t refs;  // only the entries of parts 1..N-1 are written by the owner
    [[no_unique_address]] parts_ptr parts;
    [[no_unique_address]] prio_source<Prio> prio;
    std::uintptr_t kind;
  };
  static_assert(well_formed_node<point>(), "a @dowork's inputs must be at most 8-aligned");

  struct task_t : task {
    [[no_unique_address]] typename cm::stored_t common{};
    stored_t stored{};
    parts_ptr parts{};
    std::int64_t prio_value = 0;
  };

  // Whether part I takes the common parameters: (ctx, common params...,
  // its own params...) rather than (ctx, its own params...). The
  // translator's part 0, `[&](ctx)`, does not; its other parts do.
  template <std::size_t I>
  static constexpr bool takes_common = []() TASCELL_LAMBDA_INLINE {
    using info = part_info<std::tuple_element_t<I, parts_t>>;
    if constexpr (std::tuple_size_v<typename cm::clauses_t> == 0) return false;
    else return invocable_with<typename info::fn_t, std::tuple<ctx>, typename cm::params_t,
                               typename info::params_t>::value;
  }();

  // Part I's body, with its parameters (and the common ones, if it takes
  // them) from the owner's clauses or from a piece's copies.
  template <std::size_t I, class CS, class OS>
  TASCELL_INLINE static void call_part(typename part_info<std::tuple_element_t<I, parts_t>>::fn_t& f, CS& common,
                                       OS& own, ctx c) {
    using info = part_info<std::tuple_element_t<I, parts_t>>;
    if constexpr (!takes_common<I>) {
      (void)common;
      info::call(f, own, c);
    } else {
      auto with_common = [&](ctx cc, auto&&... cp) TASCELL_LAMBDA_INLINE {
        info::call(f, own, cc, std::forward<decltype(cp)>(cp)...);
      };
      cm::call(with_common, common, c);
    }
  }

  template <std::size_t I>
  TASCELL_INLINE static void call_owner(const parts_t& ps, const Common& co, ctx c) {
    auto& pt = std::get<I>(ps);
    call_part<I>(const_cast<typename part_info<std::tuple_element_t<I, parts_t>>::fn_t&>(pt.fn), co.clauses,
                 pt.clauses, c);
  }

  template <std::size_t I>
  static void call_thief(task_t* t, ctx c) {
    using info = part_info<std::tuple_element_t<I, parts_t>>;
    if constexpr (I == 0) {
      (void)t, (void)c;  // part 0 never travels
    } else if constexpr (portable) {
      typename info::fn_t f{};
      call_part<I>(f, t->common, std::get<I>(t->stored), c);
    } else {
      auto& f = const_cast<typename info::fn_t&>(std::get<I>(*t->parts).fn);
      call_part<I>(f, t->common, std::get<I>(t->stored), c);
    }
  }

  static task* put(spawn_point* sp, std::int64_t lo, std::int64_t hi) {
    auto* p = reinterpret_cast<point*>(sp);
    auto* t = new task_t;
    cm::put(p->common, t->common);
    [&]<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE {
      ((I >= static_cast<std::size_t>(lo) && I < static_cast<std::size_t>(hi)
            ? part_info<P>::put(std::get<I>(p->refs), std::get<I>(t->stored))
            : void()),
       ...);
    }(std::index_sequence_for<P...>{});
    if constexpr (!portable) t->parts = p->parts;
    if constexpr (has_priority<Prio>) t->prio_value = p->prio.get();
    return t;
  }

  // Merges every piece of a finished join into the instance described by tg.
  TASCELL_INLINE static void merge_all(targets_t& tg, task* list) {
    for (task* t = list; t; t = t->next_given) merge(tg, static_cast<task_t*>(t));
  }
  TASCELL_INLINE static void merge(targets_t& tg, task_t* t) {
    [&]<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE {
      ((I >= static_cast<std::size_t>(t->lo) && I < static_cast<std::size_t>(t->hi)
            ? part_info<P>::merge(std::get<I>(tg), std::get<I>(t->stored), t->completed)
            : void()),
       ...);
    }(std::index_sequence_for<P...>{});
  }

  static std::int64_t priority(spawn_point* sp) {
    return reinterpret_cast<point*>(sp)->prio.get();
  }

  // Runs the parts [t->lo, t->hi) on the worker that received them.
  static void run(ctx c, task* tt) {
    auto* t = static_cast<task_t*>(tt);
    prio_source<Prio> prio;
    if constexpr (has_priority<Prio>) prio.fixed = &t->prio_value;
    auto* p = ::new (free_of(c)) point{
        {t->lo, t->hi},
        cm::refs(t->common),
        std::apply([](auto&... s) TASCELL_LAMBDA_INLINE { return refs_t{part_info<P>::refs(s)...}; }, t->stored),
        t->parts, prio, kind_word(&kind, c)};
    ctx in = after(p + 1);
    auto targets = std::apply([](auto&... s) TASCELL_LAMBDA_INLINE { return targets_t{part_info<P>::targets(s)...}; },
                              t->stored);
    try {
      // Claim a part before every poll, as the owner does: polling with the
      // whole piece still open would let it be handed on again untouched.
      for (std::int64_t k = p->sp.next; k < p->sp.end; k = p->sp.next) {
        p->sp.next = k + 1;
        poll(in);
        [&]<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE {
          ((k == static_cast<std::int64_t>(I) ? call_thief<I>(t, in) : void()), ...);
        }(std::index_sequence_for<P...>{});
      }
    } catch (...) {
      merge_all(targets, unwind(in, p->sp));
      release(in, p->sp);
      t->completed = false;
      return;
    }
    if (worker_of(in)->aux_owner == &p->sp) {
      merge_all(targets, join(in, p->sp));
      t->completed = !release(in, p->sp);
    } else {
      t->completed = true;
    }
  }

  // --- between processes ---
  template <class F>
  static void each_part(task_t* t, F&& f) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((I >= static_cast<std::size_t>(t->lo) && I < static_cast<std::size_t>(t->hi)
            ? f(part_info<P>{}, std::get<I>(t->stored))
            : void()),
       ...);
    }(std::index_sequence_for<P...>{});
  }
  static void pack(task* tt, out_archive& a) {
    (void)wire_id;
    auto* t = static_cast<task_t*>(tt);
    cm::pack_in(a, t->common);
    each_part(t, [&](auto info, auto& st) { decltype(info)::pack_in(a, st); });
    a(t->prio_value);
  }
  static task* unpack(std::int64_t lo, std::int64_t hi, in_archive& a) {
    if (lo < 1 || hi > N || lo >= hi) throw cereal::Exception("parts out of range for this @dowork");
    auto t = std::make_unique<task_t>();
    t->lo = lo;
    t->hi = hi;
    cm::unpack_in(a, t->common);
    each_part(t.get(), [&](auto info, auto& st) { decltype(info)::unpack_in(a, st); });
    a(t->prio_value);
    return t.release();
  }
  static void pack_result(task* tt, out_archive& a) {
    auto* t = static_cast<task_t*>(tt);
    each_part(t, [&](auto info, auto& st) { decltype(info)::pack_out(a, st); });
  }
  static void unpack_result(task* tt, in_archive& a) {
    auto* t = static_cast<task_t*>(tt);
    each_part(t, [&](auto info, auto& st) { decltype(info)::unpack_out(a, st); });
  }
  static constexpr const wire_ops* wire() {
    if constexpr (local_only) return nullptr;
    else return &wire_holder<parts_site>::ops;
  }

  static constexpr node_kind kind{node_type::point, sizeof(point), &put, &run,
                                   has_priority<Prio> ? &priority : nullptr,
                                   local_only, "dowork", nullptr, nullptr, wire()};
  static inline const std::uint64_t wire_id = register_kind(&kind, typeid(parts_site).name());

  // The owner's path.
  TASCELL_INLINE static void exec(ctx c, const options<Prio>& o, const Common& co, const parts_t& ps) {
    exec_from(c, o, co, ps, 0, [&](ctx in) TASCELL_LAMBDA_INLINE { call_owner<0>(ps, co, in); });
  }

  // Part `k` run by the owner, without knowing k at compile time.
  TASCELL_INLINE static void call_owner_at(std::int64_t k, const parts_t& ps, const Common& co, ctx c) {
    [&]<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE {
      ((k == static_cast<std::int64_t>(I) ? call_owner<I>(ps, co, c) : void()), ...);
    }(std::index_sequence_for<P...>{});
  }

  // A lazy frame rebuilt (lazy.hpp): the owner is in part `start` (first(c)
  // runs or finishes it) and parts start+1.. have not started. Without work
  // left to give there is no point.
  // With if(false) (`when`), the rest runs as plain code, as exec_serial.
  template <class First>
  static void resume(ctx c, bool when, const Common& co, const parts_t& ps, std::int64_t start, First&& first) {
    if (!when) {
      first(c);
      for (std::int64_t k = start + 1; k < N; ++k) call_owner_at(k, ps, co, c);
      return;
    }
    if (start >= N - 1) {
      first(finished(c));
      return;
    }
    exec_from(c, options<Prio>{}, co, ps, start, first);
  }

  // The point's parts start+1.. can be given away; first(in) is the owner's
  // part `start`, then the owner runs the rest in order (exec: start 0).
  template <class First>
  TASCELL_INLINE static void exec_from(ctx c, const options<Prio>& o, const Common& co, const parts_t& ps,
                                       std::int64_t start, First&& first) {
    prio_source<Prio> prio;
    if constexpr (has_priority<Prio>) prio.fn = &o.priority;
    parts_ptr pp{};
    if constexpr (!portable) pp = &ps;
    // Part 0 never travels: its entry is left unwritten.
    auto* p = ::new (free_of(c)) point;
    p->sp = {start + 1, N};
    p->common = cm::refs(co.clauses);
    [&]<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE {
      ((I > 0 ? (void)(std::get<I>(p->refs) = part_info<P>::refs(std::get<I>(ps).clauses)) : void()),
       ...);
    }(std::index_sequence_for<P...>{});
    if constexpr (!portable) p->parts = pp;
    if constexpr (has_priority<Prio>) p->prio = prio;
    p->kind = kind_word(&kind, c);
    ctx in = after(p + 1);
    task* pieces;
    try {
      poll(in);
      first(in);
      // Parts start+1..N-2 in order, unless given away (then p.end was
      // lowered).
      [&]<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE {
        (void)((static_cast<std::int64_t>(I) + 1 <= start
                    ? true
                    : I + 1 < static_cast<std::size_t>(p->sp.end)
                          ? (p->sp.next = I + 2, call_owner<I + 1>(ps, co, in), true)
                          : false) && ...);
      }(std::make_index_sequence<N - 2>{});
    } catch (...) {
      // unwind() returns the pieces, to be merged whatever happens next
      // (release() rethrows unless the @dowork completes normally). The
      // merge below is shared with the join's: one copy of it per site
      // keeps the frame small, and GCC inlines more of a recursion
      // (docs/performance.md).
      pieces = unwind(in, p->sp);
      goto merge;
    }
    // Work is given away from the end, so end == N means nothing was given
    // and nothing cancelled (both lower end): the point has no pieces and no
    // slow-path state, and its only work left is the last part. That part
    // runs with the point popped, as a tail call the compiler can turn into
    // a loop, under a `finished` ctx (chain.hpp).
    if (p->sp.end == N) [[likely]] {
      call_owner<N - 1>(ps, co, finished(c));
      return;
    }
    pieces = join(in, p->sp);
  merge:
    {
      auto targets = owner_targets(ps);
      merge_all(targets, pieces);
      release(in, p->sp);
    }
  }

  TASCELL_INLINE static targets_t owner_targets(const parts_t& ps) {
    return std::apply([](const P&... x) TASCELL_LAMBDA_INLINE { return targets_t{part_info<P>::targets(x.clauses)...}; },
                      ps);
  }

  // if(false): plain sequential code.
  static void exec_serial(ctx c, const Common& co, const parts_t& ps) {
    [&]<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE { (call_owner<I>(ps, co, c), ...); }(
        std::index_sequence_for<P...>{});
  }
};

template <class T> struct is_options : std::false_type {};
template <class Pr> struct is_options<options<Pr>> : std::true_type {};

// ---------------------------------------------------------------- loops ---

// How many iterations of a leaf loop body (one that takes no ctx, so it
// can neither poll nor reach the runtime) run between two polls of the loop.
// The size starts at 1 and doubles after each block up to 16. From there
// each block is timed with one read of the time-stamp counter (about 27 ns
// on this project's machine, so never for short loops): the size doubles
// while a block takes under 2^13 ticks (about 3 us) and halves when one
// takes over 2^15 (about 12 us). So a cheap body runs in long blocks, where
// the poll and the block's bookkeeping are amortised and the compiler can
// vectorise the block, and an expensive one still polls after nearly every
// iteration. Without a time-stamp counter the size stops at 16.
struct loop_block {
  static constexpr std::int64_t blind = 16;
  static constexpr std::int64_t max = std::int64_t{1} << 20;
  std::int64_t size = 1;
  std::uint64_t t = 0;  // the stamp of the last block's end; 0: not timed yet
  TASCELL_INLINE void next() {
    if (size < blind && t == 0) {
      size *= 2;
      return;
    }
#if defined(__x86_64__) || defined(__i386__)
    std::uint64_t now = __builtin_ia32_rdtsc() | 1;
    std::uint64_t dt = now - t;
    bool first = t == 0;
    t = now;
    if (first) return;
    if (dt < (std::uint64_t{1} << 13)) {
      if (size < max) size *= 2;
    } else if (dt > (std::uint64_t{1} << 15) && size > 1) {
      size /= 2;
    }
#endif
  }
};

// What a piece of a loop carries besides its inputs: nothing, except for a
// loop over a table's indices (table_loop.hpp), whose pieces carry the
// entries their iterations read.
template <class Body>
struct loop_carry {
  template <class S> static void out(out_archive&, S&, std::int64_t, std::int64_t) {}
  template <class S> static void in(in_archive&, S&) {}
};

template <class Prio, class Body, class... C>
struct loop_site {
  using cs = clause_set<C...>;
  // A body that takes no ctx: (i, params...) instead of (ctx, i, params...).
  static constexpr bool leaf = cs::template leaf_body<Body>;
  static constexpr bool portable = std::is_empty_v<Body> && std::is_default_constructible_v<Body>;
  static constexpr bool local_only = !portable || cs::local_only;
  using body_ptr = std::conditional_t<portable, std::tuple<>, const Body*>;

  struct point {
    spawn_point sp;  // [next, end) of iteration numbers k; i = first + k * step
    std::int64_t first, step;
    typename cs::refs_t refs;
    [[no_unique_address]] body_ptr body;
    [[no_unique_address]] prio_source<Prio> prio;
    std::uintptr_t kind;
  };
  static_assert(well_formed_node<point>(), "a @dowork's inputs must be at most 8-aligned");

  struct task_t : task {
    std::int64_t first = 0, step = 1;
    typename cs::stored_t stored{};
    body_ptr body{};
    std::int64_t prio_value = 0;
  };

  static task* put(spawn_point* sp, std::int64_t, std::int64_t) {
    auto* p = reinterpret_cast<point*>(sp);
    auto* t = new task_t;
    t->first = p->first;
    t->step = p->step;
    cs::put(p->refs, t->stored);
    if constexpr (!portable) t->body = p->body;
    if constexpr (has_priority<Prio>) t->prio_value = p->prio.get();
    return t;
  }

  TASCELL_INLINE static void merge_all(typename cs::targets_t& tg, task* list) {
    for (task* t = list; t; t = t->next_given)
      cs::merge(tg, static_cast<task_t*>(t)->stored, t->completed);
  }

  static std::int64_t priority(spawn_point* sp) {
    return reinterpret_cast<point*>(sp)->prio.get();
  }

  // The iterations [p.next, p.end) with the body's parameters taken from S
  // (the owner's clauses or a task's copies).
  // first and step never change: kept in registers, not reloaded from the
  // point after every call.
  //
  // A leaf body (it takes no ctx) runs in blocks (loop_block): the block is
  // claimed (p.next = its end), the loop polls once, and the block runs as
  // a plain loop the compiler can vectorise. Nothing can change the point
  // inside the block, since the body cannot reach the runtime; a request
  // splits what follows the block.
  template <class S>
  TASCELL_INLINE static void iterate(ctx in, point* p, Body& body, S& s, std::int64_t first,
                                     std::int64_t step) {
    if constexpr (leaf) {
      loop_block blk;
      for (std::int64_t k = p->sp.next; k < p->sp.end; k = p->sp.next) {
        const std::int64_t e = p->sp.end;
        const std::int64_t lim = e - k > blk.size ? k + blk.size : e;
        p->sp.next = lim;
        poll(in);
        for (std::int64_t j = k; j < lim; ++j) cs::call(body, s, first + j * step);
        blk.next();
      }
    } else {
      for (std::int64_t k = p->sp.next; k < p->sp.end; k = p->sp.next) {
        p->sp.next = k + 1;
        poll(in);
        cs::call(body, s, in, first + k * step);
      }
    }
  }

  static void run(ctx c, task* tt) {
    auto* t = static_cast<task_t*>(tt);
    prio_source<Prio> prio;
    if constexpr (has_priority<Prio>) prio.fixed = &t->prio_value;
    auto* p = ::new (free_of(c)) point{{t->lo, t->hi}, t->first, t->step, cs::refs(t->stored),
                                       t->body, prio, kind_word(&kind, c)};
    ctx in = after(p + 1);
    auto targets = cs::targets(t->stored);
    try {
      if constexpr (portable) {
        Body b{};
        iterate(in, p, b, t->stored, t->first, t->step);
      } else {
        iterate(in, p, const_cast<Body&>(*t->body), t->stored, t->first, t->step);
      }
    } catch (...) {
      merge_all(targets, unwind(in, p->sp));
      release(in, p->sp);
      t->completed = false;
      return;
    }
    if (worker_of(in)->aux_owner == &p->sp) {
      merge_all(targets, join(in, p->sp));
      t->completed = !release(in, p->sp);
    } else {
      t->completed = true;
    }
  }

  // --- between processes ---
  static void pack(task* tt, out_archive& a) {
    (void)wire_id;
    auto* t = static_cast<task_t*>(tt);
    a(t->first, t->step, t->prio_value);
    cs::pack_in(a, t->stored);
    loop_carry<Body>::out(a, t->stored, t->first + t->lo * t->step, t->first + t->hi * t->step);
  }
  static task* unpack(std::int64_t lo, std::int64_t hi, in_archive& a) {
    if (lo < 0 || lo >= hi) throw cereal::Exception("iterations out of range for this @dowork for");
    auto t = std::make_unique<task_t>();
    t->lo = lo;
    t->hi = hi;
    a(t->first, t->step, t->prio_value);
    cs::unpack_in(a, t->stored);
    loop_carry<Body>::in(a, t->stored);
    return t.release();
  }
  static void pack_result(task* tt, out_archive& a) { cs::pack_out(a, static_cast<task_t*>(tt)->stored); }
  static void unpack_result(task* tt, in_archive& a) {
    cs::unpack_out(a, static_cast<task_t*>(tt)->stored);
  }
  static constexpr const wire_ops* wire() {
    if constexpr (local_only) return nullptr;
    else return &wire_holder<loop_site>::ops;
  }

  static constexpr node_kind kind{node_type::point, sizeof(point), &put, &run,
                                   has_priority<Prio> ? &priority : nullptr,
                                   local_only, "dowork for", nullptr, nullptr, wire()};
  static inline const std::uint64_t wire_id = register_kind(&kind, typeid(loop_site).name());

  TASCELL_INLINE static void exec(ctx c, const options<Prio>& o, range r,
                                  const typename cs::clauses_t& cl, Body& body) {
    exec_from(c, o, r, cl, body, 0, nullptr);
  }

  // A lazy frame rebuilt (lazy.hpp): the owner is in iteration `start`
  // (first(c) finishes it) and the iterations after it have not started;
  // with first = nullptr, iteration `start` has not started either and runs
  // as written. Without work left to give there is no point. With if(false)
  // (`when`), the rest runs as plain code, as exec_serial.
  template <class First>
  static void resume(ctx c, bool when, range r, const typename cs::clauses_t& cl, Body& body,
                     std::int64_t start, First&& first) {
    constexpr bool fresh = std::is_null_pointer_v<std::remove_cvref_t<First>>;
    const std::int64_t from = fresh ? start : start + 1;
    if (!when) {
      if constexpr (!fresh) first(c);
      serial_from(c, r, cl, body, from);
      return;
    }
    if (from >= r.count) {
      if constexpr (!fresh) first(finished(c));
      return;
    }
    exec_from(c, options<Prio>{}, r, cl, body, from, first);
  }

  // Iterations from.. of the loop, from a point; first(in), when it is not
  // nullptr, runs before them (the owner finishing iteration from - 1).
  template <class First>
  TASCELL_INLINE static void exec_from(ctx c, const options<Prio>& o, range r, const typename cs::clauses_t& cl,
                                       Body& body, std::int64_t from, First&& first) {
    prio_source<Prio> prio;
    if constexpr (has_priority<Prio>) prio.fn = &o.priority;
    body_ptr bp{};
    if constexpr (!portable) bp = &body;
    // Field by field, as parts_site::exec does: an aggregate initialisation
    // of the whole point made GCC clear all of it first (`rep stos`) when
    // the clauses hold copy() ranges.
    auto* p = ::new (free_of(c)) point;
    p->sp = {from, r.count};
    p->first = r.first;
    p->step = r.step;
    p->refs = cs::refs(cl);
    if constexpr (!portable) p->body = bp;
    if constexpr (has_priority<Prio>) p->prio = prio;
    p->kind = kind_word(&kind, c);
    ctx in = after(p + 1);
    task* pieces;
    try {
      if constexpr (!std::is_null_pointer_v<std::remove_cvref_t<First>>) {
        poll(in);
        first(in);
      }
      iterate(in, p, body, cl, r.first, r.step);
    } catch (...) {
      pieces = unwind(in, p->sp);  // merged below; release() rethrows unless the loop completes normally
      goto merge;
    }
    if (worker_of(c)->aux_owner != &p->sp) [[likely]] return;
    pieces = join(in, p->sp);
  merge:
    {
      auto targets = cs::targets(cl);
      merge_all(targets, pieces);
      release(in, p->sp);
    }
  }

  static void exec_serial(ctx c, range r, const typename cs::clauses_t& cl, Body& body) {
    serial_from(c, r, cl, body, 0);
  }
  TASCELL_INLINE static void serial_from(ctx c, range r, const typename cs::clauses_t& cl, Body& body,
                                         std::int64_t from) {
    for (std::int64_t k = from; k < r.count; ++k) {
      if constexpr (leaf) cs::call(body, cl, r.first + k * r.step);
      else cs::call(body, cl, c, r.first + k * r.step);
    }
  }
};

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
