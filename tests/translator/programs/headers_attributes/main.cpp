// The headers program in the attribute spelling: two .cpp files sharing a
// header of [[tascell::task]] prototypes (work.hpp): main.cpp calls the
// functions work.cpp defines, and the one work.hpp defines.
#include <cstdio>
#include <cstdlib>

#include "api.hpp"   // includes work.hpp
#include "work.hpp"  // #pragma once: included once

[[tascell::task]] long both(int n) {
  long a = 0, b = 0;
  [[tascell::dowork]] {
    a = fib(n);
    b = sum_to(scaled(n));
  }
  return a + b;
}

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 20;
  long r = both(n);
  long s = fib_and_sum(n - 1);
  long t = tri(n);
  std::printf("headers(%d): both %ld, fib_and_sum %ld, tri %ld\n", n, r, s, t);
  return 0;
}
