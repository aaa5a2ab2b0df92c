// Polls: the only thing a running worker does for the others on its fast path.
#pragma once

#include <vector>

#include "tascell/chain.hpp"
#include "tascell/detail/macros.hpp"

namespace tascell {
namespace detail {

// The part of a worker that generated code may read, at the start of the
// worker's region. The rest (queues, statistics, random state) is private to
// the runtime library, in a type derived from this one.
struct worker {
  // Set non-zero by another worker (release) after it posted a request to
  // this worker or asked one of its pieces of work to stop. Read by the owner
  // at every poll with one relaxed load; the slow path re-reads the details
  // with acquire ordering after clearing it.
  alignas(64) std::atomic<std::uint32_t> attention{0};
  // Owner-only from here on, on another cache line so the other workers'
  // writes to `attention` do not disturb it.
  // The newest spawn point that has slow-path state (pieces given away, a
  // stop request).
  alignas(64) spawn_point* aux_owner = nullptr;
  // Lazy @dowork statements (lazy.hpp): the frames of this worker's stack
  // are returning to the nearest bottom, saving themselves on the way.
  bool lazy_unwinding = false;
  // Updates of a distributed table that this worker sent to other
  // processes and that are not known to be applied yet (table.hpp): the
  // end of the running piece and the next work this worker gives away wait
  // for them (settle_updates, runtime/src/tables/).
  bool unsettled = false;
  // The frames saved by the unwinding in progress, until a bottom takes
  // them (lazy.hpp).
  std::vector<unsigned char> lazy_bytes;
};

// Serves what `attention` announced: requests for work (by temporary
// backtracking from c), stop requests (may throw detail::stop_signal to
// unwind the running piece). Defined in the runtime library.
TASCELL_NOINLINE void serve(ctx c);

}  // namespace detail

// A poll: one relaxed load and a predictable branch when nobody asked.
TASCELL_INLINE void poll(ctx c) {
  if (detail::worker_of(c)->attention.load(std::memory_order_relaxed) != 0) [[unlikely]]
    detail::serve(c);
}

}  // namespace tascell
