// Distributed tables between processes (tascell/table.hpp): the messages
// that make a table collectively, carry batches of updates to the owners of
// their entries, confirm that they were applied (fences), and read entries
// of another process.
//
//   TABLE_MADE(id, description)   to every process when a table is made
//                                 here; a process's make_table returns once
//                                 every other process's has arrived and
//                                 matched its own. Also each step of a
//                                 collective save or load of table files
//                                 (exchange()).
//   UPDATES(bytes)                a batch of one worker's updates for the
//                                 receiver's entries: runs of (table id,
//                                 count, update type, update size) and
//                                 count records (position, update). Applied
//                                 by the receiver's message thread, in
//                                 order of arrival.
//   FENCE(token) / FENCE_ACK(token)   after a worker's last batch for a
//                                 process; the receiver answers once it has
//                                 applied everything the sender sent before
//                                 (messages between two processes arrive in
//                                 order). So a worker that settles (the end
//                                 of a piece, a give) waits for one answer
//                                 per process it sent updates to, and the
//                                 fence usually shares its MPI message with
//                                 the last batch.
//   READ(token, id, lo, hi) / ENTRIES(token, bytes)   the entries at
//                                 positions [lo, hi) of the receiver's part.
//
// Who applies the updates that arrive, and copies the entries a READ asks
// for: with several workers in a process, the message thread, under the
// sub-blocks' locks (table_core.hpp). With one worker in each process, that
// worker is the only writer of its process's entries: no locks. During a
// root call the message thread hands it what arrives (the worker applies
// it at its next poll or wait, then rings), and answers a fence once the
// worker has applied every batch handed before it; outside root calls the
// message thread applies and answers itself (no worker runs).
//
// Workers (and a thread making a table) hand their messages over through a
// queue under a mutex; the message thread writes them into the outbox on its
// next turn, in the order they were handed, so a fence follows its worker's
// batches.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "sub_batches.hpp"
#include "frame.hpp"
#include "outbox.hpp"

namespace tascell::detail::net {

class loop_services;

class table_protocol {
 public:
  table_protocol(outbox& out, loop_services& loop) : out_(out), loop_(loop) {}
  void place(int rank, int size) {
    rank_ = rank;
    size_ = size;
  }

  // --- any thread ---
  // A batch of `updates` updates for the entries of rank `to`.
  void hand(int to, std::string batch, std::int64_t updates);
  // Once every batch handed so far by the caller for the ranks in `to` has
  // been applied there, sets *done (release).
  void fence(const std::vector<int>& to, std::atomic<bool>* done);
  // The table `id` was made here as `description`: waits until every other
  // process has made it; returns the first description that differs from
  // this one, with its rank, or an empty string.
  std::string made(std::uint32_t id, const std::string& description, int& differing_rank);
  // Collective: every process's `mine` for `key`, by rank (this one's
  // included), once every process has called it with that key. Keys:
  // table ids, (id | 1 << 31) for a table's end, (1 << 30 | n) for the
  // steps of saving and loading table files (tables/table_store.cpp).
  std::map<int, std::string> exchange(std::uint32_t key, const std::string& mine);
  // The bytes of positions [lo, hi) of table `id` at rank `owner` (waits).
  std::string read(int owner, std::uint32_t id, std::int64_t lo, std::int64_t hi);
  // A loop over a table's indices here holds the blocks of these ranks:
  // tells each (BLOCK_WAITS), so that its next request for work comes here.
  void blocks_wait(const std::vector<int>& ranks);

  // --- the message thread ---
  // Writes what was handed over into the outbox; true if anything.
  bool take_handed();
  void on_made(int from, reader& r);
  void on_updates(int from, reader& r);
  void on_fence(int from, reader& r);
  void on_fence_ack(int from, reader& r);
  void on_read(int from, reader& r);
  void on_entries(int from, reader& r);
  // Applies what waited for an entry's guard; true if anything.
  bool retry_held();

  // --- one worker in each process (see above) ---
  void set_worker_applies(bool on) { worker_applies_.store(on, std::memory_order_relaxed); }
  bool worker_applies() const { return worker_applies_.load(std::memory_order_relaxed); }
  // The worker enters a root call (true) or leaves it (false: what was
  // handed to it is applied first).
  void worker_in(bool in);
  // The worker: applies the batches and answers the reads handed to it.
  bool inbound_ready() const { return inbound_ready_.load(std::memory_order_acquire); }
  void serve_inbound();

  // Updates or reads wait for sub-blocks' locks (or are held for a test):
  // look again soon.
  bool retrying() const { return held_count_ > 0 || !staged_.empty() || !pending_reads_.empty(); }
  // A caller waits for an answer from another process (a fence, a read,
  // other processes' tables).
  bool awaiting_answer() const { return waiting_.load(std::memory_order_relaxed) > 0; }

  // Figures since the start.
  std::int64_t updates_sent() const { return updates_sent_.load(std::memory_order_relaxed); }
  std::int64_t update_batches_sent() const { return batches_sent_.load(std::memory_order_relaxed); }
  std::int64_t updates_applied() const { return updates_applied_.load(std::memory_order_relaxed); }
  // A worker about to run a piece that came from another process: the
  // updates this process's message thread applied so far happen before it
  // (the piece was given after they were confirmed, but through another
  // process: nothing else orders them in this one).
  void acquire_applied() const { (void)updates_applied_.load(std::memory_order_acquire); }
  std::int64_t fences_sent() const { return fences_sent_.load(std::memory_order_relaxed); }
  // Fences answered only later: the updates before them waited for a
  // sub-block's lock, or for the one worker to apply them.
  std::int64_t fences_deferred() const { return fences_deferred_; }

  // Where this process's tables are found by id: the process's registry
  // (tables/table_registry.hpp, set by the runtime), or in a test that runs
  // several processes in one (tests/sim) each one's own.
  void find_tables_with(std::function<std::shared_ptr<table_core>(std::uint32_t)> f) { find_ = std::move(f); }

 private:
  struct item {
    enum kind_t : std::uint8_t { batch, fence, made, read, blocks, entries } kind = batch;
    int to = 0;
    std::string bytes;
    std::int64_t updates = 0;
    std::uint64_t token = 0;
    std::vector<int> dests;
    std::uint32_t id = 0;
    std::int64_t lo = 0, hi = 0;
  };
  void push(item it);
  std::shared_ptr<table_core> find(std::uint32_t id) const;
  [[noreturn]] void fail(int from, const std::string& what);

  outbox& out_;
  loop_services& loop_;
  int rank_ = 0, size_ = 1;

  std::mutex m_;
  std::condition_variable cv_;
  std::vector<item> queue_;
  std::uint64_t next_token_ = 1;
  // TABLE_MADE received, by table id: the description of each rank.
  std::map<std::uint32_t, std::map<int, std::string>> made_;
  // READ answers, by token (under m_).
  std::unordered_map<std::uint64_t, std::string> read_done_;

  // Message thread only. What a sender sent that waits (delay_updates_for_
  // testing): batches and fences of that sender, in order (fence token 0: a
  // batch).
  struct held_item {
    std::string updates;
    std::uint64_t fence = 0;
    std::int64_t not_before_ns = 0;  // delay_updates_for_testing
  };
  std::map<int, std::vector<held_item>> held_;
  std::size_t held_count_ = 0;
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
  bool answer_reads();
  static bool copy_locked(table_core& t, std::int64_t lo, std::int64_t hi, std::string& out);
  // A batch, or a fence, as it comes (after any held before it).
  void receive_batch(int from, std::string_view batch);
  void receive_fence(int from, std::uint64_t token);
  // Calls f(table, op, records, count) for every run of a batch, after
  // checking its table and update type, and with check_positions that
  // every position is this process's.
  template <class F> void for_each_run(int from, std::string_view batch, bool check_positions, F&& f);
  void stage_batch(int from, std::string_view batch);
  // Applies a batch whose positions were checked, with plain stores
  // (nobody else writes): its updates.
  std::int64_t apply_batch(int from, std::string_view batch);
  // ENTRIES(token, bytes) to `to`.
  void send_entries(int to, std::uint64_t token, const std::string& bytes);
  bool apply_staged();
  void fence_after_staged(int from, std::uint64_t token);
  void ack_fence(int from, std::uint64_t token);
  // Fences waiting for their answers.
  struct fence_wait {
    int left = 0;
    std::atomic<bool>* done = nullptr;
  };
  std::unordered_map<std::uint64_t, fence_wait> fences_;

  // One worker in each process: what the message thread handed the worker
  // (under in_m_), and fences that wait for the worker.
  std::atomic<bool> worker_applies_{false};
  std::mutex in_m_;
  bool worker_in_ = false;  // under in_m_
  struct inbound {
    int from = 0;
    std::string batch;  // a batch of updates, or:
    std::shared_ptr<table_core> t;  // a read
    std::uint64_t token = 0;
    std::int64_t lo = 0, hi = 0;
  };
  std::vector<inbound> inbound_;
  std::atomic<bool> inbound_ready_{false};
  std::int64_t handed_in_ = 0;                // message thread: batches handed
  std::atomic<std::int64_t> applied_in_{0};  // the worker: batches applied
  struct fence_after_worker {
    int from;
    std::uint64_t token;
    std::int64_t batches;  // answered once applied_in_ reaches it
  };
  std::vector<fence_after_worker> worker_fences_;

  std::function<std::shared_ptr<table_core>(std::uint32_t)> find_;  // find_tables_with
  std::int64_t fences_deferred_ = 0;  // message thread

  std::atomic<int> waiting_{0};
  std::atomic<std::int64_t> updates_sent_{0}, batches_sent_{0}, updates_applied_{0}, fences_sent_{0};
};

}  // namespace tascell::detail::net
