// Matmul(n) with OpenMP tasks, as Cilk's rec_mult is written with tasks: the
// two halves of C's rows (or columns) are two tasks and a taskwait; the two
// halves of the inner dimension run one after the other. No cutoff besides
// the algorithm's base case.
#include <omp.h>

#include <vector>

#include "common/report.hpp"
#include "matmul/matmul-config.hpp"

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, matmul_config::default_n, matmul_config::min_n, matmul_config::max_n);
  matmul_config::make_inputs(args.n);
  omp_set_num_threads(bench::workers());
  return bench::run(args, matmul_config::expected(args.n), [](long n) {
    std::vector<double> c(static_cast<std::size_t>(n * n));
    auto both = [](auto&& f, auto&& g) {
#pragma omp task
      f();
#pragma omp task
      g();
#pragma omp taskwait
    };
#pragma omp parallel
#pragma omp single
    matmul_config::rec_mult(c.data(), matmul_config::a.data(), matmul_config::b.data(), n, n, n, n, false, both);
    return matmul_config::checksum(c.data(), n);
  });
}
