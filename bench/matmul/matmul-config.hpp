// Problem parameters for Matmul(n): C = A * B for n x n matrices by the
// recursive algorithm of Cilk's matmul example (rec_mult: split the largest
// of the three dimensions in two; the halves of C's rows or columns are
// independent, the halves of the inner dimension add into the same C one
// after the other; below m + n + p <= 64 a plain triple loop). Shared by
// every variant (seq, omp, tbb, tcpp). Keep this header free of any
// parallel library.
//
// The entries are small integers, so every product and sum is exact in a
// double and the answer, a hash of C's entries, is one that every variant
// must reproduce exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace matmul_config {

inline constexpr long default_n = 1024;
inline constexpr long min_n = 1;
inline constexpr long max_n = 4096;

// The inputs, row-major, at namespace scope: every variant (and every
// process of an MPI run) builds them before anything is timed.
inline std::vector<double> a, b;
inline void make_inputs(long n) {
  a.assign(static_cast<std::size_t>(n * n), 0.0);
  b.assign(static_cast<std::size_t>(n * n), 0.0);
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      a[static_cast<std::size_t>(i * n + j)] = static_cast<double>((i * 7 + j * 3) % 10 - 4);
      b[static_cast<std::size_t>(i * n + j)] = static_cast<double>((i * 5 + j * 11) % 9 - 4);
    }
}

// The elements of an m x p block at `x` with leading dimension ld span
// (m - 1) * ld + p elements of memory.
inline long span(long m, long p, long ld) { return m == 0 || p == 0 ? 0 : (m - 1) * ld + p; }

// C (+)= A * B for an m x n block of A, an n x p block of B and an m x p
// block of C, all with leading dimension ld: the base case.
inline void base_mult(double* c, const double* a_, const double* b_, long m, long n, long p, long ld, bool add) {
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < p; ++j) {
      double s = add ? c[i * ld + j] : 0.0;
      for (long k = 0; k < n; ++k) s += a_[i * ld + k] * b_[k * ld + j];
      c[i * ld + j] = s;
    }
}
inline constexpr long base_size = 64;  // m + n + p at or below: the base case

// Cilk's rec_mult: C (+)= A * B, splitting the largest dimension in two.
// The halves of C's rows or columns are independent: both(f, g) runs f()
// and g() (one after the other, or in parallel as the variant does it) and
// returns when both have finished. The halves of the inner dimension add
// into the same C one after the other. (The translated variant writes the
// same recursion with a @dowork: matmul-tcpp.tcpp.)
template <class Both>
void rec_mult(double* c, const double* a_, const double* b_, long m, long n, long p, long ld, bool add, Both& both) {
  if (m + n + p <= base_size) {
    base_mult(c, a_, b_, m, n, p, ld, add);
  } else if (m >= n && m >= p) {  // split C's (and A's) rows
    long h = m / 2;
    both([&] { rec_mult(c, a_, b_, h, n, p, ld, add, both); },
         [&] { rec_mult(c + h * ld, a_ + h * ld, b_, m - h, n, p, ld, add, both); });
  } else if (n >= m && n >= p) {  // split the inner dimension: the halves add up
    long h = n / 2;
    rec_mult(c, a_, b_, m, h, p, ld, add, both);
    rec_mult(c, a_ + h, b_ + h * ld, m, n - h, p, ld, true, both);
  } else {  // split C's (and B's) columns
    long h = p / 2;
    both([&] { rec_mult(c, a_, b_, m, n, h, ld, add, both); },
         [&] { rec_mult(c + h, a_, b_ + h, m, n, p - h, ld, add, both); });
  }
}

// The answer: C's entries (exact integers) hashed in row-major order,
// s = s * 1000003 + C[i][j] modulo 2^64, kept to 62 bits.
inline long checksum(const double* c, long n) {
  std::uint64_t s = 0;
  for (long i = 0; i < n * n; ++i) s = s * 1000003u + static_cast<std::uint64_t>(static_cast<std::int64_t>(c[i]));
  return static_cast<long>(s >> 2);
}

struct KnownAnswer {
  long n;
  long answer;
};

// Known answers (computed with matmul-seq), checked by the programs and read
// by bench/run_matrix.py.
inline constexpr KnownAnswer known_answers[] = {
    {64, 52263541457253699},
    {100, 545394804261335056},
    {256, 1484950720395143038},
    {512, 2700257083063969128},
    {1024, 1214012571711535922},
};

inline std::optional<long> expected(long n) {
  for (const auto& k : known_answers)
    if (k.n == n) return k.answer;
  return std::nullopt;
}

}  // namespace matmul_config
