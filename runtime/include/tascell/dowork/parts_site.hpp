// A @dowork { part; part; ... } site: its spawn point, what a piece of it
// carries, the owner's path (exec, exec_from: the fast path), a thief's
// (run), and the way between processes (pack/unpack). Part of
// tascell/dowork.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "tascell/chain.hpp"
#include "tascell/detail/entry.hpp"
#include "tascell/dowork/clause_set.hpp"
#include "tascell/dowork/site.hpp"
#include "tascell/poll.hpp"
#include "tascell/wire.hpp"

namespace tascell::detail {

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
    t->completed = point_life(
        in, p->sp,
        [&] {
          // Claim a part before every poll, as the owner does: polling with
          // the whole piece still open would let it be handed on again
          // untouched.
          for (std::int64_t k = p->sp.next; k < p->sp.end; k = p->sp.next) {
            p->sp.next = k + 1;
            poll(in);
            [&]<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE {
              ((k == static_cast<std::int64_t>(I) ? call_thief<I>(t, in) : void()), ...);
            }(std::index_sequence_for<P...>{});
          }
        },
        [&] { return no_slow_state(in, p->sp); }, [&](task* pieces) { merge_all(targets, pieces); });
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
  static constexpr const wire_ops* wire() { return wire_of<parts_site, local_only>(); }

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
    ctx in = push_point(c, p, &kind);
    point_life(in, p->sp,
        [&]() TASCELL_LAMBDA_INLINE {
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
        },
        // Work is given away from the end, so end == N means nothing was
        // given and nothing cancelled (both lower end): the point has no
        // pieces and no slow-path state, and its only work left is the last
        // part. That part runs with the point popped, as a tail call the
        // compiler can turn into a loop, under a `finished` ctx (chain.hpp).
        [&]() TASCELL_LAMBDA_INLINE {
          if (p->sp.end != N) return false;
          call_owner<N - 1>(ps, co, finished(c));
          return true;
        },
        [&](task* pieces) TASCELL_LAMBDA_INLINE {
          auto targets = owner_targets(ps);
          merge_all(targets, pieces);
        });
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

}  // namespace tascell::detail
