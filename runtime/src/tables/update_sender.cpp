// A worker's table updates for other processes: its batches, one per
// destination, handed to the message thread when full; and settling (the
// worker waits until every update it handed over has been applied).
//
// A batch is runs of updates of one type to one table: a run header (table
// id, count, update type, update size) and then count records (position,
// update bytes), so a long stream of one kind of update costs 8 bytes plus
// the update each (net/table_protocol.hpp). Updates of this process's own
// entries are applied at once (table.hpp).
//
// The buffers are the worker thread's own (thread_local): a worker is one
// thread, and whichever thread makes root calls is worker 0 during each;
// every root call ends settled, so nothing is left in them between calls.
#include <sched.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../net/table_protocol.hpp"
#include "table_process.hpp"
#include "table_registry.hpp"

namespace tascell::detail {

namespace {

// Bytes at which a batch is handed over: a few thousand small updates.
constexpr std::size_t batch_bytes = 32 * 1024;

struct run_header {
  std::uint32_t table;
  std::uint32_t count;
  std::uint64_t op;
  std::uint32_t bytes;
};
constexpr std::size_t header_bytes = 4 + 4 + 8 + 4;

// A batch being filled: a buffer of batch_bytes plus room for one run
// header and one update (updates are at most 4 KiB: table.hpp), written
// with plain copies; its bytes are copied into the message when handed.
struct destination {
  static constexpr std::size_t room = batch_bytes + header_bytes + 8 + 4096;
  std::unique_ptr<char[]> buf;
  std::size_t used = 0;
  std::size_t run_at = 0;    // the open run's header in buf
  std::uint32_t run_count = 0;  // updates in the open run (0: no open run)
  std::uint32_t run_table = 0;
  std::uint64_t run_op = 0;
  std::int64_t updates = 0;  // in buf
  bool sent = false;         // handed a batch since the last settle
  // Writes the open run's count into its header.
  void close_run() {
    if (run_count) std::memcpy(buf.get() + run_at + 4, &run_count, 4);
    run_count = 0;
  }
};

struct sender {
  std::vector<destination> to;
  std::atomic<bool> fence_done{false};
};
thread_local sender mine;

net::table_protocol& protocol() { return table_process::protocol(); }

void hand(int rank, destination& d) {
  d.close_run();
  protocol().hand(rank, std::string(d.buf.get(), d.used), d.updates);
  d.used = 0;
  d.updates = 0;
  d.sent = true;
}

}  // namespace

void post_update(table_core& t, int owner, std::uint64_t op, std::int64_t pos, const void* update,
                 std::uint32_t bytes) {
  worker* w = table_process::current_worker();
  if (!w) [[unlikely]]
    table_fail(t, t.shape.to_index(pos),
               "is owned by rank " + std::to_string(owner) +
                   ": apply() to another process's entry must run inside a @task (a root call), where "
                   "its completion can be awaited");
  if (static_cast<std::size_t>(owner) >= mine.to.size()) [[unlikely]]
    mine.to.resize(static_cast<std::size_t>(t.shape.procs));
  destination& d = mine.to[static_cast<std::size_t>(owner)];
  if (!d.run_count || d.run_table != t.id || d.run_op != op) [[unlikely]] {
    if (!d.buf) d.buf = std::make_unique<char[]>(destination::room);
    d.close_run();
    d.run_at = d.used;
    d.run_table = t.id;
    d.run_op = op;
    run_header h{t.id, 0, op, bytes};
    char* o = d.buf.get() + d.used;
    std::memcpy(o, &h.table, 4);
    std::memcpy(o + 4, &h.count, 4);
    std::memcpy(o + 8, &h.op, 8);
    std::memcpy(o + 16, &h.bytes, 4);
    d.used += header_bytes;
  }
  char* o = d.buf.get() + d.used;
  std::memcpy(o, &pos, sizeof pos);
  std::memcpy(o + sizeof pos, update, bytes);
  d.used += sizeof pos + bytes;
  ++d.run_count;
  ++d.updates;
  w->unsettled = true;
  if (d.used >= batch_bytes) hand(owner, d);
}

namespace {
std::atomic<bool> settling{true};  // settle_updates_for_testing
}  // namespace

void settle_updates_for_testing(bool on) { settling.store(on); }

void serve_table_inbound() {
  if (table_process::processes() < 2) return;
  net::table_protocol& p = protocol();
  if (p.inbound_ready()) p.serve_inbound();
}

void settle_updates(worker* w) {
  std::vector<int> dests;
  for (std::size_t r = 0; r < mine.to.size(); ++r) {
    destination& d = mine.to[r];
    if (d.updates > 0) hand(static_cast<int>(r), d);
    if (d.sent) dests.push_back(static_cast<int>(r));
    d.sent = false;
  }
  w->unsettled = false;
  if (dests.empty() || !settling.load(std::memory_order_relaxed)) return;
  mine.fence_done.store(false, std::memory_order_relaxed);
  protocol().fence(dests, &mine.fence_done);
  // One round trip to each process updated; the message threads answer
  // whatever their workers do; with one worker a process, this one applies
  // what it is handed meanwhile (its owner may be settling towards it).
  for (unsigned spins = 0; !mine.fence_done.load(std::memory_order_acquire); ++spins) {
    serve_table_inbound();
    if (spins < 256) __builtin_ia32_pause();
    else sched_yield();
  }
}

void announce_blocks(const std::vector<int>& ranks) {
  if (!ranks.empty()) protocol().blocks_wait(ranks);
}

std::shared_ptr<const table_window> fetch_window(table_core& t, std::int64_t lo, std::int64_t hi) {
  auto win = std::make_shared<table_window>();
  win->lo = lo;
  win->hi = hi;
  int owner = t.shape.owner_of_pos(lo);
  if (hi > lo && t.shape.owner_of_pos(hi - 1) != owner)
    table_fail(t, t.shape.to_index(lo), "starts a range of entries that spans several processes");
  if (owner == t.shape.rank) {
    // Under the sub-blocks' locks, as their writers hold them.
    std::int64_t first = hi > lo && t.guarded ? t.sub_of(lo) : 0, last = hi > lo && t.guarded ? t.sub_of(hi - 1) : -1;
    for (std::int64_t s = first; s <= last; ++s) t.lock_sub(s);
    std::string b = copy_entries(t, lo, hi);
    for (std::int64_t s = first; s <= last; ++s) t.unlock_sub(s);
    win->bytes.assign(b.begin(), b.end());
    return win;
  }
  // What this worker updated is applied before it reads.
  if (worker* w = table_process::current_worker(); w && w->unsettled) settle_updates(w);
  std::string b = protocol().read(owner, t.id, lo, hi);
  if (b.size() != static_cast<std::size_t>(hi - lo) * t.entry_bytes)
    table_fail(t, t.shape.to_index(lo), "came back from rank " + std::to_string(owner) + " with the wrong size");
  win->bytes.assign(b.begin(), b.end());
  return win;
}

}  // namespace tascell::detail
