// fib on the Tascell++ runtime API (the hand-written program the runtime
// tests also check), no cutoff. Workers: TASCELL_WORKERS.
#include "common/report.hpp"
#include "fib/fib-config.hpp"
#include "programs/fib.hpp"

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, fib_config::default_n, fib_config::min_n, fib_config::max_n);
  return bench::run(args, fib_config::known_answer(args.n),
                    [](long n) { return tascell::root(programs::fib, static_cast<int>(n)); });
}
