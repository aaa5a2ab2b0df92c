// Improvements of the incumbent for the next root call that came before
// this process began it (the processes do not begin a root call at the
// same moment): held, then applied when it begins (root_protocol.hpp).
// The message thread's; the counts are read by network::figures() on the
// root-calling thread, hence atomic.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tascell::detail::net {

class held_incumbents {
 public:
  void hold(int from, std::uint64_t number, std::uint64_t id, int hops, std::string_view value) {
    held_.push_back({from, number, id, hops, std::string(value)});
    count_.fetch_add(1, std::memory_order_relaxed);
  }
  // Root call `number` begins here: apply(from, id, hops, value) for each
  // held for it (true when it improved this process's incumbent); the
  // others are dropped.
  template <class F> void begin(std::uint64_t number, F&& apply) {
    for (held& h : std::exchange(held_, {}))
      if (h.number == number && apply(h.from, h.id, h.hops, std::string_view(h.value)))
        improved_.fetch_add(1, std::memory_order_relaxed);
  }
  // How many were held (since the start), and how many of them improved
  // this process's incumbent when its call began.
  std::uint64_t count() const { return count_.load(std::memory_order_relaxed); }
  std::uint64_t improved() const { return improved_.load(std::memory_order_relaxed); }

 private:
  struct held {
    int from;
    std::uint64_t number, id;
    int hops;
    std::string value;
  };
  std::vector<held> held_;
  std::atomic<std::uint64_t> count_{0}, improved_{0};
};

}  // namespace tascell::detail::net
