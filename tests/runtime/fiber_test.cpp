// TASCELL_WAIT=suspend (ctest runs this binary with it on 1, 2 and 4
// workers): the programs with steal-back turned off, so that a join whose
// pieces run elsewhere and which finds other work suspends on its fiber; the
// answers against the sequential versions, and (2 workers or more) the
// statistics show that joins really suspended.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "programs/fib.hpp"
#include "programs/first_solution.hpp"
#include "programs/knapsack.hpp"
#include "programs/minloop.hpp"
#include "programs/nqueens.hpp"
#include "tascell/detail/testing.hpp"
#include "tascell/stats.hpp"
#include "test_env.hpp"

namespace {

bool suspending() {
  const char* s = std::getenv("TASCELL_WAIT");
  return s && std::string(s) == "suspend";
}

// Steal-back off for the duration of a test: every wait that can help runs
// other work, on a fiber of its own.
struct no_steal_back {
  no_steal_back() { tascell::detail::steal_back_for_testing(false); }
  ~no_steal_back() { tascell::detail::steal_back_for_testing(true); }
};

std::int64_t suspends() { return tascell::last_stats().total().suspends; }

// Whether a join suspends depends on timing (under ThreadSanitizer with 10
// repetitions none did once; with 2 repetitions on a loaded machine, none in
// 80 either): with 2 workers or more, the repetitions go on until one has,
// for up to 30 s more.
struct until_suspended {
  int reps;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  bool more(int r, std::int64_t suspended) const {
    if (r < reps) return true;
    return tascell::workers() >= 2 && suspended == 0 &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(30);
  }
};

struct tagged {
  int id;
};

// Inside a catch handler, a @dowork whose joins may wait on this fiber while
// other fibers of the thread throw and catch their own exceptions: the
// exception being handled must still be this one afterwards.
long fib_in_handler(tascell::ctx c, int id) {
  try {
    throw tagged{id};
  } catch (const tagged& t) {
    long f = programs::fib(c, 18);
    if (std::uncaught_exceptions() != 0) return -1;
    try {
      throw;  // the exception being handled
    } catch (const tagged& again) {
      if (again.id != id || &again != &t) return -1;
    }
    return f;
  }
}

// Polls for `us` microseconds (so that the other part can be taken meanwhile).
void busy(tascell::ctx c, int us) {
  auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
  while (std::chrono::steady_clock::now() < end) tascell::poll(c);
}

// The same with a join that waits long: the second part (1 ms) is taken by
// another worker while the first (0.1 ms) runs, so the join waits inside the
// handler, and its fiber is set aside for other work, which enters handlers
// and waits in them too.
long slow_in_handler(tascell::ctx c, int id) {
  try {
    throw tagged{id};
  } catch (const tagged& t) {
    long b = 0;
    tascell::dowork(c, [&](tascell::ctx c) { busy(c, 100); },
                    tascell::part(tascell::out(b), [](tascell::ctx c, long& b) {
                      busy(c, 1000);
                      b = 1;
                    }));
    if (std::uncaught_exceptions() != 0) return -1;
    try {
      throw;  // the exception being handled
    } catch (const tagged& again) {
      if (again.id != id || &again != &t) return -1;
    }
    return b;
  }
}

long handlers(tascell::ctx c, int lo, int hi) {
  if (hi - lo == 1) return lo % 2 ? slow_in_handler(c, lo) : fib_in_handler(c, lo);
  int mid = (lo + hi) / 2;
  long a = 0, b = 0;
  tascell::dowork(c, [&](tascell::ctx c) { a = handlers(c, lo, mid); },
                  tascell::part(tascell::in(mid), tascell::in(hi), tascell::out(b),
                                [](tascell::ctx c, const int& mid, const int& hi, long& b) { b = handlers(c, mid, hi); }));
  return a + b;
}

}  // namespace

TEST(Fibers, ProgramsAnswerCorrectlyWhileJoinsSuspend) {
  if (!suspending()) GTEST_SKIP() << "runs with TASCELL_WAIT=suspend";
  no_steal_back off;
  int reps = test_env::repeat(50);
  std::int64_t suspended = 0;
  long wrong = 0;
  until_suspended go{reps};
  for (int r = 0; go.more(r, suspended); ++r) {
    SCOPED_TRACE(r);
    if (tascell::root(programs::fib, 25) != 75025) ++wrong;
    suspended += suspends();

    std::vector<int> a(10, -1);
    if (tascell::root(programs::nqueens, 10, 0, a.data()) != 724) ++wrong;
    suspended += suspends();
    for (int x : a) EXPECT_EQ(x, -1);  // the winds left the board as they found it

    if (tascell::root(programs::min_loop, std::int64_t{300000}) != programs::min_loop_serial(300000)) ++wrong;
    suspended += suspends();

    auto k = programs::knapsack::random(30, static_cast<unsigned>(r) + 1);
    if (tascell::root(programs::knapsack_solve, &k) != k.dynamic_programming()) ++wrong;
    suspended += suspends();

    programs::board b;
    b.fill(-1);
    programs::board out;
    out.fill(-1);
    bool ok = tascell::root(programs::first_by_cancel, 10, 0, b, out);
    if (!ok || !programs::valid_solution(out, 10)) ++wrong;
    suspended += suspends();

    std::vector<int> t(10, -1);
    bool caught = false;
    try {
      tascell::root(programs::first_by_throw, 10, 0, t.data());
    } catch (const programs::found& f) {
      caught = programs::valid_solution(f.b, 10);
    }
    if (!caught) ++wrong;
    suspended += suspends();
    for (int x : t) EXPECT_EQ(x, -1);  // winds ran their `after` on the way out
  }
  EXPECT_EQ(wrong, 0) << "wrong answers in " << reps << " or more repetitions of 6 programs";
  if (tascell::workers() >= 2) EXPECT_GT(suspended, 0) << "no join suspended in " << reps * 6 << " root calls";
  else EXPECT_EQ(suspended, 0);  // one worker: nothing is ever given away
}

// With steal-back on (the rule as shipped): the same answers.
TEST(Fibers, ProgramsAnswerCorrectlyWithStealBack) {
  if (!suspending()) GTEST_SKIP() << "runs with TASCELL_WAIT=suspend";
  int reps = test_env::repeat(50);
  long wrong = 0;
  for (int r = 0; r < reps; ++r) {
    if (tascell::root(programs::fib, 22) != 17711) ++wrong;
    std::vector<int> a(9, -1);
    if (tascell::root(programs::nqueens, 9, 0, a.data()) != 352) ++wrong;
  }
  EXPECT_EQ(wrong, 0);
}

// Each fiber keeps its own exceptions being handled: joins that wait inside
// catch handlers, with other fibers throwing meanwhile.
TEST(Fibers, WaitingInsideACatchHandlerKeepsItsException) {
  if (!suspending()) GTEST_SKIP() << "runs with TASCELL_WAIT=suspend";
  no_steal_back off;
  int reps = test_env::repeat(50);
  long wrong = 0;
  std::int64_t suspended = 0;
  until_suspended go{reps};
  for (int r = 0; go.more(r, suspended); ++r) {
    if (tascell::root(handlers, 0, 64) != 32 * programs::fib_serial(18) + 32) ++wrong;
    suspended += suspends();
  }
  EXPECT_EQ(wrong, 0) << "wrong answers in " << reps << " repetitions";
  if (tascell::workers() >= 2) {
    EXPECT_GT(suspended, 0);
  }
}
