// This process as a victim of a thief on the same machine, on the way
// that wakes no message thread: a worker answering a standing proxy puts
// the piece into the thief's mailbox itself (mail_piece, mail_sent), and
// the piece's result comes back into this process's ring for that thief,
// where a worker waiting at a join may take it (take_results_here) or the
// message thread does at its turn (take_results). shared_requests.hpp has
// the shared memory; steal_victim.hpp the proxies and the rest.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <limits>

#include "steal_context.hpp"
#include "worker_face.hpp"

namespace tascell::detail::net {

class steal_victim;

// WORK's fields after its type (unpacked by received_pieces::unpack): the
// request number, the kind, the piece's serial (its handle), its range and
// depth, and its inputs by cereal, packed in place; returns the inputs'
// size. Throws when the inputs cannot be packed, or when the message would
// grow past `limit` bytes (what `w` had before counts), having written
// part of it.
std::size_t write_work(writer& w, std::uint64_t seq, task* t,
                       std::size_t limit = std::numeric_limits<std::size_t>::max());

class victim_mail {
 public:
  // `sent` counts the pieces given (by MPI or through a mailbox).
  victim_mail(steal_context& c, steal_victim& victim, steal_context::sent_figures& sent)
      : c_(c), victim_(victim), sent_(sent) {}
  victim_mail(const victim_mail&) = delete;
  victim_mail& operator=(const victim_mail&) = delete;

  // --- workers ---
  // A worker answering a standing proxy with piece t puts it into the
  // thief's mailbox: the thief's rank, or -1 (the message thread sends it).
  int mail_piece(worker_face* proxy_worker, task* t);
  void mail_sent(int thief);
  // The results waiting in this process's rings, taken by a worker waiting
  // at a join when the thread is not in a turn (false also when it could
  // not take the turn).
  bool take_results_here();

  // --- the message thread, in its turn ---
  bool take_results();

  std::int64_t pieces_mailed() const { return mailed_.load(std::memory_order_relaxed); }
  std::int64_t results_taken_here() const { return results_here_.load(std::memory_order_relaxed); }

 private:
  // A worker holding the turn (try_take_turn): takes the results, then
  // ends the turn.
  bool take_results_in_turn();
  void apply_result(int from, std::string_view bytes);

  steal_context& c_;
  steal_victim& victim_;
  steal_context::sent_figures& sent_;
  alignas(64) std::atomic<std::int64_t> mailed_{0};  // pieces given through a mailbox (mail_piece)
  std::atomic<std::int64_t> results_here_{0};  // results taken by a worker of this process (take_results_here)
};

}  // namespace tascell::detail::net
