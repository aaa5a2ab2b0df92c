// The message thread's doorbell: a futex word the thread sleeps on, in
// memory shared by the processes of the run on one machine.
//
// Messages from another process cannot wake a thread: MPI only shows them to
// a thread that polls. A thread that slept for a fixed time and looked
// would leave a request from an idle process waiting for the end of that
// sleep (up to 1 ms while every process is busy). So a process that sends
// to another process on the same machine rings that process's bell after
// the send, and the sleeper wakes at once; the workers ring their own
// process's bell when they post an event. Messages from other machines ring
// a UDP socket (remote_bell.hpp): when the run has processes on other
// machines, the thread sleeps in ppoll on that socket instead of on the
// futex (`sleep_on`), and a ringer of this machine that finds it sleeping
// there sends a datagram to its port on the loopback instead of a futex
// wake (a futex cannot be polled beside a socket).
//
// No wake-up is lost: the sleeper reads the bell's count before it looks for
// work (`value`), and the futex sleeps only while the count is still that
// value; a ringer increments the count first and then, if the sleeper has
// said it sleeps, wakes it.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace tascell::detail::net {

class doorbell {
 public:
  // Collective over `node` (the processes of the run on this machine), from
  // the message thread. Without shared memory (the window cannot be made)
  // the bell stays private: only this process's workers ring it.
  void open(MPI_Comm node, int world_rank, int world_size);
  // Collective over the same processes; before MPI_Finalize.
  void close();

  // The count, read before looking for work.
  std::uint32_t value() const { return own_->count.load(std::memory_order_seq_cst); }
  // How often another process has rung (a message is on its way).
  std::uint32_t rung_by_others() const { return own_->by_others.load(std::memory_order_relaxed); }
  // Any thread of this process.
  void ring_self() { ring(*own_, false); }
  // After a send to `world_rank`: rings its bell when it is on this machine.
  void ring(int world_rank) {
    if (slot* s = of_rank_.empty() ? nullptr : of_rank_[static_cast<std::size_t>(world_rank)]) ring(*s, true);
  }
  // Wakes the message thread of `world_rank` (on this machine) without
  // announcing a message: a request posted to its workers through shared
  // memory has not been answered in time.
  void nudge(int world_rank) {
    if (slot* s = of_rank_.empty() ? nullptr : of_rank_[static_cast<std::size_t>(world_rank)]) ring(*s, false);
  }
  // Whether messages from `world_rank` ring this process's bell.
  bool rings_for(int world_rank) const {
    return !of_rank_.empty() && of_rank_[static_cast<std::size_t>(world_rank)] != nullptr;
  }
  // Sleeps until the count differs from `seen` or `microseconds` pass (or
  // a datagram comes to the socket given to sleep_on). True when a datagram
  // waits on that socket (it stays there until read: remote_bell::drain).
  bool sleep(std::uint32_t seen, long microseconds);
  // From now on the message thread sleeps in ppoll on `fd` (a UDP socket
  // bound to `port`, network byte order, on every address), and rings wake
  // it with a datagram sent from `fd`. Every process of this machine does
  // the same (remote_bell::place agrees on it), before any sleeps.
  void sleep_on(int fd, std::uint16_t port);

 private:
  // A cache line of its own (padded, not aligned: MPI places the
  // processes' parts back to back at an address of its choosing).
  struct slot {
    std::atomic<std::uint32_t> count{0};
    std::atomic<std::uint32_t> sleeping{0};
    std::atomic<std::uint32_t> by_others{0};
    std::atomic<std::uint32_t> port{0};  // sleeping == 2: the socket's port it sleeps on
    char pad[48];
  };
  static_assert(sizeof(slot) == 64);
  void ring(slot& s, bool other);

  slot private_;
  slot* own_ = &private_;
  std::vector<slot*> of_rank_;  // by world rank: its bell, or nullptr on another machine
  MPI_Win win_ = MPI_WIN_NULL;
  std::atomic<int> socket_{-1};  // sleep_on's (read by ringers of this process)
};

// What the message thread knows, in one turn, of the rings of its bell:
// its count when the turn began (what it sleeps on), and how many batches
// the other processes of this machine rang for against how many it has
// received from them: while the first is ahead, a message rung for is not
// visible to MPI_Iprobe yet.
struct rings_heard {
  std::uint32_t seen = 0;            // the bell's count when this turn began
  std::uint32_t rung_by_others = 0;  // its rings by other processes then
  std::uint32_t received = 0;        // batches received from processes that ring
  bool every_other_rings = false;    // every other process rings: on this machine, or elsewhere with rings (network.cpp)
  void turn_begins(const doorbell& b) {
    seen = b.value();
    rung_by_others = b.rung_by_others();
  }
  bool rung_not_received() const { return static_cast<std::int32_t>(rung_by_others - received) > 0; }
};

}  // namespace tascell::detail::net
