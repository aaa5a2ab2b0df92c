// The doorbell between machines (runtime/src/net/remote_bell.hpp) and the
// message thread's sleep on its socket (doorbell::sleep_on), without MPI:
// two bells of one process ring each other over the loopback. A ring
// reaches the bell of the rank it is meant for and is counted; its count
// makes up a lost one; a batch received before its ring does not leave the
// rings "ahead"; ranks on this machine are not rung; a datagram not of the
// run only wakes; without every process's socket no one rings; and a
// thread asleep on the socket wakes at a ring of its own process.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <poll.h>
#include <sys/socket.h>

#include <chrono>
#include <thread>

#include "net/doorbell.hpp"
#include "net/remote_bell.hpp"

using tascell::detail::net::doorbell;
using tascell::detail::net::remote_bell;

namespace {

// Its card, with the loopback as its one address (a test machine may have
// no other interface).
remote_bell::card on_loopback(remote_bell& b) {
  remote_bell::card c = b.open_socket();
  c.count = 1;
  c.address[0] = htonl(INADDR_LOOPBACK);
  c.mask[0] = htonl(0xff000000u);
  return c;
}

// Whether a datagram waits on `fd` within `ms`.
bool readable(int fd, int ms) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, ms) == 1;
}

// Drains `b` until `want` rings were heard (or 5 s of looking).
std::uint32_t drain_until(remote_bell& b, std::uint32_t want) {
  std::uint32_t got = 0;
  for (int i = 0; i < 500 && got < want; ++i) {
    if (readable(b.fd(), 10)) got += b.drain();
  }
  return got;
}

struct RemoteBellTwoMachines : ::testing::Test {
  remote_bell a, b;  // ranks 0 and 1, each on a machine of its own
  void SetUp() override {
    std::vector<remote_bell::card> cards{on_loopback(a), on_loopback(b)};
    ASSERT_NE(cards[0].port, 0) << "no UDP socket could be made";
    ASSERT_TRUE(a.place(0, cards, {false, true}));
    ASSERT_TRUE(b.place(1, cards, {true, false}));
  }
};

}  // namespace

TEST_F(RemoteBellTwoMachines, RingsReachTheirRankAndAreCounted) {
  EXPECT_FALSE(b.rings_from(0));
  a.ring(1);
  a.ring(1);
  EXPECT_EQ(drain_until(b, 2), 2u);
  EXPECT_TRUE(b.rings_from(0));
  EXPECT_EQ(b.rings_heard(), 2);
  // Rung for two batches, none received: one is on its way.
  EXPECT_TRUE(b.rung_not_received());
  b.received(0);
  EXPECT_TRUE(b.rung_not_received());
  b.received(0);
  EXPECT_FALSE(b.rung_not_received());
  // Nothing went to rank 0.
  EXPECT_FALSE(readable(a.fd(), 50));
  EXPECT_FALSE(a.rings_from(1));
}

TEST_F(RemoteBellTwoMachines, EveryRemoteIsHeardOnceARingFromEachCame) {
  EXPECT_FALSE(b.heard_every_remote());
  EXPECT_EQ(b.heard(0, 1), 1u);
  EXPECT_TRUE(b.heard_every_remote());
  EXPECT_FALSE(a.heard_every_remote());
}

TEST(RemoteBell, WithoutProcessesElsewhereEveryRemoteIsHeard) {
  remote_bell a, b;
  std::vector<remote_bell::card> cards{on_loopback(a), on_loopback(b)};
  ASSERT_TRUE(a.place(0, cards, {false, false}));
  EXPECT_TRUE(a.heard_every_remote());
}

TEST_F(RemoteBellTwoMachines, ALostRingIsMadeUpByTheNext) {
  // Rank 0 said it rang 3 times (the first two datagrams lost): all 3 heard.
  EXPECT_EQ(b.heard(0, 3), 3u);
  EXPECT_TRUE(b.rung_not_received());
  for (int i = 0; i < 3; ++i) b.received(0);
  EXPECT_FALSE(b.rung_not_received());
  // A late datagram with an older count adds nothing.
  EXPECT_EQ(b.heard(0, 2), 0u);
  EXPECT_FALSE(b.rung_not_received());
  EXPECT_EQ(b.rings_heard(), 3);
}

TEST_F(RemoteBellTwoMachines, ABatchBeforeItsRingLeavesNothingAhead) {
  b.received(0);
  EXPECT_FALSE(b.rung_not_received());
  EXPECT_EQ(b.heard(0, 1), 1u);
  EXPECT_FALSE(b.rung_not_received());
  EXPECT_TRUE(b.rings_from(0));
}

TEST_F(RemoteBellTwoMachines, AStrayDatagramOnlyWakes) {
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = b.port();
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  remote_bell::ring_message m{remote_bell::ring_magic, 12345, 0, 7};  // another run's tag
  ASSERT_EQ(::sendto(a.fd(), &m, sizeof m, 0, reinterpret_cast<sockaddr*>(&to), sizeof to),
            static_cast<ssize_t>(sizeof m));
  char junk = 1;
  ASSERT_EQ(::sendto(a.fd(), &junk, 1, 0, reinterpret_cast<sockaddr*>(&to), sizeof to), 1);
  ASSERT_TRUE(readable(b.fd(), 5000));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(b.drain(), 0u);
  EXPECT_FALSE(b.rings_from(0));
  EXPECT_FALSE(b.rung_not_received());
  EXPECT_FALSE(readable(b.fd(), 0));  // both were read
}

TEST(RemoteBell, RanksOfThisMachineAreNotRung) {
  remote_bell a, b;
  std::vector<remote_bell::card> cards{on_loopback(a), on_loopback(b)};
  ASSERT_TRUE(a.place(0, cards, {false, false}));
  ASSERT_TRUE(b.place(1, cards, {false, false}));
  a.ring(1);
  EXPECT_FALSE(readable(b.fd(), 100));
}

TEST(RemoteBell, NoOneRingsUnlessEveryProcessHasASocket) {
  remote_bell a, b;
  std::vector<remote_bell::card> cards{on_loopback(a), remote_bell::card{}};  // rank 1 made none
  EXPECT_FALSE(a.place(0, cards, {false, true}));
  EXPECT_FALSE(a.is_open());
  a.ring(1);  // does nothing, and does not fail
}

// The message thread asleep on the socket (a process with processes on
// other machines) wakes when a worker of its process rings: the ringer
// sends a datagram to the socket's port, as a futex wake would not reach a
// thread in ppoll. (Its timeout is far longer than the test may take.)
TEST(RemoteBell, ASleeperOnTheSocketWakesAtARing) {
  remote_bell r;
  remote_bell::card c = on_loopback(r);
  ASSERT_TRUE(r.place(0, {c}, {false}));
  doorbell bell;
  bell.sleep_on(r.fd(), r.port());
  std::uint32_t seen = bell.value();
  auto start = std::chrono::steady_clock::now();
  std::thread sleeper([&] { bell.sleep(seen, 60'000'000); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // in ppoll by then, most likely
  bell.ring_self();
  sleeper.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_NE(bell.value(), seen);
  EXPECT_EQ(r.drain(), 0u);  // the wake is not a ring from afar
}
