#include "table_protocol.hpp"

#include <cstdlib>
#include <chrono>
#include <cstring>
#include <thread>

#include "loop_services.hpp"

namespace tascell::detail::net {

void table_protocol::push(item it) {
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
  if (worker_applies()) {
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

}  // namespace tascell::detail::net

namespace tascell::detail {
namespace {
std::atomic<int> update_delay_us{0};  // delay_updates_for_testing
}
void delay_updates_for_testing(int microseconds) { update_delay_us.store(microseconds); }
}  // namespace tascell::detail

namespace tascell::detail::net {

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
        w.bytes(it.bytes);
        updates_sent_.fetch_add(it.updates, std::memory_order_relaxed);
        batches_sent_.fetch_add(1, std::memory_order_relaxed);
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
          w.put(token);
          fences_sent_.fetch_add(1, std::memory_order_relaxed);
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
        send_entries(it.to, it.token, it.bytes);
        break;
      case item::read: {
        writer w(out_.begin(it.to, msg::table_read));
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

std::shared_ptr<table_core> table_protocol::find(std::uint32_t id) const { return find_ ? find_(id) : nullptr; }

void table_protocol::fail(int from, const std::string& what) {
  loop_.fatal("distributed table: " + what + " (a message from rank " + std::to_string(from) + ")");
  std::abort();  // fatal() does not return
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

template <class F>
void table_protocol::for_each_run(int from, std::string_view batch, bool check_positions, F&& f) {
  reader runs(batch);
  std::shared_ptr<table_core> t;
  while (!runs.done()) {
    auto id = runs.get<std::uint32_t>("a table id");
    auto count = runs.get<std::uint32_t>("a count of updates");
    auto op = runs.get<std::uint64_t>("an update type");
    auto bytes = runs.get<std::uint32_t>("an update's size");
    if (!t || t->id != id) t = find(id);
    if (!t) fail(from, "updates for table #" + std::to_string(id) + ", which this process does not have (not made yet, or gone)");
    const table_op_info* info = table_op_by_id(op);
    if (!info || info->update_bytes != bytes)
      fail(from, "updates of an unknown type for " + t->describe() + " (different binaries?)");
    const std::uint64_t record = sizeof(std::int64_t) + bytes;
    std::string_view recs = runs.raw(static_cast<std::uint64_t>(count) * record, "the records of a run of table updates");
    for (std::uint32_t k = 0; check_positions && k < count; ++k) {
      const char* rec = recs.data() + static_cast<std::size_t>(k) * record;
      std::int64_t pos;
      std::memcpy(&pos, rec, sizeof pos);
      if (!t->owns(pos))
        fail(from, "an update of " + t->describe() + " for position " + std::to_string(pos) +
                       ", which this process does not hold");
    }
    f(*t, *info, recs.data(), count);
  }
}

void table_protocol::stage_batch(int from, std::string_view batch) {
  for_each_run(from, batch, true, [&](table_core& t, const table_op_info& info, const char* recs, std::uint32_t count) {
    const std::size_t record = sizeof(std::int64_t) + info.update_bytes;
    for (std::uint32_t k = 0; k < count; ++k) {
      const char* rec = recs + k * record;
      std::int64_t pos;
      std::memcpy(&pos, rec, sizeof pos);
      staged_.add(t, info.fn, pos, rec + sizeof pos, info.update_bytes);
    }
  });
}

std::int64_t table_protocol::apply_batch(int from, std::string_view batch) {
  std::int64_t n = 0;
  for_each_run(from, batch, false, [&](table_core& t, const table_op_info& info, const char* recs, std::uint32_t count) {
    info.fn(t, recs, count);
    n += count;
  });
  return n;
}

void table_protocol::receive_batch(int from, std::string_view batch) {
  if (!worker_applies()) {
    stage_batch(from, batch);
    apply_staged();
    return;
  }
  // Checked here, once: what is applied below or by the worker is not again.
  for_each_run(from, batch, true, [](table_core&, const table_op_info&, const char*, std::uint32_t) {});
  {
    std::lock_guard<std::mutex> g(in_m_);
    if (!worker_in_) {
      // No root call here: nobody else writes (under in_m_, so the worker
      // that enters the next root call sees these entries).
      updates_applied_.fetch_add(apply_batch(from, batch), std::memory_order_release);
      return;
    }
    inbound in;
    in.from = from;
    in.batch.assign(batch);
    inbound_.push_back(std::move(in));
    ++handed_in_;
    inbound_ready_.store(true, std::memory_order_release);
  }
  loop_.call_worker();
}

void table_protocol::receive_fence(int from, std::uint64_t token) {
  if (worker_applies() && applied_in_.load(std::memory_order_acquire) < handed_in_) {
    worker_fences_.push_back({from, token, handed_in_});
    ++fences_deferred_;
  } else {
    fence_after_staged(from, token);
  }
}

void table_protocol::worker_in(bool in) {
  if (in) {
    std::lock_guard<std::mutex> g(in_m_);
    worker_in_ = true;
    return;
  }
  for (;;) {
    {
      std::lock_guard<std::mutex> g(in_m_);
      if (inbound_.empty()) {
        worker_in_ = false;
        return;
      }
    }
    serve_inbound();
  }
}

void table_protocol::serve_inbound() {
  std::vector<inbound> items;
  {
    std::lock_guard<std::mutex> g(in_m_);
    items.swap(inbound_);
    inbound_ready_.store(false, std::memory_order_relaxed);
  }
  std::int64_t batches = 0, updates = 0;
  for (inbound& in : items) {
    if (in.t) {
      item it;
      it.kind = item::entries;
      it.to = in.from;
      it.token = in.token;
      it.bytes = copy_entries(*in.t, in.lo, in.hi);
      push(std::move(it));
      continue;
    }
    updates += apply_batch(in.from, in.batch);
    ++batches;
  }
  if (batches == 0) return;
  updates_applied_.fetch_add(updates, std::memory_order_release);
  applied_in_.fetch_add(batches, std::memory_order_release);
  loop_.wake();  // fences may wait for these
}

bool table_protocol::apply_staged() {
  std::int64_t before = staged_.records();
  if (before == 0) return false;
  // Never waits: a sub-block a worker holds stays staged for the next turn.
  staged_.apply_all(false);
  std::int64_t applied = before - staged_.records();
  // Release: a worker that starts a piece from another process acquires it
  // (acquire_applied()), so what it reads of these entries is ordered after them.
  updates_applied_.fetch_add(applied, std::memory_order_release);
  if (staged_.empty()) {
    for (auto [from, token] : deferred_fences_) ack_fence(from, token);
    deferred_fences_.clear();
  }
  return applied > 0;
}

namespace {
std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

void table_protocol::on_updates(int from, reader& r) {
  std::string_view b = r.bytes("a batch of table updates");
  auto& q = held_[from];
  if (int us = update_delay_us.load(std::memory_order_relaxed); us > 0) {
    // delay_updates_for_testing: applied no sooner than `us` from now.
    q.push_back({std::string(b), 0, now_ns() + std::int64_t{us} * 1000});
    ++held_count_;
    return;
  }
  if (!q.empty()) {
    q.push_back({std::string(b), 0, 0});
    ++held_count_;
    return;
  }
  receive_batch(from, b);
}

bool table_protocol::retry_held() {
  bool any = false;
  if (held_count_ > 0) {
    for (auto& [from, q] : held_) {
      std::size_t k = 0;
      for (; k < q.size(); ++k) {
        if (q[k].not_before_ns && now_ns() < q[k].not_before_ns) break;
        if (q[k].fence) receive_fence(from, q[k].fence);
        else receive_batch(from, q[k].updates);
      }
      if (k > 0) {
        q.erase(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(k));
        held_count_ -= k;
        any = true;
      }
    }
  }
  any |= apply_staged();
  if (!pending_reads_.empty()) any |= answer_reads();
  if (!worker_fences_.empty()) {
    std::int64_t applied = applied_in_.load(std::memory_order_acquire);
    std::size_t k = 0;
    for (; k < worker_fences_.size() && worker_fences_[k].batches <= applied; ++k)
      ack_fence(worker_fences_[k].from, worker_fences_[k].token);
    worker_fences_.erase(worker_fences_.begin(), worker_fences_.begin() + static_cast<std::ptrdiff_t>(k));
    any |= k > 0;
  }
  return any;
}

void table_protocol::on_fence(int from, reader& r) {
  auto token = r.get<std::uint64_t>("a fence token");
  auto& q = held_[from];
  if (!q.empty()) {  // after the updates that wait
    q.push_back({{}, token, 0});
    ++held_count_;
    return;
  }
  receive_fence(from, token);
}

void table_protocol::fence_after_staged(int from, std::uint64_t token) {
  if (staged_.empty()) {
    ack_fence(from, token);
  } else {
    deferred_fences_.emplace_back(from, token);
    ++fences_deferred_;
  }
}

void table_protocol::ack_fence(int from, std::uint64_t token) {
  // Everything `from` sent before the fence has been applied: answer.
  writer w(out_.begin(from, msg::fence_ack));
  w.put(token);
}

void table_protocol::on_fence_ack(int from, reader& r) {
  auto token = r.get<std::uint64_t>("a fence token");
  auto it = fences_.find(token);
  if (it == fences_.end()) fail(from, "an answer to an unknown fence");
  if (--it->second.left == 0) {
    it->second.done->store(true, std::memory_order_release);
    fences_.erase(it);
    waiting_.fetch_sub(1, std::memory_order_relaxed);
  }
}

void table_protocol::on_read(int from, reader& r) {
  auto token = r.get<std::uint64_t>("a read token");
  auto id = r.get<std::uint32_t>("a table id");
  auto lo = r.get<std::int64_t>("a position");
  auto hi = r.get<std::int64_t>("a position");
  std::shared_ptr<table_core> t = find(id);
  if (!t) fail(from, "a read of table #" + std::to_string(id) + ", which this process does not have");
  if (lo > hi || !t->owns(lo) || (hi > lo && !t->owns(hi - 1)))
    fail(from, "a read of entries " + t->describe() + " does not hold here");
  if (worker_applies()) {
    {
      std::lock_guard<std::mutex> g(in_m_);
      if (!worker_in_) {
        send_entries(from, token, copy_entries(*t, lo, hi));  // no root call here: nobody else writes
        return;
      }
      inbound in;
      in.from = from;
      in.t = std::move(t);
      in.token = token;
      in.lo = lo;
      in.hi = hi;
      inbound_.push_back(std::move(in));
      inbound_ready_.store(true, std::memory_order_release);
    }
    loop_.call_worker();
    return;
  }
  pending_reads_.push_back({from, token, std::move(t), lo, hi});
  answer_reads();
}

void table_protocol::send_entries(int to, std::uint64_t token, const std::string& bytes) {
  writer w(out_.begin(to, msg::table_entries));
  w.put(token);
  w.bytes(bytes);
}

bool table_protocol::answer_reads() {
  bool any = false;
  for (std::size_t k = 0; k < pending_reads_.size();) {
    pending_read& pr = pending_reads_[k];
    std::string bytes;
    if (!copy_locked(*pr.t, pr.lo, pr.hi, bytes)) {
      ++k;  // a worker holds one of the sub-blocks: next turn
      continue;
    }
    send_entries(pr.from, pr.token, bytes);
    pending_reads_.erase(pending_reads_.begin() + static_cast<std::ptrdiff_t>(k));
    any = true;
  }
  return any;
}

bool table_protocol::copy_locked(table_core& t, std::int64_t lo, std::int64_t hi, std::string& out) {
  if (hi <= lo || !t.guarded) {
    out = copy_entries(t, lo, hi);
    return true;
  }
  // The entries under their sub-blocks' locks (workers write them under the
  // same locks), every lock or none: never waiting for one.
  std::int64_t first = t.sub_of(lo), last = t.sub_of(hi - 1);
  for (std::int64_t s = first; s <= last; ++s)
    if (!t.try_lock_sub(s)) {
      for (std::int64_t u = first; u < s; ++u) t.unlock_sub(u);
      return false;
    }
  out = copy_entries(t, lo, hi);
  for (std::int64_t s = first; s <= last; ++s) t.unlock_sub(s);
  return true;
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
