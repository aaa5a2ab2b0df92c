// The message thread's sleep after a quiet turn (net/backoff.hpp): longer
// after each quiet turn up to its caps, short again when something is due,
// never past the moment the next request for work may leave, and never "no
// limit" for a wait of under a microsecond.
#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <vector>

#include "net/backoff.hpp"

namespace {

using tascell::detail::net::backoff;
using tascell::detail::net::sleep_before_ask;
using std::chrono::microseconds;
using std::chrono::nanoseconds;
using clock_type = std::chrono::steady_clock;

TEST(Backoff, SleepsUntilTheNextRequestMayLeave) {
  auto now = clock_type::now();
  EXPECT_EQ(sleep_before_ask(10000, now + microseconds(20), now), 20);
  EXPECT_EQ(sleep_before_ask(10, now + microseconds(20), now), 10);  // the back-off is shorter
}

TEST(Backoff, AWaitOfUnderAMicrosecondIsOneMicrosecondNotTheFullSleep) {
  auto now = clock_type::now();
  EXPECT_EQ(sleep_before_ask(10000, now + nanoseconds(300), now), 1);
  EXPECT_EQ(sleep_before_ask(10000, now + nanoseconds(1300), now), 2);  // rounded up
}

TEST(Backoff, ARequestThatMayLeaveNowSleepsOneMicrosecond) {
  auto now = clock_type::now();
  EXPECT_EQ(sleep_before_ask(10000, now, now), 1);
  EXPECT_EQ(sleep_before_ask(10000, now - microseconds(500), now), 1);
}

// The sleeps after n quiet turns in a row with the same facts.
std::vector<long> sleeps(backoff& b, const backoff::facts& f, int n) {
  std::vector<long> v;
  for (int i = 0; i < n; ++i) v.push_back(b.next_sleep_us(f));
  return v;
}

backoff::facts in_root() {
  backoff::facts f;
  f.in_root_with_others = true;
  return f;
}

TEST(Backoff, BetweenRootCallsItLooksSoonThenEvery2ms) {
  backoff b;
  EXPECT_EQ(sleeps(b, backoff::facts{}, 6), (std::vector<long>{20, 40, 80, 160, 2000, 2000}));
}

TEST(Backoff, InARootCallItDoublesUpTo1msWhileMessagesNeedPolling) {
  backoff b;
  EXPECT_EQ(sleeps(b, in_root(), 8), (std::vector<long>{20, 40, 80, 160, 320, 640, 1000, 1000}));
}

TEST(Backoff, WhenEveryMessageRingsItDoublesUpTo10ms) {
  backoff b;
  backoff::facts f = in_root();
  f.need_polling = false;
  std::vector<long> v = sleeps(b, f, 12);
  EXPECT_EQ(v[9], 10000);   // 20 << 9 = 10,240, capped
  EXPECT_EQ(v[11], 10000);  // and no further
  EXPECT_EQ(v[8], 5120);
}

TEST(Backoff, SomethingDueOrARestartStartsOverAt20us) {
  backoff b;
  sleeps(b, in_root(), 5);
  backoff::facts urgent = in_root();
  urgent.urgent = true;
  EXPECT_EQ(b.next_sleep_us(urgent), 20);
  EXPECT_EQ(b.next_sleep_us(urgent), 20);
  EXPECT_EQ(b.next_sleep_us(in_root()), 40);  // quiet again: doubling from there
  b.restart();
  EXPECT_EQ(b.next_sleep_us(in_root()), 20);
}

TEST(Backoff, ItWakesInTimeForTheNextRequestARingOrATable) {
  auto now = clock_type::now();
  backoff b;
  sleeps(b, in_root(), 10);  // at the 1 ms cap
  backoff::facts f = in_root();
  f.waits_to_ask = true;
  f.now = now;
  f.next_ask = now + microseconds(300);
  EXPECT_EQ(b.next_sleep_us(f), 300);
  f = in_root();
  f.post_wait_us = 70;
  EXPECT_EQ(b.next_sleep_us(f), 70);
  f = backoff::facts{};  // between root calls too
  f.tables_soon = true;
  EXPECT_EQ(b.next_sleep_us(f), 20);
  // The time to the next request matters only in a root call with others.
  f = backoff::facts{};
  f.waits_to_ask = true;
  f.now = now;
  f.next_ask = now + microseconds(5);
  EXPECT_GT(b.next_sleep_us(f), 5);
}

TEST(Backoff, CountsItsSleeps) {
  backoff b;
  b.slept();
  b.slept();
  EXPECT_EQ(b.wakeups(), 2);
}

}  // namespace
