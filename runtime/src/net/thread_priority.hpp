// The message thread's priority (thread_priority.cpp has why): real-time
// when TASCELL_MSG_PRIORITY allows it, left while the thread spins on a
// worker's step (a real-time thread that yields keeps its core) and before
// the collectives at exit, taken again before it sleeps.
#pragma once

#include <string>

#include "../settings.hpp"

namespace tascell::detail::net {

class thread_priority {
 public:
  // A short time slice and 1 us of timer slack for the calling thread.
  static void ask_for_prompt_wakeups();
  // Takes real-time priority for the calling thread when `wanted` allows;
  // the error to stop the run with when it must have it and cannot (empty
  // otherwise).
  std::string take(msg_priority wanted, int rank);
  // The thread runs at real-time priority (it may have left it for a while).
  bool realtime() const { return realtime_; }
  // Leaves it for a while, or for good at exit; takes it again.
  void leave();
  void resume();

 private:
  // Takes or leaves real-time priority; false if refused.
  bool set(bool on);
  bool realtime_ = false;  // took it
  bool demoted_ = false;   // ... but has left it for now
};

}  // namespace tascell::detail::net
