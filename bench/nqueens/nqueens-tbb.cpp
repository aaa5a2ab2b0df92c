// n-queens (count all solutions) with oneTBB task_group, no cutoff: one task
// per safe placement; each task copies the board into its own and places its
// queen there; per-task counts go into a local array summed after wait().
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_group.h>

#include <array>

#include "common/report.hpp"
#include "nqueens/nqueens-config.hpp"

using Board = std::array<int, nqueens_config::max_n>;

static bool safe(const int* a, int k, int col) {
  for (int j = 0; j < k; ++j) {
    int d = a[j] - col;
    if (d == 0 || d == k - j || d == j - k) return false;
  }
  return true;
}

static long nqueens(int n, int k, const Board& a) {
  if (k == n) return 1;
  std::array<long, nqueens_config::max_n> counts{};
  tbb::task_group g;
  for (int i = 0; i < n; ++i) {
    if (safe(a.data(), k, i)) {
      g.run([&a, &counts, n, k, i] {
        Board b = a;  // this task's own copy of the board
        b[k] = i;
        counts[i] = nqueens(n, k + 1, b);
      });
    }
  }
  g.wait();
  long count = 0;
  for (int i = 0; i < n; ++i) count += counts[i];
  return count;
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, nqueens_config::default_n, nqueens_config::min_n,
                                nqueens_config::max_n);
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism,
                         static_cast<std::size_t>(bench::workers()));
  return bench::run(args, nqueens_config::known_answer(args.n), [](long n) {
    Board a;
    a.fill(-1);
    return nqueens(static_cast<int>(n), 0, a);
  });
}
