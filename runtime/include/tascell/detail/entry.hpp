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
  node* target;
};

// A @dowork's join when the point has slow-path state (c.w->aux_owner == &p):
// waits for every piece given away from p, helping meanwhile (steal back from
// the thief, take other work), merges each with p.kind->merge(targets, t),
// frees them. Returns true when the @dowork was cancelled. Rethrows the first
// exception of a piece after all pieces have stopped. `c.top` must be &p.
TASCELL_NOINLINE bool join(ctx c, spawn_point& p, void* targets);

// Called from `catch (...)` around a @dowork's own work: stops the @dowork
// (drops work not started, tells pieces given away to stop), waits for the
// pieces, merges what they produced. Returns (true) when the @dowork is to
// complete normally: the exception was the stop_signal of a cancel aimed at
// p. Otherwise rethrows: the first exception of the @dowork, or a stop_signal
// aimed at an older node. `c.top` must be &p.
TASCELL_NOINLINE bool unwind(ctx c, spawn_point& p, void* targets);

// A process-wide serial number for tasks (traces).
std::uint64_t next_task_serial() noexcept;

}  // namespace tascell::detail
