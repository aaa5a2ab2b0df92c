// The runtime library's entry points that the inline templates call on their
// slow paths. Generated code never calls these directly; it calls the
// templates in dowork.hpp, wind.hpp and root.hpp.
#pragma once

#include <cstdint>

#include "tascell/chain.hpp"
#include "tascell/detail/macros.hpp"

namespace tascell::detail {

// Thrown by serve() to unwind a piece of work that was asked to stop
// (cancellation, or an exception elsewhere in its @dowork). `target` is the
// node whose handler ends the unwinding: a spawn point (its @dowork then
// completes normally) or a task boundary (the piece ends, not completed).
// User code must not swallow it; if it does, the next poll throws it again.
struct stop_signal {
  const void* target;  // the start of the node
};

// The slow path of a @dowork's join, in three steps, so that merging happens
// in the @dowork's own frame (inline: no output's address escapes, and the
// compiler keeps the fast path's variables in registers).
//
// join(): when p has slow-path state (pieces given away, or cancelled).
// Waits until every piece given away from p has finished, helping meanwhile
// (steal back from the thief, take other work), and returns the pieces,
// newest first, to be merged. If an older node is being unwound meanwhile,
// stops p's pieces and waits for them: release() rethrows after the merge.
// `c` is the ctx just above p.
TASCELL_NOINLINE task* join(ctx c, spawn_point& p);

// unwind(): called from `catch (...)` around a @dowork's own work. Stops the
// @dowork (drops work not started, tells pieces given away to stop), waits
// for the pieces and returns them to be merged: every update that completed
// counts, also in a piece that was stopped. release() then rethrows, unless
// the @dowork completes normally (the exception was the stop_signal of a
// cancel aimed at p): the first exception of the @dowork, or a stop_signal
// aimed at an older node. Without slow-path state (nothing to merge) it
// rethrows at once. `c` is the ctx just above p.
TASCELL_NOINLINE task* unwind(ctx c, spawn_point& p);

// release(): after the pieces were merged. Frees them and p's slow-path
// state; rethrows what unwind() or join() kept, or the first exception of a
// piece; returns true when the @dowork was cancelled.
TASCELL_NOINLINE bool release(ctx c, spawn_point& p);

// A process-wide serial number for tasks (traces).
std::uint64_t next_task_serial() noexcept;

}  // namespace tascell::detail
