// fib, sequential baseline: plain doubly-recursive fib, no cutoff.
#include "common/report.hpp"
#include "fib/fib-config.hpp"

// fib-seq-noinline builds this file with FIB_SEQ_NOINLINE: the same code
// kept from inlining into itself, to show how much of a ratio against
// fib-seq is GCC unrolling the recursion (docs/performance.md).
#ifdef FIB_SEQ_NOINLINE
__attribute__((noinline))
#endif
static long fib(int n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, fib_config::default_n, fib_config::min_n, fib_config::max_n);
  // Sequential: TASCELL_WORKERS is ignored.
  return bench::run(args, fib_config::known_answer(args.n),
                    [](long n) { return fib(static_cast<int>(n)); });
}
