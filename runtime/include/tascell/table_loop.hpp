// @dowork for over a table's indices (table.hpp):
//
//   tascell::dowork_for(c, t.indices(), clauses..., body);   // body(i, params...)
//
// The loop runs over positions (table_core.hpp): the body receives the
// index of each. With several processes, a loop over every index starts
// with a point that hands each process its own block of positions (a thief
// of process r gets block r: owner-first), and each block runs as a plain
// loop whose pieces split and travel as usual. A piece that travels carries
// the entries of its positions of every table the body captured that has
// the loop's shape, so its iterations read them where they run (fetched
// from their owner in one message at the first read). A block that its
// owner has not taken when the point's owner reaches it runs where the
// point is, its entries fetched the same way.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "tascell/dowork.hpp"
#include "tascell/table.hpp"

namespace tascell::detail {

template <class T> struct is_table : std::false_type {};
template <class T> struct is_table<table<T>> : std::true_type {};

// What a block of a table loop passes its body for a parameter: a table
// borrowed (table::borrowed), a small trivially copyable input copied, so
// that the compiler sees values of the block's own, which the calls in the
// body cannot change, and keeps them in registers; anything else as it is.
template <class X>
TASCELL_INLINE decltype(auto) block_local(X&& x) {
  using V = std::remove_cvref_t<X>;
  if constexpr (is_table<V>::value) return x.borrowed();
  else if constexpr (std::is_const_v<std::remove_reference_t<X>> && std::is_trivially_copyable_v<V> &&
                     sizeof(V) <= 16)
    return V(x);
  else return std::forward<X>(x);
}

// The user's body, called with the index of a position.
template <class Body>
struct index_body {
  [[no_unique_address]] Body body;
  // A block of positions, for a body that takes no ctx (loop_site's block
  // bodies: the block runs in a function of its own, as a plain loop, so
  // that a loop that mostly skips its positions costs what the sequential
  // loop does). The tables and small inputs the body takes are the block's
  // own (block_local), so they stay in registers across the body's calls.
  // Three loops, each in a function of its own so that the usual one (one
  // process: positions are indices) has no register spent on the others:
  // positions that are a permutation of the indices (hashed, several
  // processes), and the tables' checking mode (detail/table_check.hpp),
  // where the iteration is known while it runs. (A body that takes no ctx
  // always runs in blocks: loop_site's block bodies.)
  template <class... A>
    requires std::is_invocable_v<Body&, std::int64_t, A&&...>
  TASCELL_INLINE void operator()(iterations its, const table_shape& s, A&&... a) {
    auto run = [&](auto&&... local) TASCELL_LAMBDA_INLINE {
      if (tables_checked.load(std::memory_order_relaxed)) [[unlikely]]
        checked_block(its, s, local...);
      else if (s.permuted())
        permuted_block(its, s, local...);
      else
        for (std::int64_t pos = its.first; pos < its.end; ++pos) body(pos, local...);
    };
    run(block_local(a)...);
  }
  template <class... L>
  [[gnu::noinline]] void permuted_block(iterations its, const table_shape& s, L&... local) {
    const table_shape shape = s;
    for (std::int64_t pos = its.first; pos < its.end; ++pos) body(shape.to_index(pos), local...);
  }
  template <class... L>
  [[gnu::noinline]] void checked_block(iterations its, const table_shape& s, L&... local) {
    for (std::int64_t pos = its.first; pos < its.end; ++pos) {
      std::int64_t i = s.to_index(pos);
      check_scope here(s, i);
      body(i, local...);
    }
  }
  template <class... A>
    requires std::is_invocable_v<Body&, ctx, std::int64_t, A&&...>
  TASCELL_INLINE void operator()(ctx c, std::int64_t pos, const table_shape& s, A&&... a) {
    std::int64_t i = s.to_index(pos);
    if (tables_checked.load(std::memory_order_relaxed)) [[unlikely]] {
      check_scope here(s, i);
      body(c, i, std::forward<A>(a)...);
      return;
    }
    body(c, i, std::forward<A>(a)...);
  }
};

// The tables a piece reads where it goes: every captured table of the
// loop's shape, for the positions of its iterations (fetched at the first
// read: table::may_read). Stored values: (shape, the clauses' stored values...).
template <class Body>
struct loop_carry<index_body<Body>> {
  template <class S>
  static void out(out_archive& a, S& stored, std::int64_t lo, std::int64_t hi) {
    const table_shape& shape = std::get<0>(stored);
    std::apply([&](auto&... x) { (out_one(a, x, shape, lo, hi), ...); }, stored);
  }
  template <class S>
  static void in(in_archive& a, S& stored) {
    std::apply([&](auto&... x) { (in_one(a, x), ...); }, stored);
  }

 private:
  template <class X>
  static void out_one(out_archive& a, X& x, const table_shape& shape, std::int64_t lo, std::int64_t hi) {
    if constexpr (is_table<X>::value) {
      std::uint8_t flag = hi > lo && x.shape().same_as(shape) ? 1 : 0;
      a(flag);
      if (flag) a(lo, hi);
    }
  }
  template <class X>
  static void in_one(in_archive& a, X& x) {
    if constexpr (is_table<X>::value) {
      std::uint8_t flag = 0;
      a(flag);
      if (!flag) return;
      std::int64_t lo = 0, hi = 0;
      a(lo, hi);
      if (lo < 0 || hi < lo || hi > x.size()) throw cereal::Exception("carried table entries out of the table's range");
      x.may_read(lo, hi);
    }
  }
};

// A clause as it is, or, for a captured table of the loop's shape, the
// same clause on a copy of the handle that carries the entries [lo, hi).
template <class C>
struct carried_copy {
  using type = std::monostate;
  static type make(const C&, const table_shape&, std::int64_t, std::int64_t) { return {}; }
  static const C& rebind(const C& c, type&) { return c; }
};
template <class T>
struct carried_copy<in_t<table<T>>> {
  using type = std::optional<table<T>>;
  static type make(const in_t<table<T>>& c, const table_shape& shape, std::int64_t lo, std::int64_t hi) {
    if (!c.v.shape().same_as(shape)) return std::nullopt;
    table<T> t = c.v;
    t.may_read(lo, hi);
    return t;
  }
  static in_t<table<T>> rebind(const in_t<table<T>>& c, type& copy) { return copy ? in_t<table<T>>{*copy} : c; }
};

// The point that hands each process its own block (see above).
template <class Body, class... C>
struct table_dispatch {
  using inner = loop_site<no_priority, Body, C...>;
  using cs = clause_set<C...>;
  using body_ptr = typename inner::body_ptr;

  struct point {
    spawn_point sp;  // [next, end): blocks not started (the owner raises next, a thief lowers end)
    std::uint8_t* untaken;  // by rank: that process's block has not started
    const table_shape* shape;
    typename cs::refs_t refs;
    [[no_unique_address]] body_ptr body;
    std::uintptr_t kind;
  };
  static_assert(well_formed_node<point>(), "a @dowork's inputs must be at most 8-aligned");

  static std::int64_t place(spawn_point* sp, int rank) {
    auto* p = reinterpret_cast<point*>(sp);
    if (rank < 0 || rank >= p->shape->procs || rank == p->shape->rank || !p->untaken[rank]) return -1;
    return rank;
  }
  // Block b for its owner: a piece of the block's loop.
  static task* put(spawn_point* sp, std::int64_t b, std::int64_t) {
    auto* p = reinterpret_cast<point*>(sp);
    auto* t = new typename inner::task_t;
    t->first = 0;
    t->step = 1;
    cs::put(p->refs, t->stored);
    if constexpr (!inner::portable) t->body = p->body;
    t->kind = &inner::kind;
    t->lo = p->shape->first_pos(static_cast<int>(b));
    t->hi = p->shape->end_pos(static_cast<int>(b));
    p->untaken[b] = 0;
    --p->sp.end;
    return t;
  }
  [[noreturn]] static void run(ctx, task*) { std::abort(); }  // its pieces are the inner loop's

  static constexpr node_kind kind{node_type::point, sizeof(point), &put, &run, nullptr, inner::local_only,
                                   "dowork for (table blocks)", nullptr, nullptr, inner::wire(), &place};

  // Block r's iterations on this worker; the entries of another process's
  // block are fetched first.
  static void run_block(ctx in, const table_shape& shape, int r, const typename cs::clauses_t& cl, Body& body) {
    range rr(shape.first_pos(r), shape.end_pos(r));
    if (r == shape.rank) {
      inner::exec(in, options<>{}, rr, cl, body);
      return;
    }
    std::int64_t lo = shape.first_pos(r), hi = shape.end_pos(r);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      auto copies = std::make_tuple(carried_copy<C>::make(std::get<I>(cl), shape, lo, hi)...);
      typename cs::clauses_t cl2{carried_copy<C>::rebind(std::get<I>(cl), std::get<I>(copies))...};
      inner::exec(in, options<>{}, rr, cl2, body);
    }(std::index_sequence_for<C...>{});
  }

  static void exec(ctx c, const table_shape& shape, const typename cs::clauses_t& cl, Body& body) {
    const int procs = shape.procs, me = shape.rank;
    std::vector<std::uint8_t> untaken(static_cast<std::size_t>(procs), 0);
    std::int64_t blocks = 0;
    for (int r = 0; r < procs; ++r)
      if (shape.first_pos(r) < shape.end_pos(r)) untaken[static_cast<std::size_t>(r)] = 1, ++blocks;
    if constexpr (!inner::local_only) {
      // Each process whose block waits here hears of it: its next request
      // for work comes here, not to a process that has work of its own block.
      std::vector<int> others;
      for (int r = 0; r < procs; ++r)
        if (r != me && untaken[static_cast<std::size_t>(r)]) others.push_back(r);
      announce_blocks(others);
    }
    auto* p = ::new (free_of(c)) point;
    p->sp = {0, blocks};
    p->untaken = untaken.data();
    p->shape = &shape;
    p->refs = cs::refs(cl);
    if constexpr (!inner::portable) p->body = &body;
    p->kind = kind_word(&kind, c);
    ctx in = after(p + 1);
    task* pieces;
    try {
      // Its own block first, then those nobody took, in rank order after it.
      // Before taking another process's block, wait a little for its owner
      // (a quarter of the time the own block took): it was told where its
      // block is and may be finishing a piece.
      auto started = std::chrono::steady_clock::now();
      std::chrono::steady_clock::time_point patience{};
      for (int k = 0; k < procs && p->sp.next < p->sp.end; ++k) {
        int r = (me + k) % procs;
        if (k > 0) {
          if (patience == std::chrono::steady_clock::time_point{})
            patience = std::chrono::steady_clock::now() + (std::chrono::steady_clock::now() - started) / 4;
          while (untaken[static_cast<std::size_t>(r)] && std::chrono::steady_clock::now() < patience) {
            poll(in);
            __builtin_ia32_pause();
          }
        }
        if (!untaken[static_cast<std::size_t>(r)]) continue;
        untaken[static_cast<std::size_t>(r)] = 0;
        ++p->sp.next;
        if (k > 0) poll(in);
        run_block(in, shape, r, cl, body);
      }
    } catch (...) {
      pieces = unwind(in, p->sp);
      goto merge;
    }
    if (worker_of(c)->aux_owner != &p->sp) return;
    pieces = join(in, p->sp);
  merge:
    {
      auto targets = cs::targets(cl);
      inner::merge_all(targets, pieces);
      release(in, p->sp);
    }
  }
};

template <class Prio, class T, class Body, class... C>
void dowork_table_loop(ctx c, const options<Prio>& o, const index_space<T>& s, const std::tuple<C...>& cl,
                       Body& body) {
  static_assert(!has_priority<Prio>, "a @dowork for over a table's indices takes no priority()");
  const table_shape shape = s.of().shape();
  index_body<Body> ib{body};
  auto all = std::tuple_cat(std::make_tuple(in(shape)), cl);
  using site = loop_site<no_priority, index_body<Body>, in_t<table_shape>, C...>;
  range r(s.from(), s.to());
  if (!o.when) {
    site::exec_serial(c, r, all, ib);
    return;
  }
  bool spans = shape.procs > 1 && s.to() > s.from() && shape.owner_of_pos(s.from()) != shape.owner_of_pos(s.to() - 1);
  if (spans) table_dispatch<index_body<Body>, in_t<table_shape>, C...>::exec(c, shape, all, ib);
  else site::exec(c, options<>{}, r, all, ib);
}

}  // namespace tascell::detail
