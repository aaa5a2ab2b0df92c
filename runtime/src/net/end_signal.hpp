// That something has ended, told by one thread to one that waits for it
// (or looks without waiting): the end of a root call everywhere, from the
// message thread to the thread that made the call (root_protocol.hpp).
#pragma once

#include <condition_variable>
#include <mutex>

namespace tascell::detail::net {

class end_signal {
 public:
  void set() {
    {
      std::lock_guard<std::mutex> g(m_);
      set_ = true;
    }
    cv_.notify_all();
  }
  // Waits until set, then clears it for the next time.
  void wait() {
    std::unique_lock<std::mutex> g(m_);
    cv_.wait(g, [&] { return set_; });
    set_ = false;
  }
  // The same without waiting: false if not set yet.
  bool take() {
    std::lock_guard<std::mutex> g(m_);
    if (!set_) return false;
    set_ = false;
    return true;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool set_ = false;  // under m_
};

}  // namespace tascell::detail::net
