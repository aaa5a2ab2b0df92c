// Requests posted through shared memory (net/shared_requests.hpp): one
// process plays a victim (rank 0) and a thief (rank 1) of one machine, their
// objects in ordinary memory, the victim's workers made by hand in their
// pages as the runtime makes them at the start of their regions.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "net/shared_requests.hpp"
#include "worker.hpp"

namespace tascell::detail::net {
namespace {

constexpr int workers = 2;
static_assert(sizeof(worker_impl) <= 4096, "the test lays the victim's workers a page apart");

struct machine {
  std::vector<char*> objects;
  shared_requests victim, thief;
  worker_impl* w[workers] = {};
  std::unique_ptr<worker_impl> proxy = std::make_unique<worker_impl>();
  std::unique_ptr<worker_impl> proxy2 = std::make_unique<worker_impl>();

  machine() {
    std::size_t bytes = shared_layout::object_bytes(2, workers);
    for (int r = 0; r < 2; ++r) {
      char* p = static_cast<char*>(std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096));
      std::memset(p, 0, bytes);
      objects.push_back(p);
    }
    for (int i = 0; i < workers; ++i)
      w[i] = ::new (objects[0] + shared_layout::worker_offset(2, i)) worker_impl;
    victim.attach_for_testing(0, objects, workers);
    thief.attach_for_testing(1, objects, workers);
    proxy->remote_rank.store(1);
    proxy2->remote_rank.store(1);
    victim.stand(1, 0, proxy.get());
  }
  ~machine() {
    victim.close();
    thief.close();
    for (worker_impl* x : w) x->~worker_impl();
    for (char* p : objects) std::free(p);
  }
  struct adopted {
    int thief = -1;
    std::uint64_t seq = 0;
    int victim = -1;
    int calls = 0;
  };
  adopted adopt() {
    adopted a;
    victim.adopt([&](int t, int, std::uint64_t seq, int v) {
      a = {t, seq, v, a.calls + 1};
    });
    return a;
  }
};

// Other processes touch these words through the worker's first page only
// (the rest of the region stays private).
TEST(SharedRequests, TheWordsOtherProcessesTouchAreOnTheFirstPage) {
  machine m;
  worker_impl* w = m.w[0];
  auto offset = [&](const void* field) {
    return static_cast<const char*>(field) - reinterpret_cast<const char*>(w);
  };
  for (std::ptrdiff_t end : {offset(&w->attention) + 4, offset(&w->requester) + 8, offset(&w->busy) + 1,
                             offset(&w->offer_depth) + 4})
    EXPECT_LE(end, 4096);
}

TEST(SharedRequests, APostReachesABusyWorkerAndIsAdopted) {
  machine m;
  m.victim.set_accepting(5);
  m.w[1]->busy.store(true);
  ASSERT_TRUE(m.thief.reaches(0));
  ASSERT_TRUE(m.thief.post(0, 5, 42, false, 0));
  EXPECT_EQ(m.w[1]->requester.load(), m.proxy.get());
  EXPECT_EQ(m.w[1]->attention.load(), 1u);
  EXPECT_EQ(m.w[0]->requester.load(), nullptr);
  EXPECT_EQ(m.w[0]->attention.load(), 0u);
  auto a = m.adopt();
  EXPECT_EQ(a.calls, 1);
  EXPECT_EQ(a.thief, 1);
  EXPECT_EQ(a.seq, 42u);
  EXPECT_EQ(a.victim, 1);
  // Adopted once: the slot is free, and nothing more is adopted.
  EXPECT_EQ(m.adopt().calls, 0);
  // The next request lands on the next standing proxy.
  m.victim.stand(1, 0, m.proxy2.get());
  m.w[0]->busy.store(true);
  ASSERT_TRUE(m.thief.post(0, 5, 43, false, 0));
  EXPECT_EQ(m.w[0]->requester.load(), m.proxy2.get());
  EXPECT_EQ(m.adopt().seq, 43u);
}

TEST(SharedRequests, NothingIsPostedForAnotherRootCallOrWhenNotAccepting) {
  machine m;
  m.w[0]->busy.store(true);
  EXPECT_FALSE(m.thief.post(0, 5, 1, false, 0));  // not accepting (0)
  m.victim.set_accepting(5);
  EXPECT_FALSE(m.thief.post(0, 6, 2, false, 0));  // another root call
  EXPECT_FALSE(m.thief.post(0, 0, 3, false, 0));
  EXPECT_EQ(m.w[0]->requester.load(), nullptr);
  EXPECT_EQ(m.w[0]->attention.load(), 0u);
  EXPECT_EQ(m.adopt().calls, 0);
  // Backing out left the slot free.
  EXPECT_TRUE(m.thief.post(0, 5, 4, false, 0));
}

TEST(SharedRequests, NothingIsPostedToAnIdleOrAlreadyAskedWorker) {
  machine m;
  m.victim.set_accepting(5);
  EXPECT_FALSE(m.thief.post(0, 5, 1, false, 0));  // no busy worker
  m.w[0]->busy.store(true);
  worker_impl local_thief;
  m.w[0]->requester.store(&local_thief);
  EXPECT_FALSE(m.thief.post(0, 5, 2, false, 0));  // asked by a local thief
  EXPECT_EQ(m.w[0]->requester.load(), &local_thief);
  EXPECT_EQ(m.adopt().calls, 0);
}

TEST(SharedRequests, NothingIsPostedWithoutAStandingProxy) {
  machine m;
  m.victim.set_accepting(5);
  m.w[0]->busy.store(true);
  ASSERT_TRUE(m.thief.post(0, 5, 1, false, 0));
  m.adopt();  // the proxy is taken; no new one stands
  m.victim.stand(1, 0, nullptr);
  m.w[0]->requester.store(nullptr);
  EXPECT_FALSE(m.thief.post(0, 5, 2, false, 0));
}

TEST(SharedRequests, LargestChoosesTheShallowestOffer) {
  machine m;
  m.victim.set_accepting(5);
  m.w[0]->busy.store(true);
  m.w[0]->offer_depth.store(7);
  m.w[1]->busy.store(true);
  m.w[1]->offer_depth.store(3);
  ASSERT_TRUE(m.thief.post(0, 5, 1, true, 0));
  EXPECT_EQ(m.w[1]->requester.load(), m.proxy.get());
  EXPECT_EQ(m.adopt().victim, 1);
  // Without it: the first busy worker from the start given.
  m.victim.stand(1, 0, m.proxy2.get());
  m.w[1]->requester.store(nullptr);
  ASSERT_TRUE(m.thief.post(0, 5, 2, false, 0));
  EXPECT_EQ(m.w[0]->requester.load(), m.proxy2.get());
}

TEST(SharedRequests, ARootCallEndsOnlyWhenNoRequestIsPosted) {
  machine m;
  m.victim.set_accepting(5);
  m.w[0]->busy.store(true);
  ASSERT_TRUE(m.thief.post(0, 5, 1, false, 0));
  EXPECT_FALSE(m.victim.quiet());  // posted, not adopted yet
  EXPECT_EQ(m.adopt().calls, 1);
  EXPECT_TRUE(m.victim.quiet());
  // quiet() stopped accepting: a request after it goes by MPI.
  m.victim.stand(1, 0, m.proxy2.get());
  m.w[0]->requester.store(nullptr);
  EXPECT_FALSE(m.thief.post(0, 5, 2, false, 0));
  EXPECT_TRUE(m.victim.quiet());
}

// A piece answering a posted request goes back through the thief's mailbox:
// written (not visible), published, claimed by one taker only, then taken
// or emptied; one piece at a time.
TEST(SharedRequests, TheMailboxHoldsOnePieceAndOneTakerGetsIt) {
  machine m;
  m.victim.set_accepting(5);
  m.w[0]->busy.store(true);
  ASSERT_TRUE(m.thief.post(0, 5, 42, false, 0));
  EXPECT_EQ(m.victim.posted_seq(1, 0), 42u);  // what the victim's worker answers
  int from = -1;
  std::string got;
  EXPECT_EQ(m.thief.mail_state(), shared_requests::mail_is_empty);
  ASSERT_TRUE(m.victim.write_mail(1, "piece one"));
  // Written, not yet published: nothing to take.
  EXPECT_EQ(m.thief.mail_state(), shared_requests::mail_is_empty);
  EXPECT_FALSE(m.thief.claim_mail(from, got));
  m.victim.publish_mail(1);
  EXPECT_EQ(m.thief.mail_state(), shared_requests::mail_is_full);
  // Full: a second piece is refused (it would go by MPI).
  EXPECT_FALSE(m.victim.write_mail(1, "piece two"));
  ASSERT_TRUE(m.thief.claim_mail(from, got));
  EXPECT_EQ(from, 0);
  EXPECT_EQ(got, "piece one");
  EXPECT_EQ(m.thief.mail_state(), shared_requests::mail_is_taking);
  std::string again;
  EXPECT_FALSE(m.thief.claim_mail(from, again));  // one taker only
  m.thief.mail_taken();
  EXPECT_EQ(m.thief.mail_state(), shared_requests::mail_is_taken);
  EXPECT_FALSE(m.victim.write_mail(1, "piece two"));  // not recorded yet
  m.thief.mail_empty();
  EXPECT_TRUE(m.victim.write_mail(1, "piece two"));
}

TEST(SharedRequests, APieceLargerThanTheMailboxIsNotWritten) {
  machine m;
  std::string big(shared_requests::mailbox_capacity + 1, 'x');
  EXPECT_FALSE(m.victim.write_mail(1, big));
  big.pop_back();
  EXPECT_TRUE(m.victim.write_mail(1, big));
  m.victim.publish_mail(1);
  int from = -1;
  std::string got;
  ASSERT_TRUE(m.thief.claim_mail(from, got));
  EXPECT_EQ(got.size(), shared_requests::mailbox_capacity);
}

// A thief may post again into another slot before the victim's message
// thread has adopted its last request (the piece went back through the
// mailbox, and that thread was not woken).
TEST(SharedRequests, AThiefPostsIntoTheNextFreeSlot) {
  machine m;
  m.victim.set_accepting(5);
  m.w[0]->busy.store(true);
  m.w[1]->busy.store(true);
  m.victim.stand(1, 1, m.proxy2.get());
  ASSERT_TRUE(m.thief.post(0, 5, 1, false, 0));
  EXPECT_EQ(m.w[0]->requester.load(), m.proxy.get());
  ASSERT_TRUE(m.thief.post(0, 5, 2, false, 1));  // slot 0 still posted: slot 1
  EXPECT_EQ(m.w[1]->requester.load(), m.proxy2.get());
  EXPECT_EQ(m.victim.posted_seq(1, 0), 1u);
  EXPECT_EQ(m.victim.posted_seq(1, 1), 2u);
  // No third standing proxy: a third post goes by MPI.
  m.w[0]->requester.store(nullptr);
  EXPECT_FALSE(m.thief.post(0, 5, 3, false, 0));
  int adopted = 0;
  m.victim.adopt([&](int, int, std::uint64_t, int) { ++adopted; });
  EXPECT_EQ(adopted, 2);
}

// A piece's result goes back through the victim's ring for its thief: the
// victim takes the results in the order written, each once; a full ring or
// a result too large is not written (it then goes by MPI).
TEST(SharedRequests, ResultsComeBackThroughTheVictimsRingInOrder) {
  machine m;
  EXPECT_FALSE(m.victim.results_waiting());
  EXPECT_TRUE(m.thief.write_result(0, "one"));
  EXPECT_TRUE(m.thief.write_result(0, "two"));
  EXPECT_TRUE(m.victim.results_waiting());
  std::vector<std::string> got;
  EXPECT_TRUE(m.victim.take_results([&](int from, std::string_view b) {
    EXPECT_EQ(from, 1);
    got.emplace_back(b);
  }));
  EXPECT_EQ(got, (std::vector<std::string>{"one", "two"}));
  EXPECT_FALSE(m.victim.results_waiting());
  EXPECT_FALSE(m.victim.take_results([&](int, std::string_view) { ADD_FAILURE() << "taken twice"; }));
  EXPECT_FALSE(m.thief.write_result(0, std::string(shared_requests::result_capacity + 1, 'x')));
  EXPECT_TRUE(m.thief.write_result(0, std::string(shared_requests::result_capacity, 'x')));
  // The thief's results to itself have no ring (it reaches only the others).
  EXPECT_FALSE(m.victim.write_result(0, "to itself"));
}

TEST(SharedRequests, AFullRingTakesNoMoreUntilTheVictimHasTaken) {
  machine m;
  for (int i = 0; i < shared_requests::results_per_ring; ++i)
    ASSERT_TRUE(m.thief.write_result(0, std::to_string(i))) << i;
  EXPECT_FALSE(m.thief.write_result(0, "one too many"));
  // A result whose handling throws stays, and is the first taken next time.
  int seen = 0;
  EXPECT_THROW(m.victim.take_results([&](int, std::string_view b) {
    if (b == "3") throw std::runtime_error("bad");
    ++seen;
  }),
               std::runtime_error);
  EXPECT_EQ(seen, 3);
  EXPECT_TRUE(m.thief.write_result(0, "after three"));  // three places free
  std::vector<std::string> rest;
  m.victim.take_results([&](int, std::string_view b) { rest.emplace_back(b); });
  ASSERT_EQ(rest.size(), static_cast<std::size_t>(shared_requests::results_per_ring - 3 + 1));
  EXPECT_EQ(rest.front(), "3");
  EXPECT_EQ(rest.back(), "after three");
}

}  // namespace
}  // namespace tascell::detail::net
