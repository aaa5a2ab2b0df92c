// How long the message thread sleeps after a turn that found nothing to do
// (network::pause gathers what the turn knows; this decides). Separate from
// network.cpp so that the policy can be tested without MPI
// (tests/runtime/backoff_test.cpp). Measured on this machine (a VM with 2
// cores; a message thread shares its core with a worker):
//  - every wake-up of the message thread costs its worker dearly: waking
//    every 50 us made fib 1.7x slower with no other process at all
//    (docs/performance.md);
//  - yielding does not give the core back to a busy worker reliably;
//  - a thread that sleeps takes tens of microseconds to run again.
// So the thread sleeps on its doorbell (doorbell.hpp), which a worker's
// event ends at once (an answer to a proxy, a finished piece, a hungry
// worker), and so does a message from a process on this machine, and one
// from another machine whose batches ring (remote_bell.hpp). Only messages
// from other machines need polling, as a safety net where rings are heard:
//  - 20 us while an answer from another machine whose batches do not ring
//    is due, or a process there is idle (its last load was 0: its request
//    may come any moment), or a send is still in flight;
//  - otherwise twice as long after every quiet turn, up to 1 ms, or up to
//    10 ms when every other process's messages ring (it is on this
//    machine, or a ring from it has been heard) and every message rung
//    for has been received;
//  - between root calls, or alone, 20, 40, 80, 160 us, then 2 ms;
//  - no longer than until this process's next request for work may leave,
//    when every worker waits for it (after refusals), nor than until a
//    request posted through shared memory is due a ring of its victim;
//  - 20 us at most while tables retry updates or reads held by locks, or a
//    caller waits for a table's answer from a process whose messages do
//    not ring;
//  - when the bell was rung for more messages than have been received, the
//    back-off starts over at 20 us (restart()): a message rung for may
//    become visible to MPI_Iprobe only later (a receiver spinning on
//    MPI_Iprobe saw 11-17 of 200 small sends, each complete at once on the
//    sender, more than 1 ms late; load average about 3, cause not
//    established). A message from this machine that has been received does
//    not restart it: the next one rings (restarting at every ring and every
//    message woke each process about 70 times in a 30 ms root call of fib
//    on 2).
// (While a request of this process is out by MPI and every worker is idle,
// the thread does not sleep at all: network::pause spins.)
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>

namespace tascell::detail::net {

// At most `us`, and no longer than until `next_ask`: rounded up to a whole
// microsecond, and at least 1 us. A wait of under a microsecond must not
// truncate to "no limit": the thread would sleep the full `us` (up to 10 ms)
// while every worker of its process is idle.
inline long sleep_before_ask(long us, std::chrono::steady_clock::time_point next_ask,
                             std::chrono::steady_clock::time_point now) {
  auto wait = std::chrono::ceil<std::chrono::microseconds>(next_ask - now).count();
  return std::min(us, std::max(1L, static_cast<long>(wait)));
}

class backoff {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  // What a turn that found nothing knows.
  struct facts {
    bool in_root_with_others = false;  // in a root call, with other processes
    bool urgent = false;               // an answer due, a process idle elsewhere, a send in flight
    bool need_polling = true;          // a message that does not ring may come
    bool waits_to_ask = false;         // every worker waits for this process's next request
    time_point next_ask, now;          // ... which may leave at next_ask
    long post_wait_us = LONG_MAX;      // until a posted request is due a ring (LONG_MAX: none)
    bool tables_soon = false;          // tables retry, or wait for an answer that does not ring
  };

  // The sleep after this quiet turn, in microseconds; counts the turn.
  long next_sleep_us(const facts& f) {
    long us;
    if (!f.in_root_with_others) {
      us = quiet_ < 4 ? 20L << quiet_ : 2000;  // just rung by another process: look again soon
    } else {
      if (f.urgent) quiet_ = 0;
      // Polling is for messages from other machines, and for one rung for
      // but not yet visible; when neither can come, the timeout is only a
      // safety net.
      us = std::min<long>(f.need_polling ? 1000 : 10000, 20L << std::min(quiet_, 10u));
      if (f.waits_to_ask) us = sleep_before_ask(us, f.next_ask, f.now);
    }
    ++quiet_;
    us = std::min(us, f.post_wait_us);
    if (f.tables_soon) us = std::min(us, 20L);
    return us;
  }
  // A message came that only polling finds, or one is rung for: the next
  // sleep is short again.
  void restart() { quiet_ = 0; }
  // The thread slept (TASCELL_STATS' wake-ups).
  void slept() { wakeups_.fetch_add(1, std::memory_order_relaxed); }
  std::int64_t wakeups() const { return wakeups_.load(std::memory_order_relaxed); }

 private:
  unsigned quiet_ = 0;  // quiet turns in a row
  std::atomic<std::int64_t> wakeups_{0};
};

}  // namespace tascell::detail::net
