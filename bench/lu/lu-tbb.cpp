// LU(n) with oneTBB: cache-oblivious recursive LU decomposition without
// pivoting, down to 1x1 blocks (no cutoff). The independent calls of each
// step run under tbb::parallel_invoke, as oneTBB users write a fixed set of
// parallel calls.
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_invoke.h>

#include <vector>

#include "common/report.hpp"
#include "lu/lu-config.hpp"

// m -= v * w
static void schur(double* m, const double* v, const double* w, long nb, long ld) {
  if (nb == 1) {
    m[0] -= v[0] * w[0];
    return;
  }
  long h = nb / 2, d = h * ld;
  tbb::parallel_invoke([=] { schur(m, v, w, h, ld); }, [=] { schur(m + h, v, w + h, h, ld); },
                       [=] { schur(m + d, v + d, w, h, ld); }, [=] { schur(m + d + h, v + d, w + h, h, ld); });
  tbb::parallel_invoke([=] { schur(m, v + h, w + d, h, ld); }, [=] { schur(m + h, v + h, w + d + h, h, ld); },
                       [=] { schur(m + d, v + d + h, w + d, h, ld); },
                       [=] { schur(m + d + h, v + d + h, w + d + h, h, ld); });
}

// m = L^-1 m, L the unit lower triangle of l.
static void lower_solve(double* m, const double* l, long nb, long ld);
// The columns ma (upper rows) and mb (lower rows) of a lower solve.
static void aux_lower_solve(double* ma, double* mb, const double* l, long h, long ld) {
  long d = h * ld;
  lower_solve(ma, l, h, ld);
  schur(mb, l + d, ma, h, ld);
  lower_solve(mb, l + d + h, h, ld);
}
static void lower_solve(double* m, const double* l, long nb, long ld) {
  if (nb == 1) return;
  long h = nb / 2, d = h * ld;
  tbb::parallel_invoke([=] { aux_lower_solve(m, m + d, l, h, ld); },
                       [=] { aux_lower_solve(m + h, m + d + h, l, h, ld); });
}

// m = m U^-1, U the upper triangle of u.
static void upper_solve(double* m, const double* u, long nb, long ld);
// The rows ma (left columns) and mb (right columns) of an upper solve.
static void aux_upper_solve(double* ma, double* mb, const double* u, long h, long ld) {
  long d = h * ld;
  upper_solve(ma, u, h, ld);
  schur(mb, ma, u + h, h, ld);
  upper_solve(mb, u + d + h, h, ld);
}
static void upper_solve(double* m, const double* u, long nb, long ld) {
  if (nb == 1) {
    m[0] /= u[0];
    return;
  }
  long h = nb / 2, d = h * ld;
  tbb::parallel_invoke([=] { aux_upper_solve(m, m + h, u, h, ld); },
                       [=] { aux_upper_solve(m + d, m + d + h, u, h, ld); });
}

static void lu(double* m, long nb, long ld) {
  if (nb == 1) return;
  long h = nb / 2, d = h * ld;
  lu(m, h, ld);
  tbb::parallel_invoke([=] { lower_solve(m + h, m, h, ld); }, [=] { upper_solve(m + d, m, h, ld); });
  schur(m + d + h, m + d, m + h, h, ld);
  lu(m + d + h, h, ld);
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, lu_config::default_n, lu_config::min_n, lu_config::max_n);
  lu_config::require_power_of_two(args.prog, args.n);
  const std::vector<double> a = lu_config::make_matrix(args.n);
  std::vector<double> m;
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism,
                         static_cast<std::size_t>(bench::workers()));
  return bench::run_checked(
      args, lu_config::known_answer(args.n), [&](long) { m = a; },
      [&](long n) {
        lu(m.data(), n, n);
        return lu_config::as_result(m.data(), n);
      },
      [&](long n, long) { return lu_config::check(args.prog, m.data(), a.data(), n); });
}
