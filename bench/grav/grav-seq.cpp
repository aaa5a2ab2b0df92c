// Grav(n), sequential baseline: for every x, for every y, add the pull of the
// column of masses (x, y, -n..n). The tascell variant with the markers erased;
// no cutoff.
#include "common/report.hpp"
#include "grav/grav-config.hpp"

using grav_config::vec3;

static vec3 grav(long n, const vec3& p) {
  double fx = 0, fy = 0, fz = 0;
  for (long i = -n; i <= n; ++i)
    for (long j = -n; j <= n; ++j) grav_config::add_column(i, j, n, p, fx, fy, fz);
  return {fx, fy, fz};
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, grav_config::default_n, grav_config::min_n, grav_config::max_n);
  vec3 ref = grav_config::force_serial(args.n), f{};
  // Sequential: TASCELL_WORKERS is ignored.
  return bench::run_checked(
      args, grav_config::known_answer(args.n), [](long) {},
      [&](long n) {
        f = grav(n, grav_config::point(n));
        return grav_config::as_result(f);
      },
      [&](long, long) { return grav_config::check(args.prog, f, ref); });
}
