// LU(n) on the Tascell++ runtime API: cache-oblivious recursive LU
// decomposition without pivoting, down to 1x1 blocks (no cutoff), as the
// translator lowers
//   @task void schur(double* m, const double* v, const double* w, long nb, long ld) {
//     ...
//     @dowork { schur(m00, v00, w00); schur(m01, v00, w01); schur(m10, v10, w00); schur(m11, v10, w01); }
//     @dowork { schur(m00, v01, w10); schur(m01, v01, w11); schur(m10, v11, w10); schur(m11, v11, w11); }
//   }
//   @task void lu(double* m, long nb, long ld) {
//     ...
//     lu(m00);
//     @dowork { lower_solve(m01, m00); upper_solve(m10, m00); }
//     schur(m11, m10, m01);
//     lu(m11);
//   }
// (lower_solve and upper_solve split into two independent halves the same
// way). The parts work in place on the one matrix of this process: its
// blocks are passed as shared(p). Workers: TASCELL_WORKERS.
#include <vector>

#include <tascell/tascell.hpp>

#include "common/report.hpp"
#include "lu/lu-config.hpp"

static void schur(tascell::ctx c, double* m, const double* v, const double* w, long nb, long ld);
static void lower_solve(tascell::ctx c, double* m, const double* l, long nb, long ld);
static void upper_solve(tascell::ctx c, double* m, const double* u, long nb, long ld);
static void aux_lower_solve(tascell::ctx c, double* ma, double* mb, const double* l, long h, long ld);
static void aux_upper_solve(tascell::ctx c, double* ma, double* mb, const double* u, long h, long ld);

// The bodies of the parts that may be given away: they capture nothing and
// receive the clauses' values.
inline constexpr auto schur_part = [](tascell::ctx c, double* m, const double* v, const double* w,
                                      const long& h, const long& ld) { schur(c, m, v, w, h, ld); };
inline constexpr auto aux_lower_part = [](tascell::ctx c, double* ma, double* mb, const double* l,
                                          const long& h, const long& ld) {
  aux_lower_solve(c, ma, mb, l, h, ld);
};
inline constexpr auto aux_upper_part = [](tascell::ctx c, double* ma, double* mb, const double* u,
                                          const long& h, const long& ld) {
  aux_upper_solve(c, ma, mb, u, h, ld);
};
inline constexpr auto upper_solve_part = [](tascell::ctx c, double* m, const double* u, const long& h,
                                            const long& ld) { upper_solve(c, m, u, h, ld); };

// m -= v * w
static void schur(tascell::ctx c, double* m, const double* v, const double* w, long nb, long ld) {
  using tascell::in, tascell::part, tascell::shared;
  if (nb == 1) {
    m[0] -= v[0] * w[0];
    return;
  }
  long h = nb / 2, d = h * ld;
  tascell::dowork(c, [&](tascell::ctx c) { schur(c, m, v, w, h, ld); },
                  part(shared(m + h), shared(v), shared(w + h), in(h), in(ld), schur_part),
                  part(shared(m + d), shared(v + d), shared(w), in(h), in(ld), schur_part),
                  part(shared(m + d + h), shared(v + d), shared(w + h), in(h), in(ld), schur_part));
  tascell::dowork(c, [&](tascell::ctx c) { schur(c, m, v + h, w + d, h, ld); },
                  part(shared(m + h), shared(v + h), shared(w + d + h), in(h), in(ld), schur_part),
                  part(shared(m + d), shared(v + d + h), shared(w + d), in(h), in(ld), schur_part),
                  part(shared(m + d + h), shared(v + d + h), shared(w + d + h), in(h), in(ld), schur_part));
}

// m = L^-1 m, L the unit lower triangle of l.
static void aux_lower_solve(tascell::ctx c, double* ma, double* mb, const double* l, long h, long ld) {
  long d = h * ld;
  lower_solve(c, ma, l, h, ld);
  schur(c, mb, l + d, ma, h, ld);
  lower_solve(c, mb, l + d + h, h, ld);
}
static void lower_solve(tascell::ctx c, double* m, const double* l, long nb, long ld) {
  using tascell::in, tascell::part, tascell::shared;
  if (nb == 1) return;
  long h = nb / 2, d = h * ld;
  tascell::dowork(c, [&](tascell::ctx c) { aux_lower_solve(c, m, m + d, l, h, ld); },
                  part(shared(m + h), shared(m + d + h), shared(l), in(h), in(ld), aux_lower_part));
}

// m = m U^-1, U the upper triangle of u.
static void aux_upper_solve(tascell::ctx c, double* ma, double* mb, const double* u, long h, long ld) {
  long d = h * ld;
  upper_solve(c, ma, u, h, ld);
  schur(c, mb, ma, u + h, h, ld);
  upper_solve(c, mb, u + d + h, h, ld);
}
static void upper_solve(tascell::ctx c, double* m, const double* u, long nb, long ld) {
  using tascell::in, tascell::part, tascell::shared;
  if (nb == 1) {
    m[0] /= u[0];
    return;
  }
  long h = nb / 2, d = h * ld;
  tascell::dowork(c, [&](tascell::ctx c) { aux_upper_solve(c, m, m + h, u, h, ld); },
                  part(shared(m + d), shared(m + d + h), shared(u), in(h), in(ld), aux_upper_part));
}

static void lu(tascell::ctx c, double* m, long nb, long ld) {
  using tascell::in, tascell::part, tascell::shared;
  if (nb == 1) return;
  long h = nb / 2, d = h * ld;
  lu(c, m, h, ld);
  tascell::dowork(c, [&](tascell::ctx c) { lower_solve(c, m + h, m, h, ld); },
                  part(shared(m + d), shared(m), in(h), in(ld), upper_solve_part));
  schur(c, m + d + h, m + d, m + h, h, ld);
  lu(c, m + d + h, h, ld);
}

// The root call: the factorisation and its answer. With several processes
// the matrix is factorised in process 0 (the blocks are shared), and the
// answer travels to every process as the root call's result.
static long lu_answer(tascell::ctx c, double* m, long n) {
  lu(c, m, n, n);
  return lu_config::as_result(m, n);
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, lu_config::default_n, lu_config::min_n, lu_config::max_n);
  lu_config::require_power_of_two(args.prog, args.n);
  const std::vector<double> a = lu_config::make_matrix(args.n);
  std::vector<double> m;
  return bench::run_checked(
      args, lu_config::known_answer(args.n), [&](long) { m = a; },
      [&](long n) { return tascell::root(lu_answer, m.data(), n); },
      // Only process 0 holds the factorised matrix.
      [&](long n, long) { return !tascell::is_root() || lu_config::check(args.prog, m.data(), a.data(), n); });
}
