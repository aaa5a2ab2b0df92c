// Lazy @dowork statements (tascell/lazy.hpp), written by hand the way the
// translator emits them: a three-way recursion whose frames unwind, save
// themselves and are rebuilt as eager frames when a request comes, against
// its sequential sum, whatever the worker count of this run.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include <tascell/tascell.hpp>

#include "test_env.hpp"

namespace {

using tascell::ctx;
using tascell::detail::lazy_records;

std::int64_t tri_body(ctx c, std::int64_t lo, std::int64_t n);
std::int64_t tri_resume(ctx c, lazy_records& r);

// The external entry: the bottom of an unwinding.
std::int64_t tri(ctx c, std::int64_t lo, std::int64_t n) {
  std::int64_t r = tri_body(c, lo, n);
  if (tascell::detail::lazy_unwound(c)) [[unlikely]] return tascell::detail::lazy_bottom(c, &tri_resume);
  return r;
}

// The index whose leaf throws (ExceptionsPassLazyFrames), or -1.
std::atomic<std::int64_t> throwing_leaf{-1};

// The sum of lo .. lo+n-1, in three parts: sites 0/2/4 before part 0/1/2
// (6: after part 2), 1/3/5 in it.
std::int64_t tri_body(ctx c, std::int64_t lo, std::int64_t n) {
  if (n < 3) {
    const std::int64_t bad = throwing_leaf.load(std::memory_order_relaxed);
    if (bad >= lo && bad < lo + n) throw std::runtime_error("leaf " + std::to_string(bad));
    return n == 0 ? 0 : n == 1 ? lo : 2 * lo + 1;
  }
  std::int64_t q = n / 3, a = 0, b = 0, d = 0;
  {
    if (tascell::detail::lazy_poll(c)) [[unlikely]] {
      tascell::detail::lazy_save(c, 0, lo, n, q, a, b, d);
      return {};
    }
    a = tri_body(c, lo, q);
    if (int k = tascell::detail::lazy_check(c)) [[unlikely]] {
      tascell::detail::lazy_save(c, k == 1 ? 1 : 2, lo, n, q, a, b, d);
      return {};
    }
    b = tri_body(c, lo + q, q);
    if (int k = tascell::detail::lazy_check(c)) [[unlikely]] {
      tascell::detail::lazy_save(c, k == 1 ? 3 : 4, lo, n, q, a, b, d);
      return {};
    }
    d = tri_body(c, lo + 2 * q, n - 2 * q);
    if (int k = tascell::detail::lazy_check(c)) [[unlikely]] {
      tascell::detail::lazy_save(c, k == 1 ? 5 : 6, lo, n, q, a, b, d);
      return {};
    }
  }
  return a + b + d;
}

// The eager @dowork of tri's parts, as resume functions hand it over.
#define TRI_PARTS                                                                                             \
  tascell::common(tascell::in(lo), tascell::in(q)), [&](ctx c) { a = tri(c, lo, q); },                       \
      tascell::part(tascell::out(b),                                                                          \
                    [](ctx c, const std::int64_t& lo, const std::int64_t& q, std::int64_t& b) {               \
                      b = tri(c, lo + q, q);                                                                  \
                    }),                                                                                       \
      tascell::part(tascell::in(n), tascell::out(d),                                                          \
                    [](ctx c, const std::int64_t& lo, const std::int64_t& q, const std::int64_t& n,           \
                       std::int64_t& d) { d = tri(c, lo + 2 * q, n - 2 * q); })

std::int64_t tri_resume(ctx c, lazy_records& r) {
  std::int64_t lo{}, n{}, q{}, a{}, b{}, d{};
  const int site = tascell::detail::lazy_restore(r, lo, n, q, a, b, d);
  switch (site) {
    case 1: tascell::detail::dowork_resume(c, 0, [&](ctx c) { a = tri_resume(c, r); }, TRI_PARTS); break;
    case 3: tascell::detail::dowork_resume(c, 1, [&](ctx c) { b = tri_resume(c, r); }, TRI_PARTS); break;
    case 5: tascell::detail::dowork_resume(c, 2, [&](ctx c) { d = tri_resume(c, r); }, TRI_PARTS); break;
    default: tascell::detail::dowork_resume(c, site / 2, nullptr, TRI_PARTS); break;
  }
  return a + b + d;
}
#undef TRI_PARTS

std::int64_t sum_to(std::int64_t n) { return n * (n - 1) / 2; }

// A lazy @dowork for, as the translator emits it: the leaves of a tree of
// fan-out 4, its loop's iterations polling where they start (site 0) and
// checking after the call (1: in the call, 2: after it), with the path of
// the node in a board that a wind-like pair of writes keeps (path[d] is the
// child taken at depth d while the call runs, and -1 otherwise).
std::int64_t quad_body(ctx c, int d, int* path);
std::int64_t quad_resume(ctx c, lazy_records& r);

std::int64_t quad(ctx c, int d, int* path) {
  std::int64_t r = quad_body(c, d, path);
  if (tascell::detail::lazy_unwound(c)) [[unlikely]] return tascell::detail::lazy_bottom(c, &quad_resume);
  return r;
}

std::int64_t quad_body(ctx c, int d, int* path) {
  if (d == 0) return 1;
  std::int64_t s = 0;
  const tascell::range r(0, 4);
  for (std::int64_t k = 0; k < r.count; ++k) {
    if (tascell::detail::lazy_poll(c)) [[unlikely]] {
      tascell::detail::lazy_save(c, 0, d, path, s, r, k);
      return {};
    }
    const int child = static_cast<int>(r.first + k * r.step);
    if (tascell::wind(
            c, [=] { path[d] = child; }, [=] { path[d] = -1; },
            [&](ctx c) -> bool {
              s += quad_body(c, d - 1, path);
              if (int z = tascell::detail::lazy_check(c)) [[unlikely]] {
                tascell::detail::lazy_save_tuple(c, z == 1 ? 1 : 2, std::tuple(d, path, s, r, k));
                return true;
              }
              return false;
            })) [[unlikely]]
      return {};
  }
  return s;
}

std::int64_t quad_resume(ctx c, lazy_records& rec) {
  int d = 0;
  int* path = nullptr;
  std::int64_t s = 0, k = 0;
  tascell::range r(0, 0);
  const int site = tascell::detail::lazy_restore(rec, d, path, s, r, k);
  auto go = [&](auto&& first) {
    tascell::detail::dowork_for_resume(c, k, first, r, tascell::reduce<tascell::op::plus>(s),
                                       tascell::copy(path, 0, 16), tascell::in(d),
                                       [](ctx c, std::int64_t i, std::int64_t& s, int* path, const int& d) {
                                         const int child = static_cast<int>(i);
                                         tascell::wind(
                                             c, [=] { path[d] = child; }, [=] { path[d] = -1; },
                                             [&](ctx c) { s += quad(c, d - 1, path); });
                                       });
  };
  const int child = static_cast<int>(r.first + k * r.step);
  auto in_wind = [&](auto&& rest) {
    return [&, rest](ctx c) { tascell::wind(c, [=] { path[d] = child; }, [=] { path[d] = -1; }, rest); };
  };
  switch (site) {
    case 0: go(nullptr); break;
    case 1: go(in_wind([&](ctx c) { s += quad_resume(c, rec); })); break;
    case 2: go(in_wind([](ctx) {})); break;
    default: tascell::detail::lazy_bad_site(site);
  }
  return s;
}

}  // namespace

TEST(Lazy, SumIsRightOnAnyWorkerCount) {
  const int reps = test_env::repeat(70) / 7 + 1;
  for (int rep = 0; rep < reps; ++rep) {
    const std::int64_t n = 300000 + rep * 1001;
    EXPECT_EQ(tascell::root([&](ctx c) { return tri(c, 0, n); }), sum_to(n)) << "n=" << n;
  }
}

TEST(Lazy, SmallTreesAndEdgeSizes) {
  for (std::int64_t n = 0; n < 200; ++n)
    EXPECT_EQ(tascell::root([&](ctx c) { return tri(c, 0, n); }), sum_to(n)) << "n=" << n;
}

// With several workers the work travels: requests make lazy frames unwind,
// and the rebuilt frames give pieces away.
TEST(MultiWorkerLazy, RequestsUnwindAndPiecesTravel) {
  std::int64_t unwinds = 0, frames = 0, given = 0;
  for (int rep = 0; rep < 10; ++rep) {
    const std::int64_t n = 2000000;
    EXPECT_EQ(tascell::root([&](ctx c) { return tri(c, 0, n); }), sum_to(n));
    auto t = tascell::last_stats().total();
    unwinds += t.lazy_unwinds;
    frames += t.lazy_frames;
    given += t.pieces_given;
  }
  EXPECT_GT(unwinds, 0);
  EXPECT_GE(frames, unwinds);  // every unwinding saves at least the frame that polled
  EXPECT_GT(given, 0);
}

// An exception thrown below lazy frames passes them (they hold no pieces),
// and through the rebuilt eager ones, to the root call; the records of an
// unwinding it interrupts go with it: the next root calls are right.
TEST(Lazy, ExceptionsPassLazyFrames) {
  for (int rep = 0; rep < 20; ++rep) {
    const std::int64_t n = 200000 + rep;
    throwing_leaf = 3 * (n / 7) + rep;
    bool threw = false;
    try {
      tascell::root([&](ctx c) { return tri(c, 0, n); });
    } catch (const std::runtime_error& e) {
      threw = std::string(e.what()).rfind("leaf ", 0) == 0;
    }
    throwing_leaf = -1;
    EXPECT_TRUE(threw) << "rep " << rep;
    EXPECT_EQ(tascell::root([&](ctx c) { return tri(c, 0, n); }), sum_to(n)) << "rep " << rep;
  }
}

// dowork_resume, what a rebuilt frame runs: the owner is in part k (first
// finishes it, or with nullptr part k runs as written), parts k+1.. run
// wherever they are given; parts before k do not run again. With a false
// when(), the rest runs as plain code.
TEST(Lazy, DoworkResumeRunsTheRestFromPartK) {
  for (bool when : {true, false}) {
    for (std::int64_t k = 0; k < 4; ++k) {
      for (bool with_first : {true, false}) {
        std::int64_t r0 = -1, r1 = -1, r2 = -1, r3 = -1, firsts = 0;
        tascell::root([&](ctx c) {
          auto go = [&](auto&& first) {
            tascell::detail::dowork_resume(
                c, k, first, tascell::when(when), [&](ctx) { r0 = 0; },
                tascell::part(tascell::out(r1), [](ctx, std::int64_t& o) { o = 1; }),
                tascell::part(tascell::out(r2), [](ctx, std::int64_t& o) { o = 2; }),
                tascell::part(tascell::out(r3), [](ctx, std::int64_t& o) { o = 3; }));
          };
          if (with_first) go([&](ctx) { ++firsts; });
          else go(nullptr);
          return 0;
        });
        std::int64_t got[4] = {r0, r1, r2, r3};
        for (std::int64_t i = 0; i < 4; ++i) {
          std::int64_t want = i < k || (i == k && with_first) ? -1 : i;
          EXPECT_EQ(got[i], want) << "part " << i << ", k " << k << ", when " << when << ", first " << with_first;
        }
        EXPECT_EQ(firsts, with_first ? 1 : 0);
      }
    }
  }
}

// A lazy loop whose frames unwind from inside a wind and are rebuilt at
// the iteration they were in: the leaves are counted once each, and the
// board is clear again at the end, on any worker count.
TEST(Lazy, LoopsUnwindInsideAWindAndResumeTheirIteration) {
  const int reps = test_env::repeat(30) / 3 + 1;
  std::int64_t unwinds = 0;
  for (int rep = 0; rep < reps; ++rep) {
    int path[16];
    for (int& p : path) p = -1;
    const int d = 9;
    EXPECT_EQ(tascell::root([&](ctx c) { return quad(c, d, path); }), std::int64_t{1} << (2 * d)) << "rep " << rep;
    for (int p : path) EXPECT_EQ(p, -1);
    unwinds += tascell::last_stats().total().lazy_unwinds;
  }
  if (tascell::last_stats().workers.size() > 1) {
    EXPECT_GT(unwinds, 0);
  }
}

// dowork_for_resume, what a rebuilt loop frame runs: the owner is in
// iteration k (first finishes it, or with nullptr iteration k runs as
// written), iterations k+1.. run wherever they are given; those before k
// do not run again. With a false when(), the rest runs as plain code.
// Also with `first` passed as resume_first, as the translator's resume
// functions pass it (one type for a lambda and for nothing).
TEST(Lazy, DoworkForResumeRunsTheRestFromIterationK) {
  for (bool erased : {false, true}) {
    for (bool when : {true, false}) {
      for (std::int64_t k = 0; k < 6; ++k) {
        for (bool with_first : {true, false}) {
          std::int64_t out[6] = {-1, -1, -1, -1, -1, -1}, firsts = 0;
          tascell::root([&](ctx c) {
            auto go = [&](auto&& first) {
              tascell::detail::dowork_for_resume(c, k, first, tascell::when(when), tascell::range(10, 22, 2),
                                                 tascell::shared(out),
                                                 [](ctx, std::int64_t i, std::int64_t* o) { o[(i - 10) / 2] = i; });
            };
            auto count = [&](ctx) { ++firsts; };
            if (erased) go(with_first ? tascell::detail::resume_first(count) : tascell::detail::resume_first(nullptr));
            else if (with_first) go(count);
            else go(nullptr);
            return 0;
          });
          for (std::int64_t i = 0; i < 6; ++i) {
            std::int64_t want = i < k || (i == k && with_first) ? -1 : 10 + 2 * i;
            EXPECT_EQ(out[i], want) << "iteration " << i << ", k " << k << ", when " << when << ", first "
                                    << with_first << ", erased " << erased;
          }
          EXPECT_EQ(firsts, with_first ? 1 : 0);
        }
      }
    }
  }
}

// A record that does not match its resume function, or a site without a
// case, is an internal error that names what was wrong.
// (threadsafe: the runtime's worker threads are running when it forks.)
TEST(LazyDeathTest, MismatchedRecordsAbortWithAMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  tascell::detail::lazy_records r;
  const std::int32_t saved_site = 5;
  const std::uint32_t trailer[2] = {static_cast<std::uint32_t>(saved_site), 8};
  r.bytes.resize(8 + sizeof trailer);
  std::memcpy(r.bytes.data() + 8, trailer, sizeof trailer);
  EXPECT_EQ(tascell::detail::lazy_site(r), saved_site);
  int small = 0;
  EXPECT_DEATH(tascell::detail::lazy_restore(r, small), "record does not match its function");
  EXPECT_DEATH(tascell::detail::lazy_bad_site((2 << 16) + 9), "site 131081 \\(resume point 2, place 9\\)");
  tascell::detail::lazy_records empty;
  EXPECT_DEATH(tascell::detail::lazy_site(empty), "record does not match");
}
