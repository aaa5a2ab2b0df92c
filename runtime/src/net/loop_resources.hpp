// What the message thread owns and lends to the protocols (loop_services):
// the transport (its clock and its abort), the doorbell, the lock of the
// thread's turn, whether the runtime's workers are attached, the thread's
// priority and its trace. network.hpp holds one and runs its loop over it;
// steal_protocol and table_protocol see it only as loop_services.
#pragma once

#include <atomic>
#include <mutex>
#include <string>

#include "doorbell.hpp"
#include "host.hpp"
#include "loop_services.hpp"
#include "message_trace.hpp"
#include "thread_priority.hpp"
#include "transport.hpp"

namespace tascell::detail::net {

class batches;

class loop_resources final : public loop_services {
 public:
  // `out` is only read when a worker ends a turn it took (it may be
  // constructed after this object).
  loop_resources(host& h, const batches& out) : host_(h), out_(out) {}
  loop_resources(const loop_resources&) = delete;
  loop_resources& operator=(const loop_resources&) = delete;

  // The transport: MPI's once the message thread has made it, or a
  // simulation's.
  void use(transport& link) { link_ = &link; }
  transport& link() const { return *link_; }
  doorbell& bell() { return bell_; }
  message_trace& trace() { return trace_; }
  thread_priority& priority() { return priority_; }
  std::mutex& turn_lock() { return turn_m_; }
  // What batches are received into, by whoever has the turn: kept between
  // turns, so that a batch of megabytes lands in pages already faulted in.
  std::string& inbound() { return inbound_; }
  // Read by the batches (batches.hpp); written by attach().
  const std::atomic<bool>& attached_flag() const { return attached_; }
  void attach(bool on) { attached_.store(on, std::memory_order_release); }

  // --- loop_services ---
  time_point now() const override { return link_->now(); }
  [[noreturn]] void fatal(const std::string& cause) override;
  void wake() override { bell_.ring_self(); }
  void nudge(int rank) override { bell_.nudge(rank); }
  void call_worker() override;
  void step_aside() override;
  bool attached() const override { return attached_.load(std::memory_order_acquire); }
  bool try_take_turn() override { return turn_m_.try_lock(); }
  void end_taken_turn() override;
  bool tracing() const override { return trace_.on(); }
  void note(trace_type t, std::uint64_t id, std::int32_t a, std::int64_t b = 0, std::int64_t c = 0) override {
    trace_.note(t, id, a, b, c);
  }
  void note_at(std::int64_t when, trace_type t, std::uint64_t id, std::int32_t a, std::int64_t b = 0,
               std::int64_t c = 0) override {
    trace_.note_at(when, t, id, a, b, c);
  }

 private:
  host& host_;
  const batches& out_;
  transport* link_ = nullptr;
  // The message thread sleeps on it; workers' events and sends from
  // processes on this machine ring it (doorbell.hpp).
  doorbell bell_;
  // Held by the message thread for each turn and for its look before it
  // sleeps; a worker takes it to do a turn's bookkeeping (try_take_turn).
  // The protocols' state is the holder's.
  std::mutex turn_m_;
  std::atomic<bool> attached_{false};
  thread_priority priority_;  // TASCELL_MSG_PRIORITY
  message_trace trace_;       // TASCELL_TRACE
  std::string inbound_;
};

}  // namespace tascell::detail::net
