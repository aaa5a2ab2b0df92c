// Comp(n), sequential baseline: for every i, for every j, count the pairs
// (a_i, b_j) that match. The tascell variant with the markers erased; no cutoff.
#include <cstdint>
#include <vector>

#include "common/report.hpp"
#include "comp/comp-config.hpp"

static long comp(long n) {
  long s = 0;
  for (long i = 0; i < n; ++i) {
    std::uint32_t ai = comp_config::a[i];
    long t = 0;
    for (long j = 0; j < n; ++j) t += comp_config::match(ai, comp_config::b[j]);
    s += t;
  }
  return s;
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, comp_config::default_n, comp_config::min_n, comp_config::max_n);
  comp_config::make_inputs(args.n);
  // Sequential: TASCELL_WORKERS is ignored.
  return bench::run(args, comp_config::expected(args.n),
                    [&](long n) { return comp(n); });
}
