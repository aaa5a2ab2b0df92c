// The @task functions of the headers program: prototypes (their
// definitions are in work.tcpp), one defined here, and ordinary code that
// calls them (root calls).
#pragma once

@task long fib(int n);
@task long sum_to(int n);  // 0 + 1 + ... + n

// A @task function defined in the header (inline, as a function defined in
// a header must be): both .tcpp files use it. tri(n) = 0 + 1 + ... + n.
@task inline long tri(int n) {
  if (n < 1) return 0;
  long a = 0, b = 0;
  @dowork {
    a = tri(n - 1);
    b = n;
  }
  return a + b;
}

// Ordinary code calling @task functions: each call runs as a root task.
inline long fib_and_sum(int n) { return fib(n) + sum_to(n); }
