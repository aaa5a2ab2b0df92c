// TASCELL_STATS with several processes: rank 0 gathers every process's
// figures of a root call (runtime.cpp prints them). The message thread
// files what arrives; the thread that made the root call waits for all.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "frame.hpp"

namespace tascell::detail::net {

class stats_gather {
 public:
  // A STATS message from `from` (rank 0's message thread; `rank` and `size`
  // are this process's).
  void on_stats(int from, int rank, int size, reader& r);
  // Rank 0: this process's figures `mine` and those of every other process
  // for root call `number`, waiting up to `timeout` for them (one entry per
  // rank, empty for a rank that sent none).
  std::vector<std::string> gather(std::uint64_t number, int size, std::string mine, std::chrono::milliseconds timeout);

 private:
  std::mutex m_;
  std::condition_variable cv_;
  std::map<std::uint64_t, std::vector<std::string>> in_;  // by root call, under m_
};

}  // namespace tascell::detail::net
