// Collective root calls and incumbents between processes.
//
// Every process makes the same root calls in the same order (SPMD). Rank 0
// runs the root task; when it has finished (so every piece has come back),
// rank 0 sends ROOT_DONE with the outcome to every process. A process that
// has seen ROOT_DONE stops its workers, waits until nothing it asked for is
// outstanding, and answers ROOT_ACK with its incumbents. When every ACK is
// in, rank 0 combines the incumbents and sends ROOT_FINISH with the exact
// values; each process applies them and leaves the root call. After FINISH
// no message of that root call is in flight except stale stops and
// cancellations, which name pieces no longer known and are ignored.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "../worker.hpp"
#include "network.hpp"
#include "registry.hpp"
#include "tascell/incumbent.hpp"

namespace tascell::detail::net {

void network::begin_root() {
  std::lock_guard<std::mutex> g(ev_m_);
  events_.push_back({event::root_begin, nullptr, 0, 0, {}});
  bell_.ring_self();
}

std::string network::end_root(std::string outcome) {
  local_root_end(std::move(outcome));
  std::unique_lock<std::mutex> g(root_m_);
  root_cv_.wait(g, [&] { return root_over_; });
  root_over_ = false;
  return outcome_;
}

void network::local_root_end(std::string outcome) {
  std::lock_guard<std::mutex> g(ev_m_);
  events_.push_back({event::root_end, nullptr, 0, 0, std::move(outcome)});
  bell_.ring_self();
}

bool network::root_over(std::string& outcome) {
  std::lock_guard<std::mutex> g(root_m_);
  if (!root_over_) return false;
  root_over_ = false;
  outcome = outcome_;
  return true;
}

bool network::tend_root() {
  if (!in_root_ || !local_ended_ || !root_done_here_) return false;
  // A request armed for a worker is taken back; one a worker made is adopted
  // (and answered) first.
  if (!disarm_worker_post() && adopt_worker_post()) return true;
  if (asking_seq_ || !proxies_.empty() || !backs_.empty()) return false;
  // No request posted through shared memory is left unadopted (it stops
  // accepting them first); one posted meanwhile is adopted, and withdrawn,
  // soon (the back-off starts over).
  if (!shared_.quiet()) {
    claims_seen_ = true;
    return false;
  }
  if (rank_ != 0) {
    if (ack_sent_) return false;
    ack_sent_ = true;
    writer w(begin(0, msg::root_ack));
    w.put(root_number_);
    w.bytes(pack_shared_state());
    return true;
  }
  if (acks_ < size_ - 1) return false;
  std::string values = pack_shared_state();
  for (int r = 1; r < size_; ++r) {
    writer w(begin(r, msg::root_finish));
    w.put(root_number_);
    w.bytes(values);
  }
  in_root_ = false;
  log_.note(protocol_log::step::root_end, root_number_);
  {
    std::lock_guard<std::mutex> g(root_m_);
    root_over_ = true;
  }
  root_cv_.notify_all();
  return true;
}

void network::on_root_done(int from, reader& r) {
  auto n = r.get<std::uint64_t>("a root call number");
  std::string_view outcome = r.bytes("the root call's outcome");
  if (from != 0 || outcome.empty()) throw malformed_message("a root call's end not from rank 0");
  if (in_root_ && n == root_number_ && !root_done_here_) {
    outcome_ = std::string(outcome);
    root_done_here_ = true;
    host_.mark_root_done();
  } else if (!in_root_ && n == root_number_ + 1) {
    pending_done_ = std::string(outcome);
    pending_done_number_ = n;
  } else {
    throw malformed_message("the end of root call " + std::to_string(n) + " while this process is at " +
                            std::to_string(root_number_) +
                            " (every process must make the same root calls)");
  }
}

void network::on_root_ack(int, reader& r) {
  auto n = r.get<std::uint64_t>("a root call number");
  std::string_view values = r.bytes("incumbents");
  if (rank_ != 0 || !in_root_ || !root_done_here_ || n != root_number_)
    throw malformed_message("an unexpected acknowledgement of root call " + std::to_string(n));
  apply_shared_state(values);
  ++acks_;
}

void network::on_root_finish(int from, reader& r) {
  auto n = r.get<std::uint64_t>("a root call number");
  std::string_view values = r.bytes("incumbents");
  if (from != 0 || !in_root_ || !ack_sent_ || n != root_number_)
    throw malformed_message("an unexpected finish of root call " + std::to_string(n));
  apply_shared_state(values);
  host_.board_writes();  // these entries are settled: not to be sent again
  in_root_ = false;
  log_.note(protocol_log::step::root_end, root_number_);
  {
    std::lock_guard<std::mutex> g(root_m_);
    root_over_ = true;
  }
  root_cv_.notify_all();
}

// --- incumbents ---

void network::incumbent_improved(std::uint64_t id, std::string value) {
  std::lock_guard<std::mutex> g(ev_m_);
  events_.push_back({event::improved, nullptr, id, 0, std::move(value)});
  bell_.ring_self();
}

// Where an improvement goes. broadcast: from its origin to every process.
// random:x: to x random processes, and each that improves forwards it the
// same way. lifeline:l: along the edges of an l-dimensional hypercube of
// side ceil(P^(1/l)) (the GLB seed's lifeline graph), forwarded by each
// process that improves.
//
// Improvements travel only during a root call and name it: one that arrives
// after its root call has ended (the program may reset the incumbent for the
// next search) is dropped; the exact value was settled at the end.
void network::spread_incumbent(std::uint64_t id, const std::string& value, int hops, int except) {
  if (size_ < 2 || !in_root_) return;
  auto send = [&](int to) {
    if (to == rank_ || to == except) return;
    writer w(begin(to, msg::incumbent));
    w.put(root_number_);
    w.put(id);
    w.put(static_cast<std::uint8_t>(hops < 0 ? 0 : hops));
    w.bytes(value);
  };
  switch (cfg_.incumbent) {
    case spread::broadcast:
      if (hops >= 0) return;  // only from its origin
      for (int r = 0; r < size_; ++r) send(r);
      return;
    case spread::random:
      for (int k = 0; k < cfg_.incumbent_param; ++k) send(choose_victim_rank());
      return;
    case spread::lifeline: {
      int l = cfg_.incumbent_param;
      int z = static_cast<int>(std::ceil(std::pow(static_cast<double>(size_), 1.0 / l) - 1e-9));
      if (z < 2) z = 2;
      int power = 1;
      for (int d = 0; d < l && power < size_; ++d, power *= z) {
        int digit = (rank_ / power) % z;
        int to = rank_ - digit * power + ((digit + 1) % z) * power;
        if (to < size_) send(to);
      }
      return;
    }
  }
}

void network::on_incumbent(int from, reader& r) {
  auto n = r.get<std::uint64_t>("a root call number");
  auto id = r.get<std::uint64_t>("an incumbent id");
  auto hops = r.get<std::uint8_t>("a hop count");
  std::string_view value = r.bytes("an incumbent value");
  if (!in_root_ || n != root_number_) return;  // from a root call that has ended
  bool improved = false;
  try {
    improved = host_.apply_incumbent(id, value);
  } catch (const std::runtime_error& e) {
    throw malformed_message(e.what());
  }
  if (improved && tracing_) note(trace_type::improved, id, from);
  if (improved && cfg_.incumbent != spread::broadcast && hops < 64)
    spread_incumbent(id, std::string(value), hops + 1, from);
}

// [u32 n][(u64 id, bytes value) x n]  incumbents
// [u32 m][(u64 board, u64 key, u64 stamp, bytes value) x m]  board writes
std::string network::pack_shared_state() {
  std::string out;
  writer w(out);
  auto values = host_.incumbent_values();
  w.put(static_cast<std::uint32_t>(values.size()));
  for (auto& [id, bytes] : values) {
    w.put(id);
    w.bytes(bytes);
  }
  auto writes = host_.board_writes();
  w.put(static_cast<std::uint32_t>(writes.size()));
  for (auto& [id, key, stamp, value] : writes) {
    w.put(id);
    w.put(key);
    w.put(stamp);
    w.bytes(value);
  }
  return out;
}

void network::apply_shared_state(std::string_view bytes) {
  reader r(bytes);
  try {
    auto n = r.get<std::uint32_t>("an incumbent count");
    for (std::uint32_t i = 0; i < n; ++i) {
      auto id = r.get<std::uint64_t>("an incumbent id");
      std::string_view v = r.bytes("an incumbent value");
      host_.apply_incumbent(id, v);
    }
    auto m = r.get<std::uint32_t>("a board write count");
    for (std::uint32_t i = 0; i < m; ++i) {
      auto id = r.get<std::uint64_t>("a board id");
      auto key = r.get<std::uint64_t>("a board key");
      auto stamp = r.get<std::uint64_t>("a board stamp");
      std::string_view v = r.bytes("a board value");
      host_.apply_board(id, key, stamp, v);
    }
  } catch (const malformed_message&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw malformed_message(e.what());
  }
}

// --- statistics of several processes ---

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

// --- the bulletin board ---

void network::board_published(std::uint64_t id, std::uint64_t key, std::uint64_t stamp, std::string value) {
  std::lock_guard<std::mutex> g(ev_m_);
  events_.push_back({event::published, nullptr, id, 0, std::move(value), key, stamp});
  bell_.ring_self();
}

void network::on_board(int from, reader& r) {
  (void)from;
  auto n = r.get<std::uint64_t>("a root call number");
  auto id = r.get<std::uint64_t>("a board id");
  auto key = r.get<std::uint64_t>("a board key");
  auto stamp = r.get<std::uint64_t>("a board stamp");
  std::string_view value = r.bytes("a board value");
  if (!in_root_ || n != root_number_) return;  // from a root call that has ended
  try {
    host_.apply_board(id, key, stamp, value);
  } catch (const std::runtime_error& e) {
    throw malformed_message(e.what());
  }
}

}  // namespace tascell::detail::net
