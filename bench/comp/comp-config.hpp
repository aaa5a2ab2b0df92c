// Problem parameters for Comp(n): count the pairs (a_i, b_j) of two n-element
// arrays that satisfy a predicate. Shared by every variant (seq, omp, tbb,
// tascell). Keep this header free of any parallel library.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace comp_config {

inline constexpr long default_n = 30000;
inline constexpr long min_n = 1;
inline constexpr long max_n = 1000000;

// The predicate on a pair: (a ^ b) % 3 == 0.
inline bool match(std::uint32_t a, std::uint32_t b) { return (a ^ b) % 3 == 0; }

// The inputs: n deterministic pseudo-random 32-bit values (splitmix64 from seed).
inline std::vector<std::uint32_t> make_array(long n, std::uint64_t seed) {
  std::vector<std::uint32_t> v(static_cast<std::size_t>(n));
  std::uint64_t x = seed;
  for (auto& e : v) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    e = static_cast<std::uint32_t>((z ^ (z >> 31)) >> 32);
  }
  return v;
}
inline constexpr std::uint64_t seed_a = 1, seed_b = 2;

// The two arrays, at namespace scope: every variant builds them with
// make_inputs before it times anything, and so does every process of an MPI
// run (SPMD: docs/cluster.md, "Global data"). The loops read them here, not
// through pointers passed down, so a Tascell++ piece of either loop needs
// only its range and can run in any process, as a cluster user would write
// Comp; the other variants read them the same way.
inline std::vector<std::uint32_t> a, b;
inline void make_inputs(long n) {
  a = make_array(n, seed_a);
  b = make_array(n, seed_b);
}

struct KnownAnswer {
  long n;
  long answer;
};

// Known answers (computed with comp-seq), checked by the programs and read by
// bench/run_matrix.py.
inline constexpr KnownAnswer known_answers[] = {
    {1000, 333672},
    {2000, 1333828},
    {10000, 33335656},
    {20000, 133322537},
    {30000, 299996458},
    {40000, 533324492},
};

// The plain double loop (comp-seq), used to check the other variants in-process
// for small n.
inline long count_serial(const std::uint32_t* a, const std::uint32_t* b, long n) {
  long s = 0;
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) s += match(a[i], b[j]);
  return s;
}
inline constexpr long check_serial_max_n = 20000;  // in-process check up to this n

// The expected answer for n (after make_inputs(n)): known, or computed
// here for small n.
inline std::optional<long> expected(long n) {
  for (const auto& k : known_answers)
    if (k.n == n) return k.answer;
  if (n <= check_serial_max_n) return count_serial(a.data(), b.data(), n);
  return std::nullopt;
}

}  // namespace comp_config
