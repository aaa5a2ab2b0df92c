// Which busy worker of a process gives work to another process
// (TASCELL_REMOTE_GIVER): the message thread of the asked process chooses
// for a request that came by MPI (network::ask_local), the asking process's
// message thread for one it posts through shared memory (shared_requests).
#pragma once

#include <cstdint>

#include "worker_face.hpp"

namespace tascell::detail::net {

// The index of the worker to ask among n, or -1 when none is eligible.
// at(i) is worker i; eligible(w) says whether w may be asked. With
// `largest`, the eligible worker whose oldest spawn point with work is
// shallowest in the task tree (worker_face::offer_depth: its half of that
// point is the largest piece on offer), ties from `start`; otherwise the
// first eligible one from `start`.
template <class At, class Eligible>
int choose_giver(int n, std::uint64_t start, bool largest, At&& at, Eligible&& eligible) {
  int best = -1;
  std::int32_t best_depth = 0;
  for (int k = 0; k < n; ++k) {
    int i = static_cast<int>((start + static_cast<std::uint64_t>(k)) % static_cast<std::uint64_t>(n));
    worker_face* w = at(i);
    if (!eligible(w)) continue;
    if (!largest) return i;
    std::int32_t d = w->offer_depth.load(std::memory_order_relaxed);
    if (best < 0 || d < best_depth) {
      best = i;
      best_depth = d;
    }
  }
  return best;
}

}  // namespace tascell::detail::net
