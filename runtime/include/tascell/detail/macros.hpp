// Every macro the runtime uses, in one place.
#pragma once

// Force inlining of the few functions that make up a fast path.
#define TASCELL_INLINE inline __attribute__((always_inline))
// Keep a slow path out of line, so the fast path stays small.
#define TASCELL_NOINLINE __attribute__((noinline))
#define TASCELL_COLD __attribute__((noinline, cold))
