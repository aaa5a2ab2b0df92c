// Comp(n) with OpenMP tasks, no cutoff: the outer loop over i is a taskloop
// with a + reduction, and every iteration runs the loop over j as a nested
// taskloop with its own + reduction, as OpenMP users write nested parallel
// loops with tasks (the grain is libgomp's default: no grainsize clause).
#include <omp.h>

#include <cstdint>
#include <vector>

#include "common/report.hpp"
#include "comp/comp-config.hpp"

static long comp(long n) {
  long s = 0;
#pragma omp taskloop reduction(+ : s)
  for (long i = 0; i < n; ++i) {
    std::uint32_t ai = comp_config::a[i];
    long t = 0;
#pragma omp taskloop reduction(+ : t)
    for (long j = 0; j < n; ++j) t += comp_config::match(ai, comp_config::b[j]);
    s += t;
  }
  return s;
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, comp_config::default_n, comp_config::min_n, comp_config::max_n);
  comp_config::make_inputs(args.n);
  omp_set_num_threads(bench::workers());
  return bench::run(args, comp_config::expected(args.n), [&](long n) {
    long result = 0;
#pragma omp parallel
#pragma omp single
    result = comp(n);
    return result;
  });
}
