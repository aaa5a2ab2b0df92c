#include "root_protocol.hpp"

#include <cmath>
#include <utility>

namespace tascell::detail::net {

void root_protocol::begin_here() {
  in_root_ = true;
  ++number_;
  log_.note(protocol_log::step::root_begin, number_);
  local_ended_ = ack_sent_ = false;
  acks_ = 0;
  done_here_ = false;
  if (rank_ != 0 && !pending_done_.empty() && pending_done_number_ == number_) {
    // Rank 0 finished this root call before this process began it.
    outcome_ = std::move(pending_done_);
    pending_done_.clear();
    done_here_ = true;
    host_.mark_root_done();
  }
  early_.begin(number_, [&](int from, std::uint64_t id, int hops, std::string_view value) {
    return apply_incumbent(from, id, hops, value);
  });
}

void root_protocol::end_here(std::string outcome) {
  local_ended_ = true;
  if (rank_ != 0) return;
  outcome_ = std::move(outcome);
  done_here_ = true;
  for (int r = 1; r < size_; ++r) {
    writer w(out_.begin(r, msg::root_done));
    w.put(number_);
    w.bytes(outcome_);
  }
}

bool root_protocol::finish_here() {
  if (rank_ != 0) {
    if (ack_sent_) return false;
    ack_sent_ = true;
    writer w(out_.begin(0, msg::root_ack));
    w.put(number_);
    w.bytes(pack_shared_state());
    return true;
  }
  if (acks_ < size_ - 1) return false;
  std::string values = pack_shared_state();
  for (int r = 1; r < size_; ++r) {
    writer w(out_.begin(r, msg::root_finish));
    w.put(number_);
    w.bytes(values);
  }
  over();
  return true;
}

void root_protocol::over() {
  in_root_ = false;
  log_.note(protocol_log::step::root_end, number_);
  over_.set();
}

std::string root_protocol::wait_over() {
  over_.wait();
  return outcome_;
}

bool root_protocol::take_over(std::string& outcome) {
  if (!over_.take()) return false;
  outcome = outcome_;
  return true;
}

void root_protocol::on_done(int from, reader& r) {
  auto n = r.get<std::uint64_t>("a root call number");
  std::string_view outcome = r.bytes("the root call's outcome");
  if (from != 0 || outcome.empty()) throw malformed_message("a root call's end not from rank 0");
  if (in_root_ && n == number_ && !done_here_) {
    outcome_ = std::string(outcome);
    done_here_ = true;
    host_.mark_root_done();
  } else if (!in_root_ && n == number_ + 1) {
    pending_done_ = std::string(outcome);
    pending_done_number_ = n;
  } else {
    throw malformed_message("the end of root call " + std::to_string(n) + " while this process is at " +
                            std::to_string(number_) + " (every process must make the same root calls)");
  }
}

void root_protocol::on_ack(int, reader& r) {
  auto n = r.get<std::uint64_t>("a root call number");
  std::string_view values = r.bytes("incumbents");
  if (rank_ != 0 || !in_root_ || !done_here_ || n != number_)
    throw malformed_message("an unexpected acknowledgement of root call " + std::to_string(n));
  apply_shared_state(values);
  ++acks_;
}

void root_protocol::on_finish(int from, reader& r) {
  auto n = r.get<std::uint64_t>("a root call number");
  std::string_view values = r.bytes("incumbents");
  if (from != 0 || !in_root_ || !ack_sent_ || n != number_)
    throw malformed_message("an unexpected finish of root call " + std::to_string(n));
  apply_shared_state(values);
  host_.board_writes();  // these entries are settled: not to be sent again
  over();
}

// --- incumbents ---

int root_protocol::random_other() {
  rng_ ^= rng_ << 13;
  rng_ ^= rng_ >> 7;
  rng_ ^= rng_ << 17;
  int v = static_cast<int>(rng_ % static_cast<std::uint64_t>(size_ - 1));
  return v >= rank_ ? v + 1 : v;
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
void root_protocol::spread_incumbent(std::uint64_t id, const std::string& value, int hops, int except) {
  if (size_ < 2 || !in_root_) return;
  auto send = [&](int to) {
    if (to == rank_ || to == except) return;
    writer w(out_.begin(to, msg::incumbent));
    w.put(number_);
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
      for (int k = 0; k < cfg_.incumbent_param; ++k) send(random_other());
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

bool root_protocol::on_incumbent(int from, reader& r, std::uint64_t& id) {
  auto n = r.get<std::uint64_t>("a root call number");
  id = r.get<std::uint64_t>("an incumbent id");
  auto hops = r.get<std::uint8_t>("a hop count");
  std::string_view value = r.bytes("an incumbent value");
  if (!in_root_ && n == number_ + 1) {
    // From a process that began the next root call before this one did.
    early_.hold(from, n, id, hops, value);
    return false;
  }
  if (!in_root_ || n != number_) return false;  // from a root call that has ended
  return apply_incumbent(from, id, hops, value);
}

bool root_protocol::apply_incumbent(int from, std::uint64_t id, int hops, std::string_view value) {
  bool improved = false;
  try {
    improved = host_.apply_incumbent(id, value);
  } catch (const std::runtime_error& e) {
    throw malformed_message(e.what());
  }
  if (improved && cfg_.incumbent != spread::broadcast && hops < 64)
    spread_incumbent(id, std::string(value), hops + 1, from);
  return improved;
}

// --- the bulletin board ---

void root_protocol::publish(std::uint64_t id, std::uint64_t key, std::uint64_t stamp, const std::string& value) {
  if (!in_root_) return;  // between root calls a write stays here
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) continue;
    writer w(out_.begin(r, msg::board));
    w.put(number_);
    w.put(id);
    w.put(key);
    w.put(stamp);
    w.bytes(value);
  }
}

void root_protocol::on_board(int, reader& r) {
  auto n = r.get<std::uint64_t>("a root call number");
  auto id = r.get<std::uint64_t>("a board id");
  auto key = r.get<std::uint64_t>("a board key");
  auto stamp = r.get<std::uint64_t>("a board stamp");
  std::string_view value = r.bytes("a board value");
  if (!in_root_ || n != number_) return;  // from a root call that has ended
  try {
    host_.apply_board(id, key, stamp, value);
  } catch (const std::runtime_error& e) {
    throw malformed_message(e.what());
  }
}

// [u32 n][(u64 id, bytes value) x n]  incumbents
// [u32 m][(u64 board, u64 key, u64 stamp, bytes value) x m]  board writes
std::string root_protocol::pack_shared_state() {
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

void root_protocol::apply_shared_state(std::string_view bytes) {
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

}  // namespace tascell::detail::net
