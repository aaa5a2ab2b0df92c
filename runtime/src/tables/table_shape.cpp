// Where a table's entries live (table_shape, tascell/detail/table_core.hpp):
// the block per process and the hashed permutation, made from the size
// alone (the permutation does not depend on the number of processes, which
// lets a saved table load on any number of them: table_file.hpp).
#include "tascell/detail/table_core.hpp"

namespace tascell::detail {

table_shape::table_shape(std::int64_t size, tascell::spread s, int processes, int my_rank)
    : n(size), procs(processes), rank(my_rank), how(s) {
  block = procs > 0 ? (n + procs - 1) / procs : n;
  if (block == 0) block = 1;
  bits = 2;
  while (bits < 62 && (std::int64_t{1} << bits) < n) ++bits;
  mask = (std::uint64_t{1} << bits) - 1;
  s1 = bits / 2 > 0 ? bits / 2 : 1;
  s2 = (bits + 1) / 2;
  mul = (0x9E3779B97F4A7C15ull & mask) | 1u;
  // The inverse of mul modulo 2^bits (Newton's iteration doubles the
  // correct bits each step).
  std::uint64_t x = mul;
  for (int k = 0; k < 6; ++k) x *= 2 - mul * x;
  inv = x & mask;
  hashed_ = how == tascell::spread::hashed && procs > 1;
}

}  // namespace tascell::detail
