// Table messages from other processes that wait before table_arrivals
// (table_arrivals.hpp) takes them: each sender's UPDATES, FENCEs and READs
// in the order they came, held while the first of them may not go on.
//
// A message may go on once this process has begun the root call it is of
// (its sender's count of root calls begun, table_protocol.hpp): the program
// writes its own entries in plain C++ before it calls root(), and a read of
// the call must see those writes, an update of the call must land after
// them. A message may also be held for a test (delay_updates_for_testing:
// not before a time). What a sender sent after a held message waits behind
// it, so each sender's messages keep their order (a fence after its
// batches). The message thread's, except begin_call() and calls_begun().
//
// The count is the calling thread's (begin_call, before its workers start),
// not root_protocol's number of the call, which the message thread raises
// when it takes the call's begin event: a worker could hand a message over
// before that, stamped with the call before.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tascell::detail::net {

class held_arrivals {
 public:
  struct message {
    enum kind_t : std::uint8_t { batch, fence, read } kind = batch;
    std::uint64_t call = 0;   // the root calls its sender had begun
    std::string updates;      // batch
    std::uint64_t token = 0;  // fence, read
    std::uint32_t id = 0;     // read: table id, positions [lo, hi)
    std::int64_t lo = 0, hi = 0;
    std::int64_t not_before_ns = 0;  // delay_updates_for_testing
  };

  // --- the thread that makes root calls ---
  // This process begins its next root call (after the program's writes
  // before it); the message thread is woken by the caller.
  void begin_call() { calls_begun_.fetch_add(1, std::memory_order_release); }

  // --- any thread ---
  std::uint64_t calls_begun() const { return calls_begun_.load(std::memory_order_acquire); }
  // Messages that waited for this process to begin their root call (since
  // the start).
  std::int64_t held_for_call() const { return held_for_call_.load(std::memory_order_relaxed); }

  // --- the message thread ---
  // Whether `m` from `from` must wait (its call not begun here, its time
  // not come, or `from` has messages waiting); if so it is kept, with a
  // batch's `updates` (copied only then).
  bool hold(int from, message& m, std::string_view updates = {}) {
    auto& q = held_[from];
    bool early = m.call > calls_begun();
    if (q.empty() && !early && !m.not_before_ns) return false;
    if (early) held_for_call_.fetch_add(1, std::memory_order_relaxed);
    m.updates.assign(updates);
    q.push_back(std::move(m));
    ++count_;
    note_soon();
    return true;
  }
  // Calls take(from, message) for each held message that may go on now, in
  // each sender's order; true if any.
  template <class F> bool release(std::int64_t now_ns, F&& take) {
    if (count_ == 0) return false;
    bool any = false;
    std::uint64_t begun = calls_begun();
    for (auto& [from, q] : held_) {
      std::size_t k = 0;
      for (; k < q.size() && q[k].call <= begun && !(q[k].not_before_ns && now_ns < q[k].not_before_ns); ++k)
        take(from, q[k]);
      if (k > 0) {
        q.erase(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(k));
        count_ -= k;
        any = true;
      }
    }
    note_soon();
    return any;
  }
  // Something held may go on without a root call beginning (its test delay
  // ends): look again soon. (What waits for a root call waits for
  // begin_call(), whose caller wakes the message thread.)
  bool soon() const { return soon_; }

 private:
  void note_soon() {
    soon_ = false;
    std::uint64_t begun = calls_begun();
    for (auto& [from, q] : held_)
      if (!q.empty() && q.front().call <= begun) soon_ = true;
  }

  std::map<int, std::vector<message>> held_;  // by sender
  std::size_t count_ = 0;
  bool soon_ = false;
  std::atomic<std::uint64_t> calls_begun_{0};
  std::atomic<std::int64_t> held_for_call_{0};
};

}  // namespace tascell::detail::net
