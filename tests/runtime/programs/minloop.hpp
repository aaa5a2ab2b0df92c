// A parallel loop with a min reduction:
//   @dowork reduction(min: best) for (long i = 0; i < n; ++i) best = min(best, f(i));
#pragma once

#include <algorithm>
#include <cstdint>

#include <tascell/tascell.hpp>

namespace programs {

// A cheap pseudo-random value per index, with its minimum somewhere inside.
inline std::int64_t scramble(std::int64_t i) {
  std::uint64_t x = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  return static_cast<std::int64_t>(x % 1'000'000'007ull);
}

inline std::int64_t min_loop(tascell::ctx c, std::int64_t n) {
  std::int64_t best = INT64_MAX;
  tascell::dowork_for(c, tascell::range(0, n), tascell::reduce<tascell::op::min>(best),
                      [](tascell::ctx, std::int64_t i, std::int64_t& best) {
                        best = std::min(best, scramble(i));
                      });
  return best;
}

inline std::int64_t min_loop_serial(std::int64_t n) {
  std::int64_t best = INT64_MAX;
  for (std::int64_t i = 0; i < n; ++i) best = std::min(best, scramble(i));
  return best;
}

}  // namespace programs
