// What the workers and the thread that makes root calls hand the message
// thread: one event each (a piece finished or cancelled, an incumbent
// improved, a board written, a root call begun or ended, statistics, raw
// bytes for a test), taken at the start of its turn, each posting ringing
// its doorbell; and the handshake by which a caller waits until the
// thread has sent on everything posted before it (network::detach).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "doorbell.hpp"

namespace tascell {
struct task;
}

namespace tascell::detail::net {

class event_queue {
 public:
  struct event {
    enum kind_t {
      finished, result_mailed, cancelled, improved, published, root_begin, root_end, raw, stats, sync
    } kind;
    task* t = nullptr;
    std::uint64_t id = 0;
    int to = 0;
    std::string bytes;
    std::uint64_t key = 0, stamp = 0;  // board writes
  };

  explicit event_queue(doorbell& bell) : bell_(bell) {}

  // Posts e and rings the message thread.
  void post(event e) { post(std::move(e), true); }
  // Posts e; rings only when `ring`, or when this many events wait that a
  // turn should take them (pieces whose results went through shared
  // memory, which the thread only forgets).
  void post(event e, bool ring) {
    std::lock_guard<std::mutex> g(m_);
    events_.push_back(std::move(e));
    if (ring || events_.size() >= forgotten_per_ring) bell_.ring_self();
  }
  // The message thread: every event posted so far, in order.
  std::vector<event> take() {
    std::vector<event> evs;
    std::lock_guard<std::mutex> g(m_);
    evs.swap(events_);
    return evs;
  }

  // Waits until the message thread has taken a sync event posted now and
  // ended that turn (turn_ended after sync_seen).
  void quiesce() {
    post({event::sync, nullptr, 0, 0, {}});
    std::unique_lock<std::mutex> g(sync_m_);
    sync_cv_.wait(g, [&] { return synced_; });
    synced_ = false;
  }
  void sync_seen() { sync_asked_ = true; }
  void turn_ended() {
    if (!sync_asked_) return;
    sync_asked_ = false;
    std::lock_guard<std::mutex> g(sync_m_);
    synced_ = true;
    sync_cv_.notify_all();
  }

  // Under the queue's lock, which no posting holds then: `shutdown` set and
  // the bell rung (the destructor), or the bell closed (the message thread,
  // once it has seen `shutdown`).
  void stop(std::atomic<bool>& shutdown) {
    std::lock_guard<std::mutex> g(m_);
    shutdown.store(true);
    bell_.ring_self();
  }
  void close_bell() {
    std::lock_guard<std::mutex> g(m_);
    bell_.close();
  }

 private:
  static constexpr std::size_t forgotten_per_ring = 64;
  doorbell& bell_;
  std::mutex m_;
  std::vector<event> events_;  // under m_
  bool sync_asked_ = false;    // message thread: a sync event taken, done when the turn ends
  std::mutex sync_m_;
  std::condition_variable sync_cv_;
  bool synced_ = false;  // under sync_m_
};

}  // namespace tascell::detail::net
