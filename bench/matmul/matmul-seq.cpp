// Matmul(n), sequentially: Cilk's rec_mult with its spawns as plain calls.
#include <vector>

#include "common/report.hpp"
#include "matmul/matmul-config.hpp"

using matmul_config::base_mult;

static void rec_mult(double* c, const double* a, const double* b, long m, long n, long p, long ld, bool add) {
  if (m + n + p <= matmul_config::base_size) {
    base_mult(c, a, b, m, n, p, ld, add);
  } else if (m >= n && m >= p) {  // split C's (and A's) rows
    long h = m / 2;
    rec_mult(c, a, b, h, n, p, ld, add);
    rec_mult(c + h * ld, a + h * ld, b, m - h, n, p, ld, add);
  } else if (n >= m && n >= p) {  // split the inner dimension: the halves add up
    long h = n / 2;
    rec_mult(c, a, b, m, h, p, ld, add);
    rec_mult(c, a + h, b + h * ld, m, n - h, p, ld, true);
  } else {  // split C's (and B's) columns
    long h = p / 2;
    rec_mult(c, a, b, m, n, h, ld, add);
    rec_mult(c + h, a, b + h, m, n, p - h, ld, add);
  }
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, matmul_config::default_n, matmul_config::min_n, matmul_config::max_n);
  matmul_config::make_inputs(args.n);
  return bench::run(args, matmul_config::expected(args.n), [](long n) {
    std::vector<double> c(static_cast<std::size_t>(n * n));
    rec_mult(c.data(), matmul_config::a.data(), matmul_config::b.data(), n, n, n, n, false);
    return matmul_config::checksum(c.data(), n);
  });
}
