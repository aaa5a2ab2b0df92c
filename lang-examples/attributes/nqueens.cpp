// Nq(n) in the attribute spelling: the same program as ../nqueens.tcpp, and
// standard C++20. Built by tascell++ it runs in parallel; built by a plain
// compiler it is the sequential program:
//   tascell++ -O2 nqueens.cpp -o nqueens && TASCELL_WORKERS=2 ./nqueens 12
//   g++ -std=c++20 -O2 -Wno-attributes -I<install>/include nqueens.cpp -o nqueens-seq
#include <tascell/api.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

bool safe(const int* a, int k, int col) {
  for (int j = 0; j < k; ++j) {
    int d = a[j] - col;
    if (d == 0 || d == k - j || d == j - k) return false;
  }
  return true;
}

[[tascell::task]] long nqueens(int n, int k, int* a) {
  if (k == n) return 1;
  long s = 0;
  [[tascell::dowork(reduction(+: s), copy(a[0:n]))]]
  for (int i = 0; i < n; ++i) {
    if (!safe(a, k, i)) continue;
    TASCELL_WIND(a[k] = i, a[k] = -1) {
      s += nqueens(n, k + 1, a);
    }
  }
  return s;
}

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 10;
  std::vector<int> board(static_cast<std::size_t>(n), -1);
  long r = nqueens(n, 0, board.data());
  std::printf("nqueens(%d) = %ld\n", n, r);
  return 0;
}
