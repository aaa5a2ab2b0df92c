#include "table_arrivals.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>

#include "loop_services.hpp"

namespace tascell::detail {
namespace {
std::atomic<int> update_delay_us{0};  // delay_updates_for_testing
}
void delay_updates_for_testing(int microseconds) { update_delay_us.store(microseconds); }
}  // namespace tascell::detail

namespace tascell::detail::net {
namespace {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void table_message_failed(loop_services& loop, int from, const std::string& what) {
  loop.fatal("distributed table: " + what + " (a message from rank " + std::to_string(from) + ")");
  std::abort();  // fatal() does not return
}

template <class F>
void table_arrivals::for_each_run(int from, std::string_view batch, bool check_positions, F&& f) {
  reader runs(batch);
  std::shared_ptr<table_core> t;
  while (!runs.done()) {
    auto id = runs.get<std::uint32_t>("a table id");
    auto count = runs.get<std::uint32_t>("a count of updates");
    auto op = runs.get<std::uint64_t>("an update type");
    auto bytes = runs.get<std::uint32_t>("an update's size");
    if (!t || t->id != id) t = find(id);
    if (!t)
      table_message_failed(loop_, from, "updates for table #" + std::to_string(id) +
                                            ", which this process does not have (not made yet, or gone)");
    const table_op_info* info = table_op_by_id(op);
    if (!info || info->update_bytes != bytes)
      table_message_failed(loop_, from, "updates of an unknown type for " + t->describe() + " (different binaries?)");
    const std::uint64_t record = sizeof(std::int64_t) + bytes;
    std::string_view recs = runs.raw(static_cast<std::uint64_t>(count) * record, "the records of a run of table updates");
    for (std::uint32_t k = 0; check_positions && k < count; ++k) {
      const char* rec = recs.data() + static_cast<std::size_t>(k) * record;
      std::int64_t pos;
      std::memcpy(&pos, rec, sizeof pos);
      if (!t->owns(pos))
        table_message_failed(loop_, from, "an update of " + t->describe() + " for position " + std::to_string(pos) +
                                              ", which this process does not hold");
    }
    f(*t, *info, recs.data(), count);
  }
}

void table_arrivals::stage_batch(int from, std::string_view batch) {
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

std::int64_t table_arrivals::apply_batch(int from, std::string_view batch) {
  std::int64_t n = 0;
  for_each_run(from, batch, false, [&](table_core& t, const table_op_info& info, const char* recs, std::uint32_t count) {
    info.fn(t, recs, count);
    n += count;
  });
  return n;
}

void table_arrivals::receive_batch(int from, std::string_view batch) {
  if (!inbox_.on()) {
    stage_batch(from, batch);
    apply_staged();
    return;
  }
  // Checked here, once: what is applied below or by the worker is not again.
  for_each_run(from, batch, true, [](table_core&, const table_op_info&, const char*, std::uint32_t) {});
  table_inbox::inbound in;
  in.from = from;
  in.batch.assign(batch);
  // Outside a root call (after the program's writes before the one this
  // message is of: it has begun here): no worker writes.
  if (inbox_.hand_or_apply(std::move(in), [&] { count_applied(apply_batch(from, batch)); })) loop_.call_worker();
}

void table_arrivals::receive_fence(int from, std::uint64_t token) {
  if (inbox_.fence_waits(from, token)) ++fences_deferred_;
  else fence_after_staged(from, token);
}

bool table_arrivals::apply_staged() {
  std::int64_t before = staged_.records();
  if (before == 0) return false;
  // Never waits: a sub-block a worker holds stays staged for the next turn.
  staged_.apply_all(false);
  std::int64_t applied = before - staged_.records();
  // Release: a worker that starts a piece from another process acquires it
  // (acquire_applied()), so what it reads of these entries is ordered after them.
  count_applied(applied);
  if (staged_.empty()) {
    for (auto [from, token] : deferred_fences_) ack_fence(from, token);
    deferred_fences_.clear();
  }
  return applied > 0;
}

void table_arrivals::receive(int from, held_arrivals::message& m) {
  switch (m.kind) {
    case held_arrivals::message::batch: receive_batch(from, m.updates); return;
    case held_arrivals::message::fence: receive_fence(from, m.token); return;
    case held_arrivals::message::read: receive_read(from, m.token, m.id, m.lo, m.hi); return;
  }
}

void table_arrivals::on_updates(int from, reader& r) {
  held_arrivals::message m;
  m.kind = held_arrivals::message::batch;
  m.call = r.get<std::uint64_t>("a root call number");
  std::string_view b = r.bytes("a batch of table updates");
  if (int us = update_delay_us.load(std::memory_order_relaxed); us > 0)
    m.not_before_ns = now_ns() + std::int64_t{us} * 1000;  // delay_updates_for_testing
  if (!held_.hold(from, m, b)) receive_batch(from, b);
}

bool table_arrivals::retry_held() {
  bool any = held_.release(now_ns(), [&](int from, held_arrivals::message& m) { receive(from, m); });
  any |= apply_staged();
  if (!pending_reads_.empty()) any |= answer_reads();
  any |= inbox_.ack_applied([&](int from, std::uint64_t token) { ack_fence(from, token); });
  return any;
}

void table_arrivals::on_fence(int from, reader& r) {
  held_arrivals::message m;
  m.kind = held_arrivals::message::fence;
  m.call = r.get<std::uint64_t>("a root call number");
  m.token = r.get<std::uint64_t>("a fence token");
  if (!held_.hold(from, m)) receive_fence(from, m.token);
}

void table_arrivals::fence_after_staged(int from, std::uint64_t token) {
  if (staged_.empty()) {
    ack_fence(from, token);
  } else {
    deferred_fences_.emplace_back(from, token);
    ++fences_deferred_;
  }
}

void table_arrivals::ack_fence(int from, std::uint64_t token) {
  // Everything `from` sent before the fence has been applied: answer.
  writer w(out_.begin(from, msg::fence_ack));
  w.put(token);
}

void table_arrivals::on_read(int from, reader& r) {
  held_arrivals::message m;
  m.kind = held_arrivals::message::read;
  m.call = r.get<std::uint64_t>("a root call number");
  m.token = r.get<std::uint64_t>("a read token");
  m.id = r.get<std::uint32_t>("a table id");
  m.lo = r.get<std::int64_t>("a position");
  m.hi = r.get<std::int64_t>("a position");
  if (!held_.hold(from, m)) receive_read(from, m.token, m.id, m.lo, m.hi);
}

void table_arrivals::receive_read(int from, std::uint64_t token, std::uint32_t id, std::int64_t lo, std::int64_t hi) {
  std::shared_ptr<table_core> t = find(id);
  if (!t) table_message_failed(loop_, from, "a read of table #" + std::to_string(id) + ", which this process does not have");
  if (lo > hi || !t->owns(lo) || (hi > lo && !t->owns(hi - 1)))
    table_message_failed(loop_, from, "a read of entries " + t->describe() + " does not hold here");
  if (inbox_.on()) {
    table_inbox::inbound in;
    in.from = from;
    in.t = t;
    in.token = token;
    in.lo = lo;
    in.hi = hi;
    // Outside a root call (after the program's writes before the one this
    // message is of: it has begun here): no worker writes.
    if (inbox_.hand_or_apply(std::move(in), [&] { send_entries(from, token, copy_entries(*t, lo, hi)); }))
      loop_.call_worker();
    return;
  }
  pending_reads_.push_back({from, token, std::move(t), lo, hi});
  answer_reads();
}

void table_arrivals::send_entries(int to, std::uint64_t token, const std::string& bytes) {
  writer w(out_.begin(to, msg::table_entries));
  w.put(token);
  w.bytes(bytes);
}

bool table_arrivals::answer_reads() {
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

bool table_arrivals::copy_locked(table_core& t, std::int64_t lo, std::int64_t hi, std::string& out) {
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

}  // namespace tascell::detail::net
