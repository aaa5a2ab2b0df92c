// Problem parameters for LU(n): cache-oblivious recursive LU decomposition
// (no pivoting) of an n x n diagonally dominant matrix of doubles, n a power
// of two, in place (row-major, leading dimension n). Shared by every variant
// (seq, omp, tbb, tascell). Keep this header free of any parallel library.
//
// The printed answer is log|det A| in millionths (the sum of log|u_ii|,
// rounded); it is the same in every variant, since every element sees the
// same operations in the same order. After every run the program checks that
// L*U reproduces the matrix with a relative (Frobenius) error below 1e-9.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

namespace lu_config {

inline constexpr long default_n = 512;
inline constexpr long min_n = 1;
inline constexpr long max_n = 4096;

inline bool power_of_two(long n) { return n > 0 && (n & (n - 1)) == 0; }

// Exits with status 2 unless n is a power of two (bench::parse_args checked the range).
inline void require_power_of_two(const char* prog, long n) {
  if (power_of_two(n)) return;
  std::fprintf(stderr, "%s: N=%ld is not a power of two\n", prog, n);
  std::exit(2);
}

// The input: off-diagonal elements pseudo-random in [0, 1), the diagonal n + [0, 1).
inline std::vector<double> make_matrix(long n) {
  std::vector<double> a(static_cast<std::size_t>(n * n));
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      std::uint64_t z = static_cast<std::uint64_t>(i * n + j) * 0x9E3779B97F4A7C15ull + 12345;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      z ^= z >> 31;
      double r = static_cast<double>(z >> 11) * 0x1.0p-53;
      a[static_cast<std::size_t>(i * n + j)] = i == j ? static_cast<double>(n) + r : r;
    }
  return a;
}

// The printed answer: log|det| = sum of log|u_ii|, in millionths.
inline long as_result(const double* lu, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i) s += std::log(std::fabs(lu[i * n + i]));
  return std::lround(s * 1e6);
}

// L*U (L unit lower, U upper, both in lu) against a: relative Frobenius error below 1e-9.
inline bool check(const char* prog, const double* lu, const double* a, long n) {
  double err = 0, norm = 0;
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      // (LU)_ij = sum over k <= min(i, j) of L_ik U_kj, with L_ii = 1.
      long m = i <= j ? i : j + 1;              // the terms with L_ik = lu[i][k]
      double s = i <= j ? lu[i * n + j] : 0.0;  // L_ii U_ij
      for (long k = 0; k < m; ++k) s += lu[i * n + k] * lu[k * n + j];
      double d = s - a[i * n + j];
      err += d * d;
      norm += a[i * n + j] * a[i * n + j];
    }
  double rel = std::sqrt(err / norm);
  if (rel < 1e-9) return true;
  std::fprintf(stderr, "%s: L*U is off the matrix: relative error %g\n", prog, rel);
  return false;
}

struct KnownAnswer {
  long n;
  long answer;
};

// Known answers (computed with lu-seq), checked by the programs and read by
// bench/run_matrix.py.
inline constexpr KnownAnswer known_answers[] = {
    {1, 668281},
    {2, 1828937},
    {64, 266536812},
    {128, 621510029},
    {256, 1419984618},
    {512, 3194422545},
    {1024, 7098222695},
};

inline constexpr std::optional<long> known_answer(long n) {
  for (const auto& k : known_answers)
    if (k.n == n) return k.answer;
  return std::nullopt;
}

}  // namespace lu_config
