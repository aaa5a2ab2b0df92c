// What other processes send for this process's table entries, on the
// message thread: UPDATES (applied in order of arrival), FENCE (answered
// once everything its sender sent before it is applied) and READ (answered
// with the entries). With several workers in the process, the message
// thread applies and copies under the sub-blocks' locks (table_core.hpp)
// and never waits for one: a batch is sorted by sub-block (sub_batches.hpp)
// and what a worker's lock holds stays for the next turn, and so do the
// fences after it and the reads of it. With one worker, table_inbox.hpp.
// A message of a root call this process has not begun yet, or one held for
// a test, waits first (held_arrivals.hpp), and what its sender sent after it
// waits behind it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frame.hpp"
#include "held_arrivals.hpp"
#include "outbox.hpp"
#include "sub_batches.hpp"
#include "table_inbox.hpp"

namespace tascell::detail::net {

class loop_services;

// Where this process's tables are found by id.
using table_finder = std::function<std::shared_ptr<table_core>(std::uint32_t)>;

// Ends the run: a table message from `from` was wrong (loop_services::fatal).
[[noreturn]] void table_message_failed(loop_services& loop, int from, const std::string& what);

class table_arrivals {
 public:
  table_arrivals(outbox& out, loop_services& loop, table_inbox& inbox, const table_finder& find)
      : out_(out), loop_(loop), inbox_(inbox), find_(find) {}
  table_arrivals(const table_arrivals&) = delete;
  table_arrivals& operator=(const table_arrivals&) = delete;

  void on_updates(int from, reader& r);
  void on_fence(int from, reader& r);
  void on_read(int from, reader& r);
  // Applies what waited (for a lock, for the worker, for this process's
  // root call, or for a test); true if anything.
  bool retry_held();
  // Updates or reads wait for sub-blocks' locks (or are held for a test):
  // look again soon.
  bool retrying() const { return held_.soon() || !staged_.empty() || !pending_reads_.empty(); }
  // What waits for this process's root call (begin_call: table_protocol).
  held_arrivals& held() { return held_; }
  const held_arrivals& held() const { return held_; }

  // Applies a batch whose positions were checked, with plain stores
  // (nobody else writes): its updates. Counted by the caller
  // (count_applied).
  std::int64_t apply_batch(int from, std::string_view batch);
  void count_applied(std::int64_t updates) { updates_applied_.fetch_add(updates, std::memory_order_release); }
  // ENTRIES(token, bytes) to `to`.
  void send_entries(int to, std::uint64_t token, const std::string& bytes);

  // A worker about to run a piece that came from another process: the
  // updates this process's message thread applied so far happen before it
  // (the piece was given after they were confirmed, but through another
  // process: nothing else orders them in this one).
  void acquire_applied() const { (void)updates_applied_.load(std::memory_order_acquire); }
  std::int64_t updates_applied() const { return updates_applied_.load(std::memory_order_relaxed); }
  // Fences answered only later: the updates before them waited for a
  // sub-block's lock, or for the one worker to apply them.
  std::int64_t fences_deferred() const { return fences_deferred_; }

 private:
  std::shared_ptr<table_core> find(std::uint32_t id) const { return find_ ? find_(id) : nullptr; }
  // A batch, a fence or a read, as it comes (after any held before it).
  void receive_batch(int from, std::string_view batch);
  void receive_fence(int from, std::uint64_t token);
  void receive_read(int from, std::uint64_t token, std::uint32_t id, std::int64_t lo, std::int64_t hi);
  // Calls f(table, op, records, count) for every run of a batch, after
  // checking its table and update type, and with check_positions that
  // every position is this process's.
  template <class F> void for_each_run(int from, std::string_view batch, bool check_positions, F&& f);
  void stage_batch(int from, std::string_view batch);
  bool apply_staged();
  void fence_after_staged(int from, std::uint64_t token);
  void ack_fence(int from, std::uint64_t token);
  bool answer_reads();
  static bool copy_locked(table_core& t, std::int64_t lo, std::int64_t hi, std::string& out);

  outbox& out_;
  loop_services& loop_;
  table_inbox& inbox_;
  const table_finder& find_;

  void receive(int from, held_arrivals::message& m);
  held_arrivals held_;
  // Updates from other processes sorted by sub-block, applied a sub-block
  // at a time without waiting for its lock (a worker holds it: next turn);
  // fences answered once nothing staged is left.
  sub_batches staged_;
  std::vector<std::pair<int, std::uint64_t>> deferred_fences_;
  // READs not answered yet: a worker held a sub-block's lock.
  struct pending_read {
    int from;
    std::uint64_t token;
    std::shared_ptr<table_core> t;
    std::int64_t lo, hi;
  };
  std::vector<pending_read> pending_reads_;
  std::int64_t fences_deferred_ = 0;
  std::atomic<std::int64_t> updates_applied_{0};
};

}  // namespace tascell::detail::net
