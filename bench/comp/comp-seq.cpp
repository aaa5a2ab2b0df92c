// Comp(n), sequential baseline: for every i, for every j, count the pairs
// (a_i, b_j) that match. The tascell variant with the markers erased; no cutoff.
#include <cstdint>
#include <vector>

#include "common/report.hpp"
#include "comp/comp-config.hpp"

static long comp(const std::uint32_t* a, const std::uint32_t* b, long n) {
  long s = 0;
  for (long i = 0; i < n; ++i) {
    std::uint32_t ai = a[i];
    long t = 0;
    for (long j = 0; j < n; ++j) t += comp_config::match(ai, b[j]);
    s += t;
  }
  return s;
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, comp_config::default_n, comp_config::min_n, comp_config::max_n);
  auto a = comp_config::make_array(args.n, comp_config::seed_a);
  auto b = comp_config::make_array(args.n, comp_config::seed_b);
  // Sequential: TASCELL_WORKERS is ignored.
  return bench::run(args, comp_config::expected(args.n, a.data(), b.data()),
                    [&](long n) { return comp(a.data(), b.data(), n); });
}
