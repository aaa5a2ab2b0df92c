// The [[tascell::task]] functions of the headers program: prototypes (their
// definitions are in work.cpp), one defined here, and ordinary code that
// calls them (root calls).
#pragma once

[[tascell::task]] long fib(int n);
[[tascell::task]] long sum_to(int n);  // 0 + 1 + ... + n

// A [[tascell::task]] function defined in the header (inline, as a function defined in
// a header must be): both .tcpp files use it. tri(n) = 0 + 1 + ... + n.
[[tascell::task]] inline long tri(int n) {
  if (n < 1) return 0;
  long a = 0, b = 0;
  [[tascell::dowork]] {
    a = tri(n - 1);
    b = n;
  }
  return a + b;
}

// Ordinary code calling [[tascell::task]] functions: each call runs as a root task.
inline long fib_and_sum(int n) { return fib(n) + sum_to(n); }
