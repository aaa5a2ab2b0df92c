// n-queens on the Tascell++ runtime API: one shared board, undone by winds,
// copied only when work is given away. No cutoff. Workers: TASCELL_WORKERS.
#include <vector>

#include "common/report.hpp"
#include "nqueens/nqueens-config.hpp"
#include "programs/nqueens.hpp"

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, nqueens_config::default_n, nqueens_config::min_n,
                                nqueens_config::max_n);
  return bench::run(args, nqueens_config::known_answer(args.n), [](long n) {
    std::vector<int> a(static_cast<std::size_t>(n), -1);
    return tascell::root(programs::nqueens, static_cast<int>(n), 0, a.data());
  });
}
