#include "table_protocol.hpp"

#include <cstdlib>
#include <chrono>
#include <cstring>
#include <thread>

#include "loop_services.hpp"

namespace tascell::detail::net {

void table_protocol::push(item it) {
  it.call = arrivals_.held().calls_begun();
  {
    std::lock_guard<std::mutex> g(m_);
    queue_.push_back(std::move(it));
  }
  loop_.wake();
}

void table_protocol::hand(int to, std::string batch, std::int64_t updates) {
  item it;
  it.kind = item::batch;
  it.to = to;
  it.bytes = std::move(batch);
  it.updates = updates;
  push(std::move(it));
}

void table_protocol::fence(const std::vector<int>& to, std::atomic<bool>* done) {
  item it;
  it.kind = item::fence;
  it.dests = to;
  it.token = 0;  // assigned by the message thread
  it.bytes.assign(reinterpret_cast<const char*>(&done), sizeof done);
  waiting_.fetch_add(1, std::memory_order_relaxed);
  push(std::move(it));
}

std::map<int, std::string> table_protocol::exchange(std::uint32_t key, const std::string& mine) {
  item it;
  it.kind = item::made;
  it.id = key;
  it.bytes = mine;
  waiting_.fetch_add(1, std::memory_order_relaxed);
  push(std::move(it));
  std::unique_lock<std::mutex> g(m_);
  cv_.wait(g, [&] { return made_[key].size() + 1 >= static_cast<std::size_t>(size_); });
  waiting_.fetch_sub(1, std::memory_order_relaxed);
  std::map<int, std::string> all = std::move(made_[key]);
  made_.erase(key);
  all[rank_] = mine;
  return all;
}

std::string table_protocol::made(std::uint32_t id, const std::string& description, int& differing_rank) {
  for (auto& [rank, d] : exchange(id, description))
    if (d != description) {
      differing_rank = rank;
      return d;
    }
  return {};
}

std::string table_protocol::read(int owner, std::uint32_t id, std::int64_t lo, std::int64_t hi) {
  item it;
  it.kind = item::read;
  it.to = owner;
  it.id = id;
  it.lo = lo;
  it.hi = hi;
  std::uint64_t token;
  {
    std::lock_guard<std::mutex> g(m_);
    token = next_token_++;
  }
  it.token = token;
  waiting_.fetch_add(1, std::memory_order_relaxed);
  push(std::move(it));
  std::unique_lock<std::mutex> g(m_);
  if (inbox_.on()) {
    // The owner may be reading from this process at the same time: serve
    // what the message thread hands this worker while waiting.
    while (read_done_.count(token) == 0) {
      g.unlock();
      if (inbound_ready()) serve_inbound();
      else std::this_thread::yield();
      g.lock();
    }
  }
  cv_.wait(g, [&] { return read_done_.count(token) != 0; });
  waiting_.fetch_sub(1, std::memory_order_relaxed);
  std::string bytes = std::move(read_done_[token]);
  read_done_.erase(token);
  return bytes;
}

void table_protocol::blocks_wait(const std::vector<int>& ranks) {
  item it;
  it.kind = item::blocks;
  it.dests = ranks;
  push(std::move(it));
}

bool table_protocol::take_handed() {
  std::vector<item> items;
  {
    std::lock_guard<std::mutex> g(m_);
    if (queue_.empty()) return false;
    items.swap(queue_);
  }
  for (item& it : items) {
    switch (it.kind) {
      case item::batch: {
        writer w(out_.begin(it.to, msg::updates));
        w.put(it.call);
        w.bytes(it.bytes);
        sent_.updates.fetch_add(it.updates, std::memory_order_relaxed);
        sent_.batches.fetch_add(1, std::memory_order_relaxed);
        break;
      }
      case item::fence: {
        std::atomic<bool>* done;
        std::memcpy(&done, it.bytes.data(), sizeof done);
        std::uint64_t token;
        {
          std::lock_guard<std::mutex> g(m_);
          token = next_token_++;
        }
        fences_[token] = {static_cast<int>(it.dests.size()), done};
        for (int to : it.dests) {
          writer w(out_.begin(to, msg::fence));
          w.put(it.call);
          w.put(token);
          sent_.fences.fetch_add(1, std::memory_order_relaxed);
        }
        break;
      }
      case item::made:
        for (int to = 0; to < size_; ++to) {
          if (to == rank_) continue;
          writer w(out_.begin(to, msg::table_made));
          w.put(it.id);
          w.bytes(it.bytes);
        }
        break;
      case item::blocks:
        for (int to : it.dests) out_.begin(to, msg::block_waits);
        break;
      case item::entries:
        arrivals_.send_entries(it.to, it.token, it.bytes);
        break;
      case item::read: {
        writer w(out_.begin(it.to, msg::table_read));
        w.put(it.call);
        w.put(it.token);
        w.put(it.id);
        w.put(it.lo);
        w.put(it.hi);
        break;
      }
    }
  }
  return true;
}

void table_protocol::on_made(int from, reader& r) {
  auto id = r.get<std::uint32_t>("a table id");
  std::string d(r.bytes("a table's description"));
  {
    std::lock_guard<std::mutex> g(m_);
    made_[id][from] = std::move(d);
  }
  cv_.notify_all();
}

void table_protocol::worker_in(bool in) {
  if (in) {
    inbox_.enter();
    // What arrived for this call waits no longer (held_arrivals.hpp).
    arrivals_.held().begin_call();
    loop_.wake();
    return;
  }
  while (!inbox_.try_leave()) serve_inbound();
}

void table_protocol::serve_inbound() {
  std::int64_t batches = 0, updates = 0;
  for (table_inbox::inbound& in : inbox_.take()) {
    if (in.t) {
      item it;
      it.kind = item::entries;
      it.to = in.from;
      it.token = in.token;
      it.bytes = copy_entries(*in.t, in.lo, in.hi);
      push(std::move(it));
      continue;
    }
    updates += arrivals_.apply_batch(in.from, in.batch);
    ++batches;
  }
  if (batches == 0) return;
  arrivals_.count_applied(updates);
  inbox_.applied(batches);
  loop_.wake();  // fences may wait for these
}

void table_protocol::on_fence_ack(int from, reader& r) {
  auto token = r.get<std::uint64_t>("a fence token");
  auto it = fences_.find(token);
  if (it == fences_.end()) table_message_failed(loop_, from, "an answer to an unknown fence");
  if (--it->second.left == 0) {
    it->second.done->store(true, std::memory_order_release);
    fences_.erase(it);
    waiting_.fetch_sub(1, std::memory_order_relaxed);
  }
}

void table_protocol::on_entries(int from, reader& r) {
  auto token = r.get<std::uint64_t>("a read token");
  std::string bytes(r.bytes("table entries"));
  (void)from;
  {
    std::lock_guard<std::mutex> g(m_);
    read_done_[token] = std::move(bytes);
  }
  cv_.notify_all();
}

}  // namespace tascell::detail::net
