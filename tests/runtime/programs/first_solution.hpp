// Search that stops at its first solution, two ways:
//  - cancel(): each level that learns a solution was found cancels its own
//    @dowork; the solution travels back as an output.
//  - an exception: the leaf throws found{board}, which stops everything and
//    reaches the root call (docs/language.md: Tascell's throw/catch).
// The problem: one placement of n queens.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "programs/nqueens.hpp"

namespace programs {

using board = std::array<int, 32>;

inline bool valid_solution(const board& b, int n) {
  for (int r = 0; r < n; ++r)
    if (b[static_cast<std::size_t>(r)] < 0 || b[static_cast<std::size_t>(r)] >= n ||
        !safe(b.data(), r, b[static_cast<std::size_t>(r)]))
      return false;
  return true;
}

inline std::atomic<long> nodes_visited{0};

struct found_reduce {
  bool ok = false;
  board b{};
};

// Returns true and fills `out` when a solution exists below (a, k).
inline bool first_by_cancel(tascell::ctx c, int n, int k, board& a, board& out) {
  nodes_visited.fetch_add(1, std::memory_order_relaxed);
  if (k == n) {
    out = a;
    return true;
  }
  found_reduce f;
  tascell::dowork_for(
      c, tascell::range(0, n), tascell::in(n), tascell::in(k), tascell::in(a),
      tascell::reduce_with(f, found_reduce{},
                           [](const found_reduce& x, const found_reduce& y) { return x.ok ? x : y; }),
      [](tascell::ctx c, std::int64_t i, const int& n, const int& k, const board& a0,
         found_reduce& f) {
        if (f.ok) return;
        int col = static_cast<int>(i);
        if (!safe(a0.data(), k, col)) return;
        board a = a0;
        a[static_cast<std::size_t>(k)] = col;
        board sol{};
        if (first_by_cancel(c, n, k + 1, a, sol)) {
          f.ok = true;
          f.b = sol;
          tascell::cancel(c);
        }
      });
  if (f.ok) out = f.b;
  return f.ok;
}

struct found {
  board b;
};

inline void first_by_throw(tascell::ctx c, int n, int k, int* a) {
  nodes_visited.fetch_add(1, std::memory_order_relaxed);
  if (k == n) {
    found f{};
    for (int r = 0; r < n; ++r) f.b[static_cast<std::size_t>(r)] = a[r];
    throw f;
  }
  tascell::dowork_for(c, tascell::range(0, n), tascell::in(n), tascell::in(k),
                      tascell::copy(a, 0, n),
                      [](tascell::ctx c, std::int64_t i, const int& n, const int& k, int* a) {
                        int col = static_cast<int>(i);
                        if (!safe(a, k, col)) return;
                        tascell::wind(
                            c, [&] { a[k] = col; }, [&] { a[k] = -1; },
                            [&](tascell::ctx c) { first_by_throw(c, n, k + 1, a); });
                      });
}

}  // namespace programs
