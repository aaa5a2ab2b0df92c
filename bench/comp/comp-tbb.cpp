// Comp(n) with oneTBB, no cutoff: nested parallel_reduce over blocked ranges
// (the default auto_partitioner, no grainsize), as oneTBB users write nested
// parallel loops with a reduction.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "common/report.hpp"
#include "comp/comp-config.hpp"

static long comp(long n) {
  return tbb::parallel_reduce(
      tbb::blocked_range<long>(0, n), 0L,
      [=](const tbb::blocked_range<long>& ri, long s) {
        for (long i = ri.begin(); i != ri.end(); ++i) {
          std::uint32_t ai = comp_config::a[i];
          s += tbb::parallel_reduce(
              tbb::blocked_range<long>(0, n), 0L,
              [=](const tbb::blocked_range<long>& rj, long t) {
                for (long j = rj.begin(); j != rj.end(); ++j) t += comp_config::match(ai, comp_config::b[j]);
                return t;
              },
              std::plus<long>());
        }
        return s;
      },
      std::plus<long>());
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, comp_config::default_n, comp_config::min_n, comp_config::max_n);
  comp_config::make_inputs(args.n);
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism,
                         static_cast<std::size_t>(bench::workers()));
  return bench::run(args, comp_config::expected(args.n),
                    [&](long n) { return comp(n); });
}
