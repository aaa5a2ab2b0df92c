// The request protocol between a thief and a victim (request.cpp, serve.cpp)
// at the step that once lost a request: a victim ends a request that the
// message thread withdrew meanwhile, after another thief had claimed the
// victim. Worker objects made by hand, as the message thread makes its
// proxies; no root call.
#include <gtest/gtest.h>

#include <memory>

#include "worker.hpp"

namespace tascell::detail {
namespace {

struct victim_and_thieves {
  std::unique_ptr<worker_impl> victim = std::make_unique<worker_impl>();
  std::unique_ptr<worker_face> proxy = std::make_unique<worker_face>();
  std::unique_ptr<worker_impl> thief = std::make_unique<worker_impl>();
  victim_and_thieves() {
    proxy->remote_rank.store(1);
    thief->id = 1;
  }
  // The thief's side of request(): claim the victim.
  bool claim(worker_face* who) {
    who->reply.store(no_reply);
    worker_face* expected = nullptr;
    return victim->requester.compare_exchange_strong(expected, who);
  }
};

TEST(RequestProtocol, AnAnswerClearsTheClaimAndReachesTheThief) {
  victim_and_thieves v;
  ASSERT_TRUE(v.claim(v.thief.get()));
  EXPECT_TRUE(release_request(v.victim.get(), v.thief.get(), refused));
  EXPECT_EQ(v.victim->requester.load(), nullptr);
  EXPECT_EQ(v.thief->reply.load(), refused);
}

TEST(RequestProtocol, AWithdrawnRequestLeavesTheNextThiefsClaim) {
  victim_and_thieves v;
  // A proxy asks the victim; the victim starts serving it (reads requester).
  ASSERT_TRUE(v.claim(v.proxy.get()));
  worker_face* served = v.victim->requester.load();
  ASSERT_EQ(served, v.proxy.get());
  // The root task ends: the message thread withdraws the proxy's request,
  // and a local thief claims the victim at once.
  worker_face* expected = v.proxy.get();
  ASSERT_TRUE(v.victim->requester.compare_exchange_strong(expected, nullptr));
  ASSERT_TRUE(v.claim(v.thief.get()));
  // The victim ends the proxy's request: the thief's claim stays (it is
  // answered at the victim's next poll) and the withdrawn proxy gets nothing.
  EXPECT_FALSE(release_request(v.victim.get(), served, refused));
  EXPECT_EQ(v.victim->requester.load(), v.thief.get());
  EXPECT_EQ(v.proxy->reply.load(), no_reply);
  EXPECT_EQ(v.thief->reply.load(), no_reply);
  // ... and at that poll the thief gets its answer.
  EXPECT_TRUE(release_request(v.victim.get(), v.thief.get(), refused));
  EXPECT_EQ(v.thief->reply.load(), refused);
  EXPECT_EQ(v.victim->requester.load(), nullptr);
}

}  // namespace
}  // namespace tascell::detail
