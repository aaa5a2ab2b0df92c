// The last steps of this process's side of the protocols between processes
// (requests asked, armed, claimed and adopted; work and refusals received;
// pieces put in and taken from the inbox), kept in a ring so that the
// SIGUSR1 dump and an internal error can say how the process got where it
// is. Any thread writes (workers claim and take), under a mutex: these
// steps come at most once per message, where the message costs far more.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <ostream>

namespace tascell::detail::net {

class protocol_log {
 public:
  enum class step : std::uint8_t {
    ask,         // the message thread asks rank `peer` (request a, posted b)
    arm,         // a request armed for a worker to post (a, to peer)
    disarm,      // ... taken back (a)
    claim,       // a worker claimed the armed request (a) and posted it (b)
    adopt,       // the message thread adopted it (a, to peer, posted b)
    work,        // WORK for request a from peer, piece b
    refuse,      // REFUSE of request a from peer
    inbox,       // piece b of peer put in the inbox (answering a)
    take,        // a worker took piece b of peer from the inbox
    mail_in,     // the message thread found a piece of peer in its mailbox
    take_mail,   // a worker took piece b of peer (answering a) from the mailbox
    mailed,      // a worker gave piece b for request a of peer through peer's mailbox
    root_begin,  // root call a begins here
    root_end,    // this process has left root call a
  };

  void note(step s, std::uint64_t a, std::uint64_t b = 0, int peer = -1) {
    std::lock_guard<std::mutex> g(m_);
    entry& e = ring_[next_ % ring_.size()];
    e = {std::chrono::steady_clock::now(), s, peer, a, b};
    ++next_;
  }
  // The steps kept, oldest first, one a line, each line starting with `head`.
  void print(std::ostream& o, const char* head) const;

 private:
  struct entry {
    std::chrono::steady_clock::time_point when;
    step s;
    int peer;
    std::uint64_t a, b;
  };
  mutable std::mutex m_;
  std::array<entry, 128> ring_{};
  std::uint64_t next_ = 0;
};

}  // namespace tascell::detail::net
