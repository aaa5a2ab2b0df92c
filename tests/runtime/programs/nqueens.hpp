// n-queens with one shared board undone by winds, as the translator lowers
//   @task long nqueens(int n, int k, int* a) {
//     if (k == n) return 1;
//     long s = 0;
//     @dowork reduction(+: s) copy(a[0:n])
//     for (int i = 0; i < n; ++i)
//       if (safe(a, k, i))
//         @wind(a[k] = i, a[k] = -1) { s += nqueens(n, k + 1, a); }
// (The wind closures capture by value: a, k and col do not change inside the
// wind, and then nothing of the frame has to live in memory.)
//     return s;
//   }
#pragma once

#include <tascell/tascell.hpp>

namespace programs {

// Can a queen go in row k, column col, given the queens in rows 0..k-1?
// (The same code as bench/nqueens/nqueens-seq.cpp: that is this program with
// the markers erased.)
inline bool safe(const int* a, int k, int col) {
  for (int j = 0; j < k; ++j) {
    int d = a[j] - col;
    if (d == 0 || d == k - j || d == j - k) return false;
  }
  return true;
}

inline long nqueens(tascell::ctx c, int n, int k, int* a) {
  if (k == n) return 1;
  long s = 0;
  tascell::dowork_for(
      c, tascell::range(0, n), tascell::in(n), tascell::in(k), tascell::copy(a, 0, n),
      tascell::reduce<tascell::op::plus>(s),
      [](tascell::ctx c, std::int64_t i, const int& n, const int& k, int* a, long& s) {
        int col = static_cast<int>(i);
        if (!safe(a, k, col)) return;
        tascell::wind(
            c, [=] { a[k] = col; }, [=] { a[k] = -1; },
            [&](tascell::ctx c) { s += nqueens(c, n, k + 1, a); });
      });
  return s;
}

inline long nqueens_serial(int n, int k, int* a) {
  if (k == n) return 1;
  long s = 0;
  for (int i = 0; i < n; ++i)
    if (safe(a, k, i)) {
      a[k] = i;
      s += nqueens_serial(n, k + 1, a);
      a[k] = -1;
    }
  return s;
}

}  // namespace programs
