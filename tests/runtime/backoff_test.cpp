// The message thread's sleep while every worker waits for the next request
// for work (net/backoff.hpp): never past the moment the request may leave,
// and never "no limit" for a wait of under a microsecond.
#include <gtest/gtest.h>

#include <chrono>

#include "net/backoff.hpp"

namespace {

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

}  // namespace
