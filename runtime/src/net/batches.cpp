#include "batches.hpp"

#include <algorithm>
#include <cstring>

#include "host.hpp"
#include "worker_face.hpp"

namespace tascell::detail::net {

void batches::place(int size, transport* link) {
  size_ = size;
  link_ = link;
  out_.resize(static_cast<std::size_t>(size));
  out_count_.assign(static_cast<std::size_t>(size), 0);
  loud_.assign(static_cast<std::size_t>(size), 0);
}

bool batches::begun() const {
  return std::any_of(out_.begin(), out_.end(), [](const std::string& b) { return !b.empty(); });
}

int batches::load_here() const {
  if (!attached_.load(std::memory_order_acquire)) return 0;
  int n = 0;
  for (int i = 0; i < host_.workers(); ++i)
    if (host_.worker(i)->busy.load(std::memory_order_relaxed)) ++n;
  return n;
}

std::string& batches::begin(int to, msg type) {
  std::string& b = start_message(to, type);
  loud_[static_cast<std::size_t>(to)] = 1;
  return b;
}

std::string& batches::begin_quiet(int to, msg type) { return start_message(to, type); }

std::string& batches::start_message(int to, msg type) {
  std::string& b = out_[static_cast<std::size_t>(to)];
  if (seed_loop_ && !b.empty()) queue_batch(to);  // the seed's loop: one message a send
  if (b.empty()) {
    writer w(b);
    w.put(batch_magic);
    w.put(static_cast<std::int32_t>(load_here()));
  }
  // Messages need no length: each is its type and then its fields, and
  // byte strings carry their own lengths.
  writer w(b);
  w.put(type);
  ++out_count_[static_cast<std::size_t>(to)];
  messages_sent_.fetch_add(1, std::memory_order_relaxed);
  return b;
}

void batches::queue_batch(int to) {
  std::string& b = out_[static_cast<std::size_t>(to)];
  std::int64_t& n = out_count_[static_cast<std::size_t>(to)];
  if (trace_.on()) [[unlikely]]
    trace_.note(trace_type::send, 0, to, n, static_cast<std::int64_t>(b.size()));
  n = 0;
  // Only messages that need not wake the receiver: it finds them at its
  // next turn (the header says so, so that it does not count them as rung).
  if (!loud_[static_cast<std::size_t>(to)]) {
    std::uint32_t quiet = quiet_batch_magic;
    std::memcpy(b.data(), &quiet, sizeof quiet);
  }
  loud_[static_cast<std::size_t>(to)] = 0;
  to_send_.emplace_back(to, std::move(b));
  b.clear();
}

bool batches::flush() {
  bool any = false;
  for (int to = 0; to < size_; ++to) {
    if (out_[static_cast<std::size_t>(to)].empty()) continue;
    queue_batch(to);
    any = true;
  }
  // Several sends in flight, or one at a time in the seed's loop.
  while (!to_send_.empty() && (!seed_loop_ || !link_->sending())) {
    auto [to, buf] = std::move(to_send_.front());
    to_send_.pop_front();
    send(to, std::move(buf));
    any = true;
  }
  return any;
}

void batches::send(int to, std::string buf) {
  bytes_sent_.fetch_add(static_cast<std::int64_t>(buf.size()), std::memory_order_relaxed);
  batches_sent_.fetch_add(1, std::memory_order_relaxed);
  bool rings = batch_rings(buf);
  link_->send(to, std::move(buf));
  if (rings) bell_.ring(to);
}

}  // namespace tascell::detail::net
