// Problem parameters for Align(n): the sum of the scores of the best global
// alignments of every pair of n protein sequences, as the BOTS "alignment"
// benchmark aligns them (Gotoh's algorithm with affine gap penalties, every
// pair (i, j) with i < j, each pair independent of the others). The same
// algorithm as lang-examples/align.tcpp. Shared by every variant (seq, omp,
// tcpp). Keep this header free of any parallel library.
//
// The suite reads its sequences from a file; here a seeded generator makes
// them (lengths 100-400 over the 20 amino acids), the same in every process
// of an MPI run, before anything is timed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace align_config {

inline constexpr long default_n = 100;
inline constexpr long min_n = 2;
inline constexpr long max_n = 2000;

inline constexpr int gap_open = 10, gap_extend = 1;
inline constexpr int minus_infinity = -1'000'000'000;

// A fixed substitution score for two of the 20 residues (0..19): a match
// scores by residue, a mismatch is penalised by how far apart the residues'
// classes are (a stand-in for a BLOSUM table, symmetric like one).
inline int substitution(int a, int b) {
  if (a == b) return 4 + a % 5;
  int d = a / 4 - b / 4;
  return -1 - (d < 0 ? -d : d);
}

inline std::vector<std::string> sequences;

inline void make_inputs(long n) {
  std::uint64_t x = 0x2545F4914F6CDD1Dull;
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  sequences.assign(static_cast<std::size_t>(n), std::string());
  for (auto& s : sequences) {
    std::size_t len = 100 + next() % 301;
    for (std::size_t k = 0; k < len; ++k) s.push_back(static_cast<char>(next() % 20));
  }
}

// Gotoh: m ends in a pair of residues, x in a gap in b, y in a gap in a;
// one row of each kept at a time.
inline int align_score(const std::string& a, const std::string& b) {
  std::size_t lb = b.size();
  std::vector<int> m(lb + 1), x(lb + 1), y(lb + 1);
  m[0] = 0;
  x[0] = y[0] = minus_infinity;
  for (std::size_t j = 1; j <= lb; ++j) {
    m[j] = x[j] = minus_infinity;
    y[j] = -gap_open - static_cast<int>(j) * gap_extend;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    int diag_m = m[0], diag_x = x[0], diag_y = y[0];
    m[0] = y[0] = minus_infinity;
    x[0] = -gap_open - static_cast<int>(i) * gap_extend;
    for (std::size_t j = 1; j <= lb; ++j) {
      int up_m = m[j], up_x = x[j], up_y = y[j];
      int best_diag = std::max(diag_m, std::max(diag_x, diag_y));
      m[j] = best_diag == minus_infinity ? minus_infinity : best_diag + substitution(a[i - 1], b[j - 1]);
      x[j] = std::max(std::max(up_m, up_y) - gap_open - gap_extend, up_x - gap_extend);
      y[j] = std::max(std::max(m[j - 1], x[j - 1]) - gap_open - gap_extend, y[j - 1] - gap_extend);
      diag_m = up_m;
      diag_x = up_x;
      diag_y = up_y;
    }
  }
  return std::max(m[lb], std::max(x[lb], y[lb]));
}

// The score of pair (i, j).
inline int pair_score(long i, long j) {
  return align_score(sequences[static_cast<std::size_t>(i)], sequences[static_cast<std::size_t>(j)]);
}

struct KnownAnswer {
  long n;
  long answer;
};

// Known answers (computed with align-seq), checked by the programs and read
// by bench/run_matrix.py.
inline constexpr KnownAnswer known_answers[] = {
    {20, -51755},
    {50, -347283},
    {100, -1379864},
    {200, -5552574},
};

// The expected answer for n (after make_inputs(n)): known, or nothing.
inline std::optional<long> expected(long n) {
  for (const auto& k : known_answers)
    if (k.n == n) return k.answer;
  return std::nullopt;
}

}  // namespace align_config
