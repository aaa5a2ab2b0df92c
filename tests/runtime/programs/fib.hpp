// fib on the runtime API, as the translator lowers
//   @task long fib(int n) { long a, b; @dowork { a = fib(n-1); b = fib(n-2); } return a + b; }
#pragma once

#include <tascell/tascell.hpp>

namespace programs {

inline long fib(tascell::ctx c, int n) {
  if (n < 2) return n;
  long a = 0, b = 0;
  tascell::dowork(c, [&](tascell::ctx c) { a = fib(c, n - 1); },
                  tascell::part(tascell::in(n), tascell::out(b),
                                [](tascell::ctx c, const int& n, long& b) { b = fib(c, n - 2); }));
  return a + b;
}

inline long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

}  // namespace programs
