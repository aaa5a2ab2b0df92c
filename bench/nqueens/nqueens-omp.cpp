// n-queens (count all solutions) with OpenMP tasks, no cutoff: one task per
// safe placement. As OpenMP users write it (cf. BOTS nqueens): the board is
// shared read-only with the child tasks (it stays alive until the taskwait),
// each task copies it into its own board and places its queen there; per-task
// counts go into a local array that is summed after the taskwait.
#include <omp.h>

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
  long counts[nqueens_config::max_n] = {};
  for (int i = 0; i < n; ++i) {
    if (safe(a.data(), k, i)) {
#pragma omp task firstprivate(i) shared(a, counts)
      {
        Board b = a;  // this task's own copy of the board
        b[k] = i;
        counts[i] = nqueens(n, k + 1, b);
      }
    }
  }
#pragma omp taskwait
  long count = 0;
  for (int i = 0; i < n; ++i) count += counts[i];
  return count;
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, nqueens_config::default_n, nqueens_config::min_n,
                                nqueens_config::max_n);
  omp_set_num_threads(bench::workers());
  return bench::run(args, nqueens_config::known_answer(args.n), [](long n) {
    long result = 0;
    Board a;
    a.fill(-1);
#pragma omp parallel
#pragma omp single
    result = nqueens(static_cast<int>(n), 0, a);
    return result;
  });
}
