// What the thread that makes root calls asks of the network: the call has
// begun here, its local part has ended (and, blocking, the outcome once it
// has ended everywhere), and TASCELL_STATS' figures sent to rank 0 and
// gathered there. Each is an event for the message thread (event_queue.hpp)
// or a wait on what the message thread files (root_protocol.hpp,
// stats_gather.hpp). The network owns one (network::roots()).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "event_queue.hpp"
#include "root_protocol.hpp"
#include "stats_gather.hpp"

namespace tascell::detail::net {

class root_calls {
 public:
  root_calls(event_queue& events, root_protocol& root) : events_(events), root_(root) {}
  root_calls(const root_calls&) = delete;
  root_calls& operator=(const root_calls&) = delete;

  void begin() { events_.post({event_queue::event::root_begin, nullptr, 0, 0, {}}); }
  // After the local part of a root call has ended (on rank 0: the root task
  // finished and `outcome` holds its result or exception): waits until the
  // root call has ended everywhere and returns rank 0's outcome.
  std::string end(std::string outcome) {
    local_end(std::move(outcome));
    return root_.wait_over();
  }
  // end in two halves, for a caller that must not block (the protocol
  // simulation): the local part has ended; has the root call ended
  // everywhere (then `outcome` is rank 0's)?
  void local_end(std::string outcome) {
    events_.post({event_queue::event::root_end, nullptr, 0, 0, std::move(outcome)});
  }
  bool over(std::string& outcome) { return root_.take_over(outcome); }

  // TASCELL_STATS with several processes: every process sends the figures
  // of root call `number` to rank 0 (send_stats); rank 0 waits up to
  // `timeout` for those of all `size` processes (gather_stats: one entry
  // per rank, empty for a rank that sent none).
  void send_stats(std::uint64_t number, std::string figures) {
    events_.post({event_queue::event::stats, nullptr, number, 0, std::move(figures)});
  }
  std::vector<std::string> gather_stats(std::uint64_t number, int size, std::string mine,
                                        std::chrono::milliseconds timeout) {
    return stats_.gather(number, size, std::move(mine), timeout);
  }
  // The message thread files the figures that arrive here.
  stats_gather& stats() { return stats_; }

 private:
  event_queue& events_;
  root_protocol& root_;
  stats_gather stats_;
};

}  // namespace tascell::detail::net
