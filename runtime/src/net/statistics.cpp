#include <algorithm>

#include "network.hpp"

namespace tascell::detail::net {

// TASCELL_STATS with several processes: every process sends its figures of a
// root call to rank 0, which gathers them (runtime.cpp prints them).

network::counts network::figures() const {
  counts c;
  c.bytes = out_.bytes_sent();
  c.messages = out_.messages_sent();
  c.batches = out_.batches_sent();
  c.wakeups = sleep_.wakeups();
  c.requests_posted = steal_.thief().posts().all.load(std::memory_order_relaxed);
  c.requests_posted_by_workers = steal_.thief().posts().by_workers.load(std::memory_order_relaxed);
  c.pieces_mailed = steal_.mail().pieces_mailed();
  c.results_mailed = steal_.pieces().results_mailed();
  c.results_taken_by_workers = steal_.mail().results_taken_here();
  c.pieces = steal_.victim().pieces_sent().count.load(std::memory_order_relaxed);
  c.piece_bytes = steal_.victim().pieces_sent().bytes.load(std::memory_order_relaxed);
  c.results = steal_.pieces().results_sent().count.load(std::memory_order_relaxed);
  c.result_bytes = steal_.pieces().results_sent().bytes.load(std::memory_order_relaxed);
  c.incumbents_held_early = root_.held_early();
  c.incumbents_held_improved = root_.early_improved();
  return c;
}

void stats_gather::on_stats(int from, int rank, int size, reader& r) {
  auto n = r.get<std::uint64_t>("a root call number");
  std::string_view figures = r.bytes("statistics");
  if (rank != 0) throw malformed_message("statistics sent to a rank other than 0");
  {
    std::lock_guard<std::mutex> g(m_);
    auto& v = in_[n];
    v.resize(static_cast<std::size_t>(size));
    v[static_cast<std::size_t>(from)] = std::string(figures);
  }
  cv_.notify_all();
}

std::vector<std::string> stats_gather::gather(std::uint64_t number, int size, std::string mine,
                                             std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> g(m_);
  auto& v = in_[number];
  v.resize(static_cast<std::size_t>(size));
  v[0] = std::move(mine);
  cv_.wait_for(g, timeout, [&] {
    return std::all_of(v.begin(), v.end(), [](const std::string& x) { return !x.empty(); });
  });
  std::vector<std::string> out = std::move(v);
  in_.erase(number);
  return out;
}

}  // namespace tascell::detail::net
