// Align(n) with OpenMP tasks, as the BOTS alignment benchmark writes it: one
// thread walks the pairs and makes an untied task for each (i, j), which
// writes its score into the matrix; a taskwait, then the sum. No cutoff.
#include <omp.h>

#include <vector>

#include "align/align-config.hpp"
#include "common/report.hpp"

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, align_config::default_n, align_config::min_n, align_config::max_n);
  align_config::make_inputs(args.n);
  omp_set_num_threads(bench::workers());
  return bench::run(args, align_config::expected(args.n), [](long n) {
    std::vector<int> scores(static_cast<std::size_t>(n * n), 0);
    int* s = scores.data();
#pragma omp parallel
#pragma omp single
    {
      for (long i = 0; i < n; ++i)
        for (long j = i + 1; j < n; ++j) {
#pragma omp task untied firstprivate(i, j)
          s[i * n + j] = align_config::pair_score(i, j);
        }
#pragma omp taskwait
    }
    long sum = 0;
    for (long i = 0; i < n; ++i)
      for (long j = i + 1; j < n; ++j) sum += s[i * n + j];
    return sum;
  });
}
