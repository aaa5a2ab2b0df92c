// stencil.tcpp as an OpenMP user writes it.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

void sweep(const std::vector<double>& in, std::vector<double>& out, int n) {
#pragma omp parallel for
  for (int i = 1; i < n - 1; ++i) out[i] = (in[i - 1] + in[i] + in[i + 1]) * (1.0 / 3);
}

double relax(int n, int sweeps) {
  std::vector<double> a(n), b(n);
  for (int i = 0; i < n; ++i) a[i] = b[i] = (i * 7919) % 1000;
  for (int s = 0; s < sweeps; ++s) {
    sweep(a, b, n);
    sweep(b, a, n);
  }
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += a[i] * (i % 5);
  return sum;
}

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 500000, sweeps = argc > 2 ? std::atoi(argv[2]) : 100;
#pragma omp parallel  // the thread pool starts at the first parallel region: not timed
  {}
  auto t0 = std::chrono::steady_clock::now();
  double r = relax(n, sweeps);
  double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%.10e %.4f\n", r, t);
}
