// A link to other machines slower than the one under this process, for
// tests and measurements (TASCELL_NET_DELAY_US, TASCELL_NET_BANDWIDTH_MBIT):
// when a batch sent on it is handed to MPI. A process has one such link:
// its batches go onto the wire one after another, each taking its bytes'
// time at the bandwidth, and arrive `delay` later. mpi_transport holds
// each batch until then. Knows nothing of MPI: unit-tested alone.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace tascell::detail {

class slow_link {
 public:
  using clock = std::chrono::steady_clock;

  slow_link() = default;
  // bits_per_second 0: no limit.
  slow_link(std::chrono::microseconds delay, std::int64_t bits_per_second)
      : delay_(delay), bits_per_second_(bits_per_second) {}

  bool slows() const { return delay_.count() > 0 || bits_per_second_ > 0; }

  // When a batch of `bytes` sent at `now` is due. Non-decreasing over
  // successive batches (they keep their order).
  clock::time_point due(clock::time_point now, std::size_t bytes) {
    clock::time_point start = std::max(now, wire_free_);
    clock::time_point end = start;
    if (bits_per_second_ > 0)
      end += std::chrono::nanoseconds(static_cast<std::int64_t>(bytes) * 8 * 1'000'000'000 / bits_per_second_);
    wire_free_ = end;
    return end + delay_;
  }

 private:
  std::chrono::microseconds delay_{0};
  std::int64_t bits_per_second_ = 0;
  clock::time_point wire_free_{};  // when the last batch is off the wire
};

}  // namespace tascell::detail
