// The table messages that wait for their root call (net/held_arrivals.hpp):
// one of a call this process has not begun is kept with its bytes, what its
// sender sent after it waits behind it, other senders go on, and each is
// taken once, in its sender's order, when the call begins; a test's delay
// holds a message until its time. Every message is either held or told to
// go on, also while the calling thread begins calls meanwhile.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "net/held_arrivals.hpp"

namespace {

using tascell::detail::net::held_arrivals;

held_arrivals::message batch_of(std::uint64_t call) {
  held_arrivals::message m;
  m.kind = held_arrivals::message::batch;
  m.call = call;
  return m;
}
held_arrivals::message fence_of(std::uint64_t call, std::uint64_t token) {
  held_arrivals::message m;
  m.kind = held_arrivals::message::fence;
  m.call = call;
  m.token = token;
  return m;
}

TEST(HeldArrivals, AMessageOfACallBegunGoesOn) {
  held_arrivals h;
  h.begin_call();
  auto m = batch_of(1);
  EXPECT_FALSE(h.hold(0, m, "bytes"));
  auto old = batch_of(0);  // a call that has ended here (t.get between calls)
  EXPECT_FALSE(h.hold(0, old, "bytes"));
  EXPECT_EQ(h.held_for_call(), 0);
  EXPECT_FALSE(h.release(0, [](int, held_arrivals::message&) { ADD_FAILURE() << "nothing was held"; }));
}

TEST(HeldArrivals, AnEarlyMessageWaitsForItsCallAndWhatFollowsItWaitsBehindIt) {
  held_arrivals h;  // no call begun here yet
  auto early = batch_of(1);
  ASSERT_TRUE(h.hold(3, early, "runs"));
  auto fence = fence_of(1, 77);  // the same sender's fence: behind its batch
  ASSERT_TRUE(h.hold(3, fence));
  auto other = fence_of(0, 5);  // another sender, a call begun here: goes on
  EXPECT_FALSE(h.hold(4, other));
  EXPECT_EQ(h.held_for_call(), 2);
  EXPECT_FALSE(h.soon());  // waits for begin_call, not for a time
  EXPECT_FALSE(h.release(0, [](int, held_arrivals::message&) { ADD_FAILURE() << "released before the call began"; }));

  h.begin_call();
  std::vector<std::pair<int, held_arrivals::message>> taken;
  EXPECT_TRUE(h.release(0, [&](int from, held_arrivals::message& m) { taken.emplace_back(from, m); }));
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(taken[0].first, 3);
  EXPECT_EQ(taken[0].second.kind, held_arrivals::message::batch);
  EXPECT_EQ(taken[0].second.updates, "runs");
  EXPECT_EQ(taken[1].second.kind, held_arrivals::message::fence);
  EXPECT_EQ(taken[1].second.token, 77u);
  EXPECT_FALSE(h.release(0, [](int, held_arrivals::message&) { ADD_FAILURE() << "taken twice"; }));
  auto after = batch_of(1);
  EXPECT_FALSE(h.hold(3, after, "x"));  // the queue is empty again
}

TEST(HeldArrivals, ATestsDelayHoldsUntilItsTime) {
  held_arrivals h;
  auto m = batch_of(0);
  m.not_before_ns = 1000;
  ASSERT_TRUE(h.hold(1, m, "late"));
  EXPECT_TRUE(h.soon());
  EXPECT_EQ(h.held_for_call(), 0);
  EXPECT_FALSE(h.release(999, [](int, held_arrivals::message&) { ADD_FAILURE() << "released before its time"; }));
  int taken = 0;
  EXPECT_TRUE(h.release(1000, [&](int, held_arrivals::message& x) {
    EXPECT_EQ(x.updates, "late");
    ++taken;
  }));
  EXPECT_EQ(taken, 1);
  EXPECT_FALSE(h.soon());
}

// The message thread holds and releases while the calling thread begins
// calls, each call begun while the messages of that call are arriving:
// every message is taken exactly once, in each sender's order.
TEST(HeldArrivals, EveryMessageIsTakenOnceWhileCallsBegin) {
  held_arrivals h;
  constexpr int calls = 3000, per_call = 40, senders = 3;
  std::atomic<int> arriving{0};  // the call whose messages arrive now
  std::thread caller([&] {
    for (int k = 1; k <= calls; ++k) {
      while (arriving.load() < k) std::this_thread::yield();
      h.begin_call();
    }
  });
  std::vector<std::vector<std::uint64_t>> seen(senders);
  auto take = [&](int from, held_arrivals::message& m) { seen[static_cast<std::size_t>(from)].push_back(m.token); };
  std::uint64_t token = 0;
  for (int k = 1; k <= calls; ++k) {
    arriving.store(k);
    for (int j = 0; j < per_call; ++j) {
      int from = j % senders;
      auto m = fence_of(static_cast<std::uint64_t>(k), ++token);
      if (!h.hold(from, m)) take(from, m);
      h.release(0, take);
    }
  }
  caller.join();
  h.release(0, take);
  std::size_t total = 0;
  for (auto& s : seen) {
    total += s.size();
    for (std::size_t i = 1; i < s.size(); ++i) EXPECT_LT(s[i - 1], s[i]) << "a sender's messages out of order";
  }
  EXPECT_EQ(total, static_cast<std::size_t>(calls) * per_call);
  EXPECT_GT(h.held_for_call(), 0) << "no message arrived before its call began: the test tested nothing";
}

}  // namespace
