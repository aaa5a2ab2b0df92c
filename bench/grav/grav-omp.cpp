// Grav(n) with OpenMP tasks, no cutoff: the loop over x is a taskloop with +
// reductions of the three components, and every iteration runs the loop over
// y as a nested taskloop with the same reductions, as OpenMP users write
// nested parallel loops with tasks (libgomp's default grain: no grainsize).
#include <omp.h>

#include "common/report.hpp"
#include "grav/grav-config.hpp"

using grav_config::vec3;

static vec3 grav(long n, const vec3& p) {
  double fx = 0, fy = 0, fz = 0;
#pragma omp taskloop reduction(+ : fx, fy, fz)
  for (long i = -n; i <= n; ++i) {
#pragma omp taskloop reduction(+ : fx, fy, fz)
    for (long j = -n; j <= n; ++j) grav_config::add_column(i, j, n, p, fx, fy, fz);
  }
  return {fx, fy, fz};
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, grav_config::default_n, grav_config::min_n, grav_config::max_n);
  vec3 ref = grav_config::force_serial(args.n), f{};
  omp_set_num_threads(bench::workers());
  return bench::run_checked(
      args, grav_config::known_answer(args.n), [](long) {},
      [&](long n) {
        vec3 p = grav_config::point(n);
#pragma omp parallel
#pragma omp single
        f = grav(n, p);
        return grav_config::as_result(f);
      },
      [&](long, long) { return grav_config::check(args.prog, f, ref); });
}
