// Problem parameters for n-queens (count all solutions), shared by every
// variant (seq, omp, tbb, tascell). Keep this header free of any parallel
// library.
#pragma once

#include <optional>

namespace nqueens_config {

inline constexpr long default_n = 13;
inline constexpr long min_n = 1;
inline constexpr int max_n = 20;  // board arrays are int[max_n]

struct KnownAnswer {
  long n;
  long answer;
};

// Known answers, checked by the programs (and read by bench/run_matrix.py).
inline constexpr KnownAnswer known_answers[] = {
    {8, 92},
    {10, 724},
    {12, 14200},
    {13, 73712},
    {14, 365596},
};

inline constexpr std::optional<long> known_answer(long n) {
  for (const auto& k : known_answers)
    if (k.n == n) return k.answer;
  return std::nullopt;
}

}  // namespace nqueens_config
