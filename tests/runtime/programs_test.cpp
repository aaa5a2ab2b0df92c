// The hand-written programs against their sequential versions, with the
// worker count and victim choice of this run (ctest runs this binary with
// TASCELL_WORKERS=1,2,3,8 and TASCELL_VICTIM=loaded,random).
#include <gtest/gtest.h>

#include <vector>

#include "programs/fib.hpp"
#include "programs/first_solution.hpp"
#include "programs/knapsack.hpp"
#include "programs/minloop.hpp"
#include "programs/nqueens.hpp"
#include "test_env.hpp"

namespace {

long queens(int n) {
  std::vector<int> a(static_cast<std::size_t>(n), -1);
  long r = tascell::root(programs::nqueens, n, 0, a.data());
  // The winds must leave the shared board as they found it.
  for (int x : a) EXPECT_EQ(x, -1);
  return r;
}

}  // namespace

TEST(Programs, FibMatchesSequential) {
  for (int n : {0, 1, 2, 10, 20, 27}) EXPECT_EQ(tascell::root(programs::fib, n), programs::fib_serial(n)) << n;
}

TEST(Programs, NQueensKnownAnswers) {
  EXPECT_EQ(queens(1), 1);
  EXPECT_EQ(queens(4), 2);
  EXPECT_EQ(queens(8), 92);
  EXPECT_EQ(queens(10), 724);
  EXPECT_EQ(queens(11), 2680);
  std::vector<int> a(11, -1);
  EXPECT_EQ(queens(11), programs::nqueens_serial(11, 0, a.data()));
}

TEST(Programs, MinLoopMatchesSequential) {
  for (std::int64_t n : {0, 1, 7, 1000, 300000})
    EXPECT_EQ(tascell::root(programs::min_loop, n), programs::min_loop_serial(n)) << n;
}

TEST(Programs, KnapsackBranchAndBoundMatchesDynamicProgramming) {
  for (unsigned seed : {1u, 2u, 3u}) {
    auto k = programs::knapsack::random(34, seed);
    EXPECT_EQ(tascell::root(programs::knapsack_solve, &k), k.dynamic_programming()) << seed;
  }
}

TEST(Programs, FirstSolutionByCancel) {
  for (int n : {6, 8, 10, 12}) {
    programs::board a;
    a.fill(-1);
    programs::board out;
    out.fill(-1);
    programs::nodes_visited = 0;
    bool ok = tascell::root(programs::first_by_cancel, n, 0, a, out);
    EXPECT_TRUE(ok) << n;
    EXPECT_TRUE(programs::valid_solution(out, n)) << n;
  }
  // It stops early: far fewer nodes than the whole tree of 12-queens.
  std::vector<int> full(12, -1);
  programs::nodes_visited = 0;
  programs::board a;
  a.fill(-1);
  programs::board out;
  tascell::root(programs::first_by_cancel, 12, 0, a, out);
  EXPECT_LT(programs::nodes_visited.load(), 856189 / 4);  // 856,189 nodes in the whole tree
}

TEST(Programs, FirstSolutionByException) {
  for (int n : {6, 8, 10, 12}) {
    std::vector<int> a(static_cast<std::size_t>(n), -1);
    bool caught = false;
    try {
      tascell::root(programs::first_by_throw, n, 0, a.data());
    } catch (const programs::found& f) {
      caught = true;
      EXPECT_TRUE(programs::valid_solution(f.b, n)) << n;
    }
    EXPECT_TRUE(caught) << n;
    for (int x : a) EXPECT_EQ(x, -1);  // winds ran their `after` on the way out
  }
}

// Repeated runs: ctest sets 70 per configuration (10 under the sanitizers);
// 3 configurations use random victim choice (2, 3 and 8 workers: 210 runs of
// each program), 4 the loaded choice (1, 2, 3, 8 workers).
TEST(Repeated, NQueens10AndFib25) {
  int reps = test_env::repeat(50);
  long wrong = 0;
  for (int r = 0; r < reps; ++r) {
    if (queens(10) != 724) ++wrong;
    if (tascell::root(programs::fib, 25) != 75025) ++wrong;
  }
  EXPECT_EQ(wrong, 0) << "wrong answers in " << reps << " repetitions";
}
