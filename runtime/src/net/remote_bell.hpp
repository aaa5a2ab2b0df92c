// The doorbell between machines: a UDP socket per process, which a process
// on another machine sends a small datagram to as it hands each batch to
// MPI (just before, so that the wake-up overlaps the send), and which the message thread sleeps on (doorbell.hpp) when the run
// has processes on other machines.
//
// Without it a message from another machine is found only by polling: the
// receiving message thread slept 20 us to 1 ms between looks, and a steal
// between two emulated hosts took 80-86 us against an MPI ping-pong's 8 us
// (docs/performance.md). MPI cannot wake a sleeping thread (Open MPI's TCP
// transport makes progress only inside MPI calls), so the sender rings.
//
// A ring is only a hint that a batch is on its way; nothing is lost when a
// datagram is (UDP, a firewall between nodes): a process polls another
// (sleeping at most 1 ms) until it has heard a ring from it, and once it
// has heard from every process elsewhere it still looks every 10 ms at
// most (backoff.hpp): a lost ring costs that much at worst. Each
// datagram carries the sender's count of rings to this process, so a lost
// one is made up by the next, and the receiver compares what it heard with
// the batches it received from that process: while rings are ahead, a batch
// is on its way that MPI_Iprobe does not show yet (look again soon).
//
// Which address: every process publishes its IPv4 interface addresses (not
// the loopback) with their masks and its port; a process rings another at
// the first of that one's addresses on a subnet of its own, else at its
// first. Knows nothing of MPI: network.cpp exchanges the cards.
#pragma once

#include <netinet/in.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace tascell::detail::net {

class remote_bell {
 public:
  // What a process publishes: its port and addresses, in network byte order.
  struct card {
    std::uint16_t port = 0;  // 0: no socket (this process cannot be rung)
    std::uint16_t count = 0;
    std::uint32_t address[6] = {};
    std::uint32_t mask[6] = {};
  };
  static_assert(sizeof(card) == 52);

  remote_bell() = default;
  remote_bell(const remote_bell&) = delete;
  remote_bell& operator=(const remote_bell&) = delete;
  ~remote_bell() { close(); }

  // Makes the socket (bound to every address, a port the system chooses);
  // the card to publish (port 0 when it could not be made).
  card open_socket();
  // With every process's card (by rank, this one's included) and which
  // ranks are on another machine: whom this process rings, and at which
  // address. False (and the bell closed) unless every process of the run
  // has a socket: then no one sleeps on one, and polling finds every message.
  bool place(int rank, const std::vector<card>& cards, const std::vector<bool>& remote);
  void close();
  bool is_open() const { return fd_ >= 0 && placed_; }
  int fd() const { return fd_; }
  std::uint16_t port() const { return port_; }  // network byte order

  // As a batch to `rank` is handed to MPI: rings it when it is on another
  // machine (message thread).
  void ring(int rank);
  // Reads every datagram waiting; the rings newly heard.
  std::uint32_t drain();
  // The message thread, as a turn begins: drains when its sleep ended at a
  // datagram (`datagram_waits`), and every 64th turn besides (rings that
  // came while it was awake: a system call at every turn would cost more).
  void drain_if_due() {
    if (waits_ || ++turns_ % 64 == 0) {
      waits_ = false;
      drain();
    }
  }
  void datagram_waits() { waits_ = true; }
  // A batch that rang arrived from `rank` (every batch but a quiet one).
  void received(int rank);
  // Whether `rank`'s batches ring this process (a ring from it has been
  // heard: counts start at 1).
  bool rings_from(int rank) const {
    return rank >= 0 && static_cast<std::size_t>(rank) < heard_.size() && heard_[static_cast<std::size_t>(rank)] != 0;
  }
  // A process rang for more batches than have been received from it.
  bool rung_not_received() const { return ahead_ > 0; }
  // A ring has been heard from every process on another machine (true when
  // there is none).
  bool heard_every_remote() const { return heard_ranks_ == remote_ranks_; }
  // The rings heard since the bell was placed (TASCELL_STATS).
  std::int64_t rings_heard() const { return rings_heard_.load(std::memory_order_relaxed); }

  // Accounting alone, for tests: `rank` said it rang `count` times in all.
  std::uint32_t heard(int rank, std::uint32_t count);

  // The datagram: who rings, its count of rings to the receiver, and the
  // run's tag (a ring from another run, or a stray datagram, only wakes).
  struct ring_message {
    std::uint32_t magic;
    std::uint32_t tag;
    std::int32_t from;
    std::uint32_t count;
  };
  static constexpr std::uint32_t ring_magic = 0x54524247;  // "TRBG"

 private:
  bool ahead(std::size_t r) const { return static_cast<std::int32_t>(heard_[r] - got_[r]) > 0; }
  int fd_ = -1;
  bool placed_ = false;
  std::uint16_t port_ = 0;
  int rank_ = -1;
  std::uint32_t tag_ = 0;
  std::vector<sockaddr_in> to_;          // by rank: where to ring it (family 0: not rung)
  std::vector<std::uint32_t> sent_;      // rings sent to each rank
  std::vector<std::uint32_t> heard_;     // the latest count heard from each rank
  std::vector<std::uint32_t> got_;       // batches that rang received from each rank
  int ahead_ = 0;                        // ranks whose rings are ahead of their batches
  int remote_ranks_ = 0, heard_ranks_ = 0;  // processes on other machines; those heard from
  bool waits_ = false;                   // a datagram woke the message thread
  unsigned turns_ = 0;
  std::atomic<std::int64_t> rings_heard_{0};  // read by the thread that prints statistics
};

}  // namespace tascell::detail::net
