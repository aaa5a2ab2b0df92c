// The emulated slower network's link (runtime/src/net/slow_link.hpp): a
// delay alone, a bandwidth that puts batches on the wire one after another,
// an idle wire that lets the next batch go at once, and due times that
// never go back (the held batches keep their order).
#include <gtest/gtest.h>

#include <random>

#include "net/slow_link.hpp"

using tascell::detail::slow_link;
using namespace std::chrono_literals;

namespace {
slow_link::clock::time_point at(std::chrono::microseconds us) { return slow_link::clock::time_point{} + us; }
}  // namespace

TEST(SlowLink, NothingSetSlowsNothing) {
  slow_link l;
  EXPECT_FALSE(l.slows());
  EXPECT_EQ(l.due(at(5us), 1000), at(5us));
}

TEST(SlowLink, DelayAlone) {
  slow_link l(20us, 0);
  EXPECT_TRUE(l.slows());
  EXPECT_EQ(l.due(at(100us), 1 << 20), at(120us));
  EXPECT_EQ(l.due(at(100us), 1 << 20), at(120us));  // no bandwidth: no queue
}

TEST(SlowLink, BandwidthQueuesBatchesOnTheWire) {
  slow_link l(5us, 8'000'000);  // 8 Mbit/s: a byte a microsecond
  EXPECT_TRUE(l.slows());
  EXPECT_EQ(l.due(at(0us), 1000), at(1005us));  // 1000 us on the wire, then the delay
  EXPECT_EQ(l.due(at(10us), 500), at(1505us));   // waits for the first to leave the wire
  EXPECT_EQ(l.due(at(10us), 0), at(1505us));
  // The wire idle by then: this one goes at once.
  EXPECT_EQ(l.due(at(5000us), 250), at(5255us));
}

TEST(SlowLink, DueTimesNeverGoBack) {
  slow_link l(7us, 100'000'000);
  std::mt19937 rng(3);
  auto now = at(0us), last = at(0us);
  for (int k = 0; k < 10000; ++k) {
    now += std::chrono::microseconds(rng() % 50);
    auto due = l.due(now, rng() % 20000);
    ASSERT_GE(due, last) << k;
    ASSERT_GE(due, now + 7us) << k;
    last = due;
  }
}
