// Cancellation of the innermost @dowork, without an exception.
//
// cancel(c): work of the innermost @dowork that has not started is dropped;
// every other running piece of it (on this or another worker, in this or
// another process) is stopped at its next poll; the piece that called
// cancel() runs on until it returns. The @dowork then completes normally:
// reductions combine every update that completed; an output is copied back
// only if the piece that computed it finished.
// cancelled(c): true once the innermost @dowork (or an enclosing piece) is
// stopped or cancelled; lets a long loop without polls notice it. It never
// unwinds: a stopped piece that saw it true still stops at its next poll.
#pragma once

#include "tascell/chain.hpp"
#include "tascell/detail/macros.hpp"

namespace tascell {
TASCELL_NOINLINE void cancel(ctx c);
TASCELL_NOINLINE bool cancelled(ctx c);
}  // namespace tascell
