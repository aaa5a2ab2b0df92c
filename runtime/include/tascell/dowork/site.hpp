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

// The life of the point a piece pushes on the worker that received it (a
// site's run(), parts and loops alike): work() runs the piece's indices
// under that point; then, as the owner of any @dowork does, the worker
// waits for the pieces it gave away from it (join), or stops them when
// work() threw (unwind), hands them to merge(list) and releases them
// (release() rethrows the first exception among them). Returns whether the
// piece completed: every index ran, nothing stopped or threw.
template <class Work, class Merge>
bool run_piece_point(ctx in, spawn_point& sp, Work&& work, Merge&& merge) {
  try {
    work();
  } catch (...) {
    merge(unwind(in, sp));
    release(in, sp);
    return false;
  }
  if (worker_of(in)->aux_owner != &sp) return true;
  merge(join(in, sp));
  return !release(in, sp);
}

}  // namespace tascell::detail
