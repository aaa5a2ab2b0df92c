// fib with OpenMP tasks, no cutoff: the textbook form (OpenMP Examples,
// "task" fib): one task per recursive call, shared results, taskwait.
#include <omp.h>

#include "common/report.hpp"
#include "fib/fib-config.hpp"

static long fib(int n) {
  if (n < 2) return n;
  long x, y;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, fib_config::default_n, fib_config::min_n, fib_config::max_n);
  omp_set_num_threads(bench::workers());
  return bench::run(args, fib_config::known_answer(args.n), [](long n) {
    long result = 0;
#pragma omp parallel
#pragma omp single
    result = fib(static_cast<int>(n));
    return result;
  });
}
