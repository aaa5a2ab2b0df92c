// fib with oneTBB task_group, no cutoff: the form from the oneTBB
// documentation (task_group: run both calls, then wait).
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_group.h>

#include "common/report.hpp"
#include "fib/fib-config.hpp"

static long fib(int n) {
  if (n < 2) return n;
  long x, y;
  tbb::task_group g;
  g.run([&] { x = fib(n - 1); });
  g.run([&] { y = fib(n - 2); });
  g.wait();
  return x + y;
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, fib_config::default_n, fib_config::min_n, fib_config::max_n);
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism,
                         static_cast<std::size_t>(bench::workers()));
  return bench::run(args, fib_config::known_answer(args.n),
                    [](long n) { return fib(static_cast<int>(n)); });
}
