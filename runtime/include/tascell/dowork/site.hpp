// What every spawn-point site (parts_site, loop_site) has besides its
// clauses: where its priority comes from, the shape its node must have, its
// wire operations when its work can travel, and the life of the point a
// piece of it pushes where it runs. Part of tascell/dowork.hpp.
#pragma once

#include <cstdint>
#include <type_traits>

#include "tascell/chain.hpp"
#include "tascell/detail/entry.hpp"
#include "tascell/dowork/options.hpp"
#include "tascell/poll.hpp"
#include "tascell/wire.hpp"

namespace tascell::detail {

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
// What a site's node kind carries for travel: those operations, or nullptr
// when its work cannot travel (local_only).
template <class Site, bool LocalOnly>
constexpr const wire_ops* wire_of() {
  if constexpr (LocalOnly) return nullptr;
  else return &wire_holder<Site>::ops;
}

// Pushes point p, its other fields written, on the chain under c: its kind
// word last (chain.hpp); returns the ctx above it.
template <class Point>
TASCELL_INLINE ctx push_point(ctx c, Point* p, const node_kind* k) {
  p->kind = kind_word(k, c);
  return after(p + 1);
}

// The life of a point on its worker after it is pushed, the same for the
// owner of a @dowork (exec_from) and for a piece's receiver (run), parts
// and loops alike. work() runs the point's indices under it. Then, when
// done() says that nothing was given away or cancelled (the fast path; the
// owner of parts runs its last part there, as a tail call with the point
// popped), the point ends; otherwise the worker waits for the pieces given
// away from it (join), or stops them when work() threw (unwind), hands them
// to merge(list) and releases them (release() rethrows the first exception
// among them). One copy of the merge per site, shared by the join and the
// unwinding, keeps the owner's frame small, and GCC inlines more of a
// recursion (docs/performance.md). Returns whether every index ran and
// nothing stopped or threw (a piece's `completed`).
template <class Work, class Done, class Merge>
TASCELL_INLINE bool point_life(ctx in, spawn_point& sp, Work&& work, Done&& done, Merge&& merge) {
  task* pieces;
  try {
    work();
  } catch (...) {
    pieces = unwind(in, sp);
    goto merge;
  }
  if (done()) [[likely]]
    return true;
  pieces = join(in, sp);
merge:
  merge(pieces);
  return !release(in, sp);
}

// done() of a point whose fast path has nothing left to run: no slow-path
// state was created for it (nothing given, nothing cancelled).
TASCELL_INLINE bool no_slow_state(ctx in, const spawn_point& sp) { return worker_of(in)->aux_owner != &sp; }

}  // namespace tascell::detail
