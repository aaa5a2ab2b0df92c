// Grav(n) with oneTBB, no cutoff: nested parallel_reduce over blocked ranges
// of x and y (the default auto_partitioner, no grainsize) with the force
// vector as the value, as oneTBB users write nested parallel loops with a
// reduction.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_reduce.h>

#include "common/report.hpp"
#include "grav/grav-config.hpp"

using grav_config::vec3;

static vec3 add(const vec3& a, const vec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }

static vec3 grav(long n, const vec3& p) {
  return tbb::parallel_reduce(
      tbb::blocked_range<long>(-n, n + 1), vec3{0, 0, 0},
      [&](const tbb::blocked_range<long>& ri, vec3 f) {
        for (long i = ri.begin(); i != ri.end(); ++i) {
          f = add(f, tbb::parallel_reduce(
                         tbb::blocked_range<long>(-n, n + 1), vec3{0, 0, 0},
                         [&](const tbb::blocked_range<long>& rj, vec3 g) {
                           for (long j = rj.begin(); j != rj.end(); ++j)
                             grav_config::add_column(i, j, n, p, g.x, g.y, g.z);
                           return g;
                         },
                         add));
        }
        return f;
      },
      add);
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, grav_config::default_n, grav_config::min_n, grav_config::max_n);
  vec3 ref = grav_config::force_serial(args.n), f{};
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism,
                         static_cast<std::size_t>(bench::workers()));
  return bench::run_checked(
      args, grav_config::known_answer(args.n), [](long) {},
      [&](long n) {
        f = grav(n, grav_config::point(n));
        return grav_config::as_result(f);
      },
      [&](long, long) { return grav_config::check(args.prog, f, ref); });
}
