// Align(n), sequentially: every pair (i, j), i < j, in order.
#include "align/align-config.hpp"
#include "common/report.hpp"

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, align_config::default_n, align_config::min_n, align_config::max_n);
  align_config::make_inputs(args.n);
  return bench::run(args, align_config::expected(args.n), [](long n) {
    long sum = 0;
    for (long i = 0; i < n; ++i)
      for (long j = i + 1; j < n; ++j) sum += align_config::pair_score(i, j);
    return sum;
  });
}
