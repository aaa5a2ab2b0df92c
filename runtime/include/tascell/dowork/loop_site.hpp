// A @dowork for site: its spawn point over iteration numbers, the blocks a
// leaf body runs in between polls (loop_block), what a piece carries, the
// owner's path (exec_from: the fast path), a thief's (run), and the way
// between processes. Part of tascell/dowork.hpp.
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
#include "tascell/dowork/block_value.hpp"
#include "tascell/dowork/clause_set.hpp"
#include "tascell/dowork/site.hpp"
#include "tascell/poll.hpp"
#include "tascell/wire.hpp"

namespace tascell::detail {

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

// A block of a block body's iterations, in a function of its own, so that
// the compiler allocates its registers as for the sequential loop (inlined
// into the loop of blocks, whose poll may call the runtime, a loop keeps
// its constants in memory: decisions.md, "A block runs in a function of
// its own"). One call per block, which runs for about 3 us once the size
// has grown.
//
// The function takes the body's parameters, not where they come from (the
// owner's clauses or a task's copies give the same parameter types), so the
// loop's owner and its pieces run one copy of the block: what the body
// calls then has one call site, as in the sequential program, and the
// compiler inlines it as it does there (with a copy per source, KQKR's move
// generators stayed out of line and its table loops took 1.5 times the
// plain-array solver's time).
//
// A small reduction or out variable is the block's own copy (block_value.hpp).
template <class Body, class... P>
[[gnu::noinline]] void run_block_with(Body& body, iterations its, P&&... p) {
  auto call = [&](auto&&... held) TASCELL_LAMBDA_INLINE {
    body(its, block_param(std::forward<decltype(held)>(held))...);
  };
  call(block_held(std::forward<P>(p))...);
}
template <class CS, class Body, class S>
TASCELL_INLINE void run_block(Body& body, S& s, iterations its) {
  auto go = [&](iterations b, auto&&... p) TASCELL_LAMBDA_INLINE {
    run_block_with(body, b, std::forward<decltype(p)>(p)...);
  };
  CS::call(go, s, its);
}

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
  static constexpr bool block = cs::template block_body<Body>;
  static constexpr bool leaf = block || cs::template leaf_body<Body>;
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
  // splits what follows the block (not the block too: at the end of a loop
  // the two workers would hand each other its last iterations back and
  // forth; decisions.md).
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
        if constexpr (block) run_block<cs>(body, s, iterations{first + k * step, first + lim * step});
        else for (std::int64_t j = k; j < lim; ++j) cs::call(body, s, first + j * step);
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
    t->completed = point_life(
        in, p->sp,
        [&] {
          if constexpr (portable) {
            Body b{};
            iterate(in, p, b, t->stored, t->first, t->step);
          } else {
            iterate(in, p, const_cast<Body&>(*t->body), t->stored, t->first, t->step);
          }
        },
        [&] { return no_slow_state(in, p->sp); }, [&](task* pieces) { merge_all(targets, pieces); });
  }

  // --- between processes ---
  static void pack(task* tt, out_archive& a) {
    (void)wire_id;
    auto* t = static_cast<task_t*>(tt);
    a(t->first, t->step, t->prio_value);
    cs::pack_in(a, t->stored, span_of(t));
    loop_carry<Body>::out(a, t->stored, t->first + t->lo * t->step, t->first + t->hi * t->step);
  }
  static task* unpack(std::int64_t lo, std::int64_t hi, in_archive& a) {
    if (lo < 0 || lo >= hi) throw cereal::Exception("iterations out of range for this @dowork for");
    auto t = std::make_unique<task_t>();
    t->lo = lo;
    t->hi = hi;
    a(t->first, t->step, t->prio_value);
    cs::unpack_in(a, t->stored, span_of(t.get()));
    loop_carry<Body>::in(a, t->stored);
    return t.release();
  }
  static void pack_result(task* tt, out_archive& a) {
    auto* t = static_cast<task_t*>(tt);
    cs::pack_out(a, t->stored, span_of(t));
  }
  static void unpack_result(task* tt, in_archive& a) {
    auto* t = static_cast<task_t*>(tt);
    cs::unpack_out(a, t->stored, span_of(t));
  }
  static iteration_span span_of(const task_t* t) { return {t->first, t->step, t->lo, t->hi}; }
  static constexpr const wire_ops* wire() { return wire_of<loop_site, local_only>(); }

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
    ctx in = push_point(c, p, &kind);
    point_life(in, p->sp,
        [&]() TASCELL_LAMBDA_INLINE {
          if constexpr (!std::is_null_pointer_v<std::remove_cvref_t<First>>) {
            poll(in);
            first(in);
          }
          iterate(in, p, body, cl, r.first, r.step);
        },
        [&]() TASCELL_LAMBDA_INLINE { return no_slow_state(in, p->sp); },
        [&](task* pieces) TASCELL_LAMBDA_INLINE {
          auto targets = cs::targets(cl);
          merge_all(targets, pieces);
        });
  }

  static void exec_serial(ctx c, range r, const typename cs::clauses_t& cl, Body& body) {
    serial_from(c, r, cl, body, 0);
  }
  TASCELL_INLINE static void serial_from(ctx c, range r, const typename cs::clauses_t& cl, Body& body,
                                         std::int64_t from) {
    if constexpr (block) {
      if (from < r.count) cs::call(body, cl, iterations{r.first + from * r.step, r.first + r.count * r.step});
    } else {
      for (std::int64_t k = from; k < r.count; ++k) {
        if constexpr (leaf) cs::call(body, cl, r.first + k * r.step);
        else cs::call(body, cl, c, r.first + k * r.step);
      }
    }
  }
};

}  // namespace tascell::detail
