#include <algorithm>

#include "network.hpp"

namespace tascell::detail::net {

// TASCELL_STATS with several processes: every process sends its figures of a
// root call to rank 0, which gathers them (runtime.cpp prints them).

void network::send_stats(std::uint64_t number, std::string figures) {
  std::lock_guard<std::mutex> g(ev_m_);
  events_.push_back({event::stats, nullptr, number, 0, std::move(figures)});
  bell_.ring_self();
}

void network::on_stats(int from, reader& r) {
  auto n = r.get<std::uint64_t>("a root call number");
  std::string_view figures = r.bytes("statistics");
  if (rank_ != 0) throw malformed_message("statistics sent to a rank other than 0");
  {
    std::lock_guard<std::mutex> g(stats_m_);
    auto& v = stats_in_[n];
    v.resize(static_cast<std::size_t>(size_));
    v[static_cast<std::size_t>(from)] = std::string(figures);
  }
  stats_cv_.notify_all();
}

std::vector<std::string> network::gather_stats(std::uint64_t number, std::string mine,
                                               std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> g(stats_m_);
  auto& v = stats_in_[number];
  v.resize(static_cast<std::size_t>(size_));
  v[0] = std::move(mine);
  stats_cv_.wait_for(g, timeout, [&] {
    return std::all_of(v.begin(), v.end(), [](const std::string& x) { return !x.empty(); });
  });
  std::vector<std::string> out = std::move(v);
  stats_in_.erase(number);
  return out;
}

}  // namespace tascell::detail::net
