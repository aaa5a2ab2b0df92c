// Every macro the runtime uses, in one place.
#pragma once

// Force inlining of the few functions that make up a fast path.
#define TASCELL_INLINE inline __attribute__((always_inline))
// Keep a slow path out of line, so the fast path stays small.
#define TASCELL_NOINLINE __attribute__((noinline))
#define TASCELL_COLD __attribute__((noinline, cold))
// The same for a lambda (after its parameter list): the index_sequence folds
// of the templates must disappear, or the variables they reach escape.
#define TASCELL_LAMBDA_INLINE __attribute__((always_inline))
