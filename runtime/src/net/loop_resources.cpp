#include "loop_resources.hpp"

#include <sched.h>

#include <cstdlib>

#include "batches.hpp"
#include "worker_face.hpp"

namespace tascell::detail::net {

void loop_resources::fatal(const std::string& cause) {
  link_->abort(cause);
  std::abort();  // not reached: abort() ends the process
}

void loop_resources::call_worker() {
  if (!attached()) return;
  host_.worker(0)->attention.store(1, std::memory_order_release);
  host_.wake_workers();
}

void loop_resources::step_aside() {
  priority_.leave();
  sched_yield();
}

void loop_resources::end_taken_turn() {
  // What the worker left to send goes with the next turn, rung for now.
  bool left = out_.begun();
  turn_m_.unlock();
  if (left) bell_.ring_self();
}

}  // namespace tascell::detail::net
