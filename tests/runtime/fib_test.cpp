#include <gtest/gtest.h>

#include "programs/fib.hpp"
#include "programs/nqueens.hpp"

TEST(Quick, FibAndQueens) {
  EXPECT_EQ(tascell::root(programs::fib, 25), programs::fib_serial(25));
  int a[10];
  for (int& x : a) x = -1;
  EXPECT_EQ(tascell::root(programs::nqueens, 10, 0, a), 724);
}
