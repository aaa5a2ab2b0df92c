// Matmul(n) with oneTBB: the two independent halves as a parallel_invoke,
// the halves of the inner dimension one after the other.
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_invoke.h>

#include <vector>

#include "common/report.hpp"
#include "matmul/matmul-config.hpp"

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, matmul_config::default_n, matmul_config::min_n, matmul_config::max_n);
  matmul_config::make_inputs(args.n);
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism,
                         static_cast<std::size_t>(bench::workers()));
  return bench::run(args, matmul_config::expected(args.n), [](long n) {
    std::vector<double> c(static_cast<std::size_t>(n * n));
    auto both = [](auto&& f, auto&& g) { tbb::parallel_invoke(f, g); };
    matmul_config::rec_mult(c.data(), matmul_config::a.data(), matmul_config::b.data(), n, n, n, n, false, both);
    return matmul_config::checksum(c.data(), n);
  });
}
