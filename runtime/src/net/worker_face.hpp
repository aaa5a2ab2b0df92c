// What other threads touch of a worker: the words of a request for work
// (who asks, the answer, what the asker wants), the hints for victim choice
// and the worker's number. Other workers of the process read and write
// them, and so do the message threads, this process's and, through shared
// memory, those of the machine's other processes (net/shared_requests.hpp
// maps the first page of each worker's region). The message thread's
// stand-ins for thieves in other processes (proxies) are worker_faces and
// nothing more: a victim answers one as it answers a worker of its own.
//
// The rest of a worker (its chains, fibers, statistics, trace) is the
// owner's: worker_face (worker.hpp), which is a worker_face.
#pragma once

#include <atomic>
#include <cstdint>

#include "tascell/chain.hpp"
#include "tascell/poll.hpp"

namespace tascell::detail::net {

struct worker_face : worker {
  // --- touched by other workers and by message threads ---
  // Keep these within the first 4096 bytes of the region (shared with the
  // machine's other processes).
  // The worker that asks this one for work (one at a time; others retry
  // elsewhere). Claimed by compare-and-swap, cleared by the owner.
  alignas(64) std::atomic<worker_face*> requester{nullptr};
  // The answer to this worker's own request: no_reply, refused or a task.
  alignas(64) std::atomic<task*> reply{nullptr};
  // The piece this worker wants help with (steal back), or nullptr for "any
  // work"; written before `requester` is claimed on the victim.
  task* wanted = nullptr;
  // A hint for victim choice: this worker is running work.
  std::atomic<bool> busy{false};
  // Found no work in this process at its last try (the message thread asks
  // another process for work when every worker is hungry).
  std::atomic<bool> hungry{false};
  // A proxy of the message thread for a thief in process remote_rank (>= 0),
  // not a worker thread: it gets no work that must stay in this process.
  // Atomic: a worker may read it through a stale pointer to a proxy that
  // the message thread is reusing (it is >= 0 either way).
  std::atomic<int> remote_rank{-1};
  // A proxy that answers a request the thief posted through shared memory
  // (a standing proxy, net/shared_requests.hpp): the slot it stands in, and
  // a piece for it may go straight to the thief's mailbox
  // (steal_victim::mail_piece); -1 otherwise. Written by the message thread
  // before the proxy is published.
  int post_slot = -1;
  // The depth in the task tree of this worker's oldest spawn point with work
  // that can travel to another process, as of its last hand-over (or the
  // start of its outermost piece): the shallower, the larger the piece it
  // would give. Not updated as points run out (that would cost the fast
  // path), so it may promise more than is left. The message thread gives a
  // request from another process to the busy worker with the smallest
  // (TASCELL_REMOTE_GIVER=largest).
  std::atomic<std::int32_t> offer_depth{0};
  // The worker's number in its process (-1: a proxy). Written once, before
  // the worker runs.
  int id = 0;
};
static_assert(sizeof(worker_face) <= 4096, "the shared words of a worker fit the page other processes map");

// Answers in `reply`.
inline task* const no_reply = nullptr;
inline task* const refused = reinterpret_cast<task*>(std::uintptr_t{1});

}  // namespace tascell::detail::net
