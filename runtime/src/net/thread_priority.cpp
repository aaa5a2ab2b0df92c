// The message thread's scheduling: a short time slice, little timer slack,
// and real-time priority (TASCELL_MSG_PRIORITY) that it leaves while it
// spins and at exit.
#include "thread_priority.hpp"

#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace tascell::detail::net {

// Asks the scheduler for a short time slice (Linux 6.12 and later, EEVDF):
// a thread with a short slice preempts a busy worker on its core when it
// wakes more often than one with the default slice, though not always (see
// take()). Older kernels refuse; the thread then runs with the
// default slice. Also asks for 1 us of timer slack: by default a timer may
// fire up to 50 us late.
void thread_priority::ask_for_prompt_wakeups() {
  struct {
    std::uint32_t size;
    std::uint32_t sched_policy;
    std::uint64_t sched_flags;
    std::int32_t sched_nice;
    std::uint32_t sched_priority;
    std::uint64_t sched_runtime, sched_deadline, sched_period;
    std::uint32_t sched_util_min, sched_util_max;
  } attr{};
  attr.size = sizeof attr;
  attr.sched_policy = 0;            // SCHED_OTHER
  attr.sched_runtime = 100'000;     // the slice: 100 us, the shortest allowed
  syscall(SYS_sched_setattr, 0, &attr, 0u);
  prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
}

// TASCELL_MSG_PRIORITY: the message thread at the lowest real-time priority
// (SCHED_FIFO 1), so that it runs the moment it wakes. A thread of normal
// priority that wakes on a core where a worker computes may wait for the end
// of the worker's time slice: the kernel's scheduler (EEVDF) lets a thread
// that has just run wait until it is owed time again. On this machine that
// was the 0.5-1 ms tail of steals between processes: with real-time
// priority, the 90th percentile of the steal round trip fell from 568-665
// to 81-261 us (docs/performance.md). The thread sleeps whenever it has
// nothing to do, so it takes from the workers only the time its work needs;
// threads it creates (Open MPI's) start with normal priority
// (SCHED_RESET_ON_FORK). It leaves real-time priority while it spins
// (network::pause()): a real-time thread that yields keeps its core.
std::string thread_priority::take(msg_priority wanted, int rank) {
  if (wanted == msg_priority::normal) return {};
  if (set(true)) {
    realtime_ = true;
    return {};
  }
  int err = errno;
  if (wanted != msg_priority::realtime) return {};
  return "tascell: rank " + std::to_string(rank) +
                  ": TASCELL_MSG_PRIORITY=realtime, but the message thread cannot have real-time priority "
                  "(sched_setscheduler: " + std::strerror(err) +
                  "); it needs CAP_SYS_NICE or a real-time priority limit of at least 1 (ulimit -r; rtprio "
                  "in /etc/security/limits.conf). TASCELL_MSG_PRIORITY=auto runs without it.";
}

bool thread_priority::set(bool on) {
  sched_param sp{};
  sp.sched_priority = on ? sched_get_priority_min(SCHED_FIFO) : 0;
  if (sched_setscheduler(0, (on ? SCHED_FIFO : SCHED_OTHER) | SCHED_RESET_ON_FORK, &sp) != 0) return false;
  demoted_ = !on;
  return true;
}

void thread_priority::leave() {
  if (realtime_ && !demoted_) set(false);
}

void thread_priority::resume() {
  if (demoted_) set(true);
}

}  // namespace tascell::detail::net
