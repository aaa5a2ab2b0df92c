// The message thread's track of a trace (TASCELL_TRACE, docs/tracing.md):
// its instants (batches sent and received, incumbents heard of, the steal
// protocol's steps) and its spans, asleep or handling messages, and how
// this process's clock maps to the common timeline. Written by the message
// thread, and by a worker in a turn it takes; taken once, at exit.
#pragma once

#include <cstdint>
#include <mutex>
#include <utility>

#include "../trace.hpp"

namespace tascell::detail::net {

class message_trace {
 public:
  // Tracing is on: at most `room` records, and this process's clock as
  // aligned with rank 0's. Spans begin at the first begin_spans().
  void start(std::size_t room, const trace_clock& clock) {
    on_ = true;
    buffer_.room = room;
    clock_ = clock;
  }
  bool on() const { return on_; }
  void note_at(std::int64_t when, trace_type t, std::uint64_t id, std::int32_t a, std::int64_t b, std::int64_t c) {
    std::lock_guard<std::mutex> g(m_);
    buffer_.instant(when, t, id, a, b, c);
  }
  void note(trace_type t, std::uint64_t id, std::int32_t a, std::int64_t b = 0, std::int64_t c = 0) {
    note_at(trace_now(), t, id, a, b, c);
  }
  // The message thread's first span starts now.
  void begin_spans() { since_ = trace_now(); }
  // The current span ends now; the next is asleep or not.
  void span(bool asleep) {
    std::int64_t now = trace_now();
    {
      std::lock_guard<std::mutex> g(m_);
      buffer_.span(static_cast<std::uint8_t>(asleep_ ? activity::asleep : activity::messages), since_, now);
    }
    since_ = now;
    asleep_ = asleep;
  }
  bool asleep() const { return asleep_; }
  trace_buffer take() {
    std::lock_guard<std::mutex> g(m_);
    trace_buffer b = std::move(buffer_);
    buffer_ = trace_buffer{};
    return b;
  }
  const trace_clock& clock() const { return clock_; }

 private:
  bool on_ = false;
  std::mutex m_;
  trace_buffer buffer_;  // under m_
  trace_clock clock_;
  bool asleep_ = false;    // in an "asleep" span
  std::int64_t since_ = 0;  // the current span's start
};

}  // namespace tascell::detail::net
