// Definitions of the prototypes of work.hpp.
#include "work.hpp"

[[tascell::task]] long fib(int n) {
  if (n < 2) return n;
  long a = 0, b = 0;
  [[tascell::dowork]] {
    a = fib(n - 1);
    b = fib(n - 2);
  }
  return a + b;
}

[[tascell::task]] long sum_to(int n) {
  if (n < 100) return tri(n);  // work.hpp's
  long s = 0;
  [[tascell::dowork(reduction(+: s))]]
  for (int i = 0; i <= n; ++i) s += i;
  return s;
}
