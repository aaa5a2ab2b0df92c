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
// Every UPDATES, FENCE and READ begins with the number of root calls its
// sender had begun (CALL): the receiver holds one whose call it has not
// begun yet until it has (held_arrivals.hpp), so that what the program
// wrote before calling root() is there before the call's updates and reads.
//
//   UPDATES(call, bytes)          a batch of one worker's updates for the
//                                 receiver's entries: runs of (table id,
//                                 count, update type, update size) and
//                                 count records (position, update). Applied
//                                 by the receiver's message thread, in
//                                 order of arrival.
//   FENCE(call, token) / FENCE_ACK(token)   after a worker's last batch for a
//                                 process; the receiver answers once it has
//                                 applied everything the sender sent before
//                                 (messages between two processes arrive in
//                                 order). So a worker that settles (the end
//                                 of a piece, a give) waits for one answer
//                                 per process it sent updates to, and the
//                                 fence usually shares its MPI message with
//                                 the last batch.
//   READ(call, token, id, lo, hi) / ENTRIES(token, bytes)   the entries at
//                                 positions [lo, hi) of the receiver's part.
//
// This class is the senders' and waiters' side, and owns the rest: what
// arrives for this process's entries (UPDATES, FENCE, READ) is
// table_arrivals.hpp's, applied by the message thread under the sub-blocks'
// locks (table_core.hpp) when the process has several workers; with one
// worker in each process, that worker is the only writer of its process's
// entries and applies what the message thread hands it (table_inbox.hpp).
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

#include "frame.hpp"
#include "outbox.hpp"
#include "table_arrivals.hpp"
#include "table_inbox.hpp"

namespace tascell::detail::net {

class loop_services;

class table_protocol {
 public:
  table_protocol(outbox& out, loop_services& loop) : out_(out), loop_(loop) {}
  table_protocol(const table_protocol&) = delete;
  table_protocol& operator=(const table_protocol&) = delete;
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
  void on_fence_ack(int from, reader& r);
  void on_entries(int from, reader& r);
  // UPDATES, FENCE and READ from other processes, and what waits of them.
  table_arrivals& arrivals() { return arrivals_; }
  const table_arrivals& arrivals() const { return arrivals_; }

  // --- one worker in each process (table_inbox.hpp) ---
  void set_worker_applies(bool on) { inbox_.set_on(on); }
  // The thread that makes root calls: this process's workers enter a root
  // call (true: the program's writes before it are done, and what other
  // processes sent of this call is applied, answered from now on), or
  // leave it (false: what was handed to the one worker is applied first).
  void worker_in(bool in);
  // The worker: applies the batches and answers the reads handed to it.
  bool inbound_ready() const { return inbox_.ready(); }
  void serve_inbound();

  // A caller waits for an answer from another process (a fence, a read,
  // other processes' tables).
  bool awaiting_answer() const { return waiting_.load(std::memory_order_relaxed) > 0; }

  // Figures since the start (the applied and deferred ones: arrivals()).
  struct sent_counts {
    std::atomic<std::int64_t> updates{0}, batches{0}, fences{0};
  };
  const sent_counts& sent() const { return sent_; }

  // Where this process's tables are found by id: the process's registry
  // (tables/table_registry.hpp, set by the runtime), or in a test that runs
  // several processes in one (tests/sim) each one's own.
  void find_tables_with(table_finder f) { find_ = std::move(f); }

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
    std::uint64_t call = 0;  // the root calls this process had begun when it was handed
  };
  void push(item it);

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
  // Message thread only: fences waiting for their answers.
  struct fence_wait {
    int left = 0;
    std::atomic<bool>* done = nullptr;
  };
  std::unordered_map<std::uint64_t, fence_wait> fences_;

  table_finder find_;  // find_tables_with
  table_inbox inbox_;
  table_arrivals arrivals_{out_, loop_, inbox_, find_};

  std::atomic<int> waiting_{0};
  sent_counts sent_;
};

}  // namespace tascell::detail::net
