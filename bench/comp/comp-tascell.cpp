// Comp(n) on the Tascell++ runtime API, as the translator lowers
//   @task long comp(long n) {
//     long s = 0;
//     @dowork reduction(+: s) for (long i = 0; i < n; ++i) {
//       uint32_t ai = a[i];
//       long t = 0;
//       @dowork reduction(+: t) for (long j = 0; j < n; ++j) t += match(ai, b[j]);
//       s += t;
//     }
//     return s;
//   }
// The arrays a and b are read-only globals (comp_config), built the same way
// by every process before the root call: a piece needs only its range and
// runs in any process. No cutoff.
// The inner body calls no @task function, so it takes no ctx (a leaf body:
// the runtime runs its iterations in blocks between polls, see
// loop_block in tascell/dowork/loop_site.hpp).
// Workers: TASCELL_WORKERS.
#include <cstdint>
#include <vector>

#include <tascell/tascell.hpp>

#include "common/report.hpp"
#include "comp/comp-config.hpp"

static long comp(tascell::ctx c, long n) {
  long s = 0;
  tascell::dowork_for(
      c, tascell::range(0, n), tascell::in(n), tascell::reduce<tascell::op::plus>(s),
      [](tascell::ctx c, std::int64_t i, const long& n, long& s) {
        std::uint32_t ai = comp_config::a[i];
        long t = 0;
        tascell::dowork_for(c, tascell::range(0, n), tascell::in(ai), tascell::reduce<tascell::op::plus>(t),
                            [](std::int64_t j, const std::uint32_t& ai, long& t) {
                              t += comp_config::match(ai, comp_config::b[j]);
                            });
        s += t;
      });
  return s;
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, comp_config::default_n, comp_config::min_n, comp_config::max_n);
  comp_config::make_inputs(args.n);
  return bench::run(args, comp_config::expected(args.n), [&](long n) {
    return tascell::root(comp, n);
  });
}
