// Collective root calls, and the incumbents and board entries that travel
// during one.
//
// Every process makes the same root calls in the same order (SPMD). Rank 0
// runs the root task; when it has finished (so every piece has come back),
// rank 0 sends ROOT_DONE with the outcome to every process. A process that
// has seen ROOT_DONE stops its workers, waits until nothing it asked for is
// outstanding (the steal protocol's part: network::tend_root), and answers
// ROOT_ACK with its incumbents and board writes. When every ACK is in, rank
// 0 combines them and sends ROOT_FINISH with the exact values; each process
// applies them and leaves the root call. After FINISH no message of that
// root call is in flight except stale stops and cancellations, which name
// pieces no longer known and are ignored. docs/message-thread.md has the
// diagram.
//
// The state is the message thread's, except the end of a call, which the
// calling thread waits for (wait_over, take_over).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../settings.hpp"
#include "end_signal.hpp"
#include "frame.hpp"
#include "held_incumbents.hpp"
#include "host.hpp"
#include "outbox.hpp"
#include "protocol_log.hpp"

namespace tascell::detail::net {

class root_protocol {
 public:
  root_protocol(host& h, const settings& cfg, outbox& out, protocol_log& log) : host_(h), cfg_(cfg), out_(out), log_(log) {}
  // Once the ranks are known.
  void place(int rank, int size, std::uint64_t seed) {
    rank_ = rank;
    size_ = size;
    rng_ = seed | 1u;
  }

  // --- the message thread ---
  // In a root call whose end this process has not heard of: requests may be
  // made and answered.
  bool open() const { return in_root_ && !done_here_; }
  bool in_root() const { return in_root_; }
  bool done_here() const { return done_here_; }
  std::uint64_t number() const { return number_; }
  // This process begins its next root call (its caller called root()).
  void begin_here();
  // The local part of the root call has ended (on rank 0, the root task has
  // finished with `outcome`): rank 0 announces it.
  void end_here(std::string outcome);
  // The end of the call has been heard of and the local part is over: once
  // nothing of the steal protocol is out, finish_here() may act.
  bool ending() const { return in_root_ && local_ended_ && done_here_; }
  // Nothing is out here: a rank k > 0 acknowledges (once); rank 0, when
  // every acknowledgement is in, finishes the call everywhere. True when it
  // did something.
  bool finish_here();
  void on_done(int from, reader& r);
  void on_ack(int from, reader& r);
  void on_finish(int from, reader& r);

  // Incumbents: an improvement made here (hops < 0) or received (hops so
  // far, from `except`) goes on as TASCELL_INCUMBENT says.
  void spread_incumbent(std::uint64_t id, const std::string& value, int hops, int except);
  // An improvement from another process; true when it improved this one's
  // (id set). One for the root call this process has not begun yet is held
  // until it begins (begin_here applies it).
  bool on_incumbent(int from, reader& r, std::uint64_t& id);
  // How many improvements were held so (since the start), and how many of
  // them improved this process's incumbent when its call began.
  // Read by network::figures() on the root-calling thread while the message
  // thread counts, hence atomic.
  std::uint64_t held_early() const { return early_.count(); }
  std::uint64_t early_improved() const { return early_.improved(); }
  // A board write made here goes to every process; one from another
  // process is applied.
  void publish(std::uint64_t id, std::uint64_t key, std::uint64_t stamp, const std::string& value);
  void on_board(int from, reader& r);

  // --- the calling thread ---
  // Waits until the call has ended everywhere; rank 0's outcome.
  std::string wait_over();
  // The same without waiting (the protocol simulation): false if not yet.
  bool take_over(std::string& outcome);

 private:
  // Incumbents and the board entries written during the root call.
  std::string pack_shared_state();
  void apply_shared_state(std::string_view bytes);
  void over();  // the call has ended everywhere: the caller may return
  int random_other();

  host& host_;
  const settings& cfg_;
  outbox& out_;
  protocol_log& log_;
  int rank_ = 0, size_ = 1;
  std::uint64_t rng_ = 1;
  bool in_root_ = false;
  bool done_here_ = false;    // ROOT_DONE seen (or sent, on rank 0)
  bool local_ended_ = false;  // the caller reached root_calls::end
  bool ack_sent_ = false;
  int acks_ = 0;
  std::uint64_t number_ = 0;
  std::string outcome_;
  // A ROOT_DONE that came before this process began that root call.
  std::string pending_done_;
  std::uint64_t pending_done_number_ = 0;
  // Improvements for the next root call that came before this process
  // began it.
  held_incumbents early_;
  bool apply_incumbent(int from, std::uint64_t id, int hops, std::string_view value);
  // The call has ended everywhere (over()), for the calling thread.
  end_signal over_;
};

}  // namespace tascell::detail::net
