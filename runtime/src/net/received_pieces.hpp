// The pieces of other processes that run in this one: made from a WORK
// message's bytes (or the mailbox's), found by a stop or a steal-back from
// the process that gave them, and sent back as a RESULT when they end (by
// MPI, or into the giver's ring in shared memory when it is on this
// machine), or a cancellation sent up.
//
// The map is the message thread's; mail_result runs on the worker that
// ran the piece and touches only shared memory and the counters.
#pragma once

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <map>
#include <utility>

#include "steal_context.hpp"

namespace tascell::detail::net {

class received_pieces {
 public:
  explicit received_pieces(steal_context& c) : c_(c) {}
  received_pieces(const received_pieces&) = delete;
  received_pieces& operator=(const received_pieces&) = delete;

  // A WORK message's piece made again, from `from` (no state touched); its
  // request number in seq. The fields are steal_victim::write_work's.
  static task* unpack(int from, reader& r, std::uint64_t& seq);
  // A piece of another process is here, answering request seq: stops and
  // steal-backs find it.
  void record(std::uint64_t seq, task* t);
  // The piece `handle` of process `from` that runs here, or nullptr.
  task* find(int from, std::uint64_t handle) const;
  // A piece that answered no request: forgotten (its owner deletes it).
  void forget(int from, std::uint64_t handle) { pieces_.erase({from, handle}); }
  // `from` stopped its piece `handle`: the worker running it is told.
  void on_stop(int from, std::uint64_t handle);
  std::size_t size() const { return pieces_.size(); }

  // A worker: t has ended normally; its result goes into its giver's ring
  // for this process (shared_requests), where a worker of the giver
  // waiting at the join, or its message thread, takes it. False when it
  // must go by MPI (send_result).
  bool mail_result(task* t);
  // The message thread: t's result by MPI; t forgotten and deleted.
  void send_result(task* t);
  // ... or t, mailed, only forgotten and deleted.
  void result_mailed(task* t);
  // t is cancelling: the giver's search is told.
  void send_cancel_up(task* t);

  std::int64_t results_mailed() const { return results_mailed_.load(std::memory_order_relaxed); }
  const steal_context::sent_figures& results_sent() const { return results_out_; }
  // The SIGUSR1 dump's lines: each piece here and who runs it.
  void describe(std::ostream& m) const;

 private:
  // RESULT's fields for the ended piece t, its outputs packed in place
  // (throws what packing them throws, or when the message would grow past
  // `limit` bytes, having written part of it). Returns the size of its
  // outputs.
  static std::size_t write_result(writer& w, task* t, std::size_t limit = std::numeric_limits<std::size_t>::max());
  static std::uint8_t result_flags(const task* t);

  steal_context& c_;
  std::map<std::pair<int, std::uint64_t>, task*> pieces_;  // (rank, handle) -> piece here
  // Written by workers (mail_result), on lines of their own.
  alignas(64) std::atomic<std::int64_t> results_mailed_{0};
  steal_context::sent_figures results_out_;
};

}  // namespace tascell::detail::net
