// Grav(n) on the Tascell++ runtime API, as the translator lowers
//   @task vec3 grav(long n, vec3 p) {
//     double fx = 0, fy = 0, fz = 0;
//     @dowork reduction(+: fx, fy, fz) for (long i = -n; i <= n; ++i)
//       @dowork reduction(+: fx, fy, fz) for (long j = -n; j <= n; ++j)
//         add_column(i, j, n, p, fx, fy, fz);
//     return {fx, fy, fz};
//   }
// The inner body calls no @task function, so it takes no ctx (a leaf body,
// run in timed blocks between polls). No cutoff. Workers: TASCELL_WORKERS.
#include <tascell/tascell.hpp>

#include "common/report.hpp"
#include "grav/grav-config.hpp"

using grav_config::vec3;

static vec3 grav(tascell::ctx c, long n, const vec3& p) {
  double fx = 0, fy = 0, fz = 0;
  tascell::dowork_for(
      c, tascell::range(-n, n + 1), tascell::in(n), tascell::in(p),
      tascell::reduce<tascell::op::plus>(fx), tascell::reduce<tascell::op::plus>(fy),
      tascell::reduce<tascell::op::plus>(fz),
      [](tascell::ctx c, std::int64_t i, const long& n, const vec3& p, double& fx, double& fy, double& fz) {
        tascell::dowork_for(
            c, tascell::range(-n, n + 1), tascell::in(i), tascell::in(n), tascell::in(p),
            tascell::reduce<tascell::op::plus>(fx), tascell::reduce<tascell::op::plus>(fy),
            tascell::reduce<tascell::op::plus>(fz),
            [](std::int64_t j, const std::int64_t& i, const long& n, const vec3& p, double& fx,
               double& fy, double& fz) { grav_config::add_column(i, j, n, p, fx, fy, fz); });
      });
  return {fx, fy, fz};
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, grav_config::default_n, grav_config::min_n, grav_config::max_n);
  vec3 ref = grav_config::force_serial(args.n), f{};
  return bench::run_checked(
      args, grav_config::known_answer(args.n), [](long) {},
      [&](long n) {
        f = tascell::root(grav, n, grav_config::point(n));
        return grav_config::as_result(f);
      },
      [&](long, long) { return grav_config::check(args.prog, f, ref); });
}
