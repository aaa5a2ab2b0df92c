// Matmul(n) with oneTBB: the two independent halves as a parallel_invoke,
// the halves of the inner dimension one after the other.
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_invoke.h>

#include <vector>

#include "common/report.hpp"
#include "matmul/matmul-config.hpp"

using matmul_config::base_mult;

static void rec_mult(double* c, const double* a, const double* b, long m, long n, long p, long ld, bool add) {
  if (m + n + p <= matmul_config::base_size) {
    base_mult(c, a, b, m, n, p, ld, add);
  } else if (m >= n && m >= p) {
    long h = m / 2;
    tbb::parallel_invoke([=] { rec_mult(c, a, b, h, n, p, ld, add); },
                         [=] { rec_mult(c + h * ld, a + h * ld, b, m - h, n, p, ld, add); });
  } else if (n >= m && n >= p) {
    long h = n / 2;
    rec_mult(c, a, b, m, h, p, ld, add);
    rec_mult(c, a + h, b + h * ld, m, n - h, p, ld, true);
  } else {
    long h = p / 2;
    tbb::parallel_invoke([=] { rec_mult(c, a, b, m, n, h, ld, add); },
                         [=] { rec_mult(c + h, a, b + h, m, n, p - h, ld, add); });
  }
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, matmul_config::default_n, matmul_config::min_n, matmul_config::max_n);
  matmul_config::make_inputs(args.n);
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism,
                         static_cast<std::size_t>(bench::workers()));
  return bench::run(args, matmul_config::expected(args.n), [](long n) {
    std::vector<double> c(static_cast<std::size_t>(n * n));
    rec_mult(c.data(), matmul_config::a.data(), matmul_config::b.data(), n, n, n, n, false);
    return matmul_config::checksum(c.data(), n);
  });
}
