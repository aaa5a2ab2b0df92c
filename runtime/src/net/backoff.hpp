// How long the message thread may sleep when every worker of its process is
// idle and its next request for work may leave only at `next_ask` (after
// refusals: network::on_refuse). Separate from network.cpp so that the
// rounding can be tested without MPI.
#pragma once

#include <algorithm>
#include <chrono>

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

}  // namespace tascell::detail::net
