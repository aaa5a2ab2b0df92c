// n-queens (count all solutions), sequential baseline: backtracking over rows
// with one int board a[] (a[k] = column of the queen in row k), no cutoff.
#include "common/report.hpp"
#include "nqueens/nqueens-config.hpp"

// Can a queen go in row k, column col, given the queens in rows 0..k-1?
static bool safe(const int* a, int k, int col) {
  for (int j = 0; j < k; ++j) {
    int d = a[j] - col;
    if (d == 0 || d == k - j || d == j - k) return false;
  }
  return true;
}

static long nqueens(int n, int k, int* a) {
  if (k == n) return 1;
  long count = 0;
  for (int i = 0; i < n; ++i) {
    if (safe(a, k, i)) {
      a[k] = i;
      count += nqueens(n, k + 1, a);
      a[k] = -1;
    }
  }
  return count;
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, nqueens_config::default_n, nqueens_config::min_n,
                                nqueens_config::max_n);
  // Sequential: TASCELL_WORKERS is ignored.
  return bench::run(args, nqueens_config::known_answer(args.n), [](long n) {
    int a[nqueens_config::max_n];
    for (int& x : a) x = -1;
    return nqueens(static_cast<int>(n), 0, a);
  });
}
