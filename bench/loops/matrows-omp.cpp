// matrows.tcpp as an OpenMP user writes it.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using matrix = std::vector<std::vector<double>>;

void multiply(const matrix& a, const matrix& b, matrix& c, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) c[i][j] = 0;
    for (int k = 0; k < n; ++k) {
      double aik = a[i][k];
      for (int j = 0; j < n; ++j) c[i][j] += aik * b[k][j];
    }
  }
}

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 700;
  matrix a(n, std::vector<double>(n)), b(n, std::vector<double>(n)), c(n, std::vector<double>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      a[i][j] = (i * 3 + j) % 17;
      b[i][j] = (i + 5 * j) % 13;
    }
#pragma omp parallel  // the thread pool starts at the first parallel region: not timed
  {}
  auto t0 = std::chrono::steady_clock::now();
  multiply(a, b, c, n);
  double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double sum = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) sum += c[i][j] * ((i + j) % 7);
  std::printf("%.10e %.4f\n", sum, t);
}
