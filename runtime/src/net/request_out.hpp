// The one request for work this process has out to another (the message
// thread's record of it, steal_thief.hpp): to whom, since when, whether it
// was posted through shared memory (and the victim's doorbell rung because
// its answer was late), and the back-off after refusals.
#pragma once

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>

#include "shared_requests.hpp"

namespace tascell::detail::net {

struct request_out {
  using time_point = std::chrono::steady_clock::time_point;

  std::uint64_t seq = 0;  // 0: none out
  int rank = -1;
  time_point since;
  bool posted = false;
  bool posted_rung = false;
  std::uint64_t said = 0;  // the request the watchdog spoke of
  // No request before this time; refusals in a row.
  time_point next_ask;
  int refusals = 0;

  bool quiet() const { return seq == 0; }
  // The rank it is out to, or -1.
  int rank_or_none() const { return seq ? rank : -1; }
  bool answers(std::uint64_t s, int from) const { return seq != 0 && s == seq && from == rank; }
  // An answer from a process that `polled(rank)` may come any moment.
  template <class Polled>
  bool answer_due(Polled polled) const {
    return seq != 0 && polled(rank);
  }

  void sent(std::uint64_t s, int to, time_point at, bool through_shared_memory) {
    seq = s;
    rank = to;
    since = at;
    posted = through_shared_memory;
    posted_rung = false;
  }
  // Answered with work.
  void answered() {
    seq = 0;
    posted = false;
    refusals = 0;
  }
  // Refused at `now`, with `others` processes to ask: the next victim is
  // asked at once until every other process has refused in a row; then the
  // next request waits, longer each time, up to 1 ms.
  void refused(time_point now, int others) {
    seq = 0;
    posted = false;
    ++refusals;
    int over = refusals - others;
    long us = over < 0 ? 0 : std::min<long>(1000, 5L << std::min(over, 8));
    next_ask = now + std::chrono::microseconds(us);
  }
  // A root call began: no back-off carried into it.
  void root_begun(time_point now) {
    refusals = 0;
    next_ask = now;
  }
  // A request posted through shared memory that has had no answer for
  // shared_requests::ring_after is due a ring of the victim's doorbell
  // (then 0, and rung once); otherwise how many microseconds the loop may
  // sleep before that (LONG_MAX: no such request).
  long posted_wait_us(time_point now) {
    if (seq == 0 || !posted || posted_rung) return LONG_MAX;
    auto waited = now - since;
    if (waited >= shared_requests::ring_after) {
      posted_rung = true;
      return 0;
    }
    return 1 + std::chrono::duration_cast<std::chrono::microseconds>(shared_requests::ring_after - waited).count();
  }
};

}  // namespace tascell::detail::net
