// Align(n) with oneTBB, as the OpenMP version makes its tasks: one
// task_group, a task for each pair (i, j) writing its score into the matrix,
// a wait, then the sum.
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_group.h>

#include <vector>

#include "align/align-config.hpp"
#include "common/report.hpp"

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, align_config::default_n, align_config::min_n, align_config::max_n);
  align_config::make_inputs(args.n);
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism,
                         static_cast<std::size_t>(bench::workers()));
  return bench::run(args, align_config::expected(args.n), [](long n) {
    std::vector<int> scores(static_cast<std::size_t>(n * n), 0);
    int* s = scores.data();
    tbb::task_group g;
    for (long i = 0; i < n; ++i)
      for (long j = i + 1; j < n; ++j) g.run([=] { s[i * n + j] = align_config::pair_score(i, j); });
    g.wait();
    long sum = 0;
    for (long i = 0; i < n; ++i)
      for (long j = i + 1; j < n; ++j) sum += s[i * n + j];
    return sum;
  });
}
