// Problem parameters for fib, shared by every variant (seq, omp, tbb, tascell).
// Keep this header free of any parallel library.
#pragma once

#include <optional>

namespace fib_config {

inline constexpr long default_n = 35;
inline constexpr long min_n = 0;
inline constexpr long max_n = 92;  // fib(92) is the largest that fits in a 64-bit long

struct KnownAnswer {
  long n;
  long answer;
};

// Known answers, checked by the programs (and read by bench/run_matrix.py).
inline constexpr KnownAnswer known_answers[] = {
    {30, 832040},
    {35, 9227465},
    {40, 102334155},
};

inline constexpr std::optional<long> known_answer(long n) {
  for (const auto& k : known_answers)
    if (k.n == n) return k.answer;
  return std::nullopt;
}

}  // namespace fib_config
