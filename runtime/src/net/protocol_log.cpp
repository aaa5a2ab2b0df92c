#include "protocol_log.hpp"

namespace tascell::detail::net {

void protocol_log::print(std::ostream& o, const char* head) const {
  std::lock_guard<std::mutex> g(m_);
  std::uint64_t first = next_ > ring_.size() ? next_ - ring_.size() : 0;
  if (next_ == 0) return;
  auto last = std::chrono::steady_clock::now();  // times are before the print
  for (std::uint64_t i = first; i < next_; ++i) {
    const entry& e = ring_[i % ring_.size()];
    long us = static_cast<long>(std::chrono::duration_cast<std::chrono::microseconds>(last - e.when).count());
    o << head << "-" << us << " us: ";
    switch (e.s) {
      case step::ask: o << "asks rank " << e.peer << ", request " << e.a << (e.b ? ", posted" : ", by message"); break;
      case step::arm: o << "arms request " << e.a << " to rank " << e.peer << " for a worker"; break;
      case step::disarm: o << "takes back armed request " << e.a; break;
      case step::claim: o << "a worker claims request " << e.a << (e.b ? ", posted" : ", not posted"); break;
      case step::adopt: o << "adopts request " << e.a << " to rank " << e.peer << (e.b ? ", posted" : ", by message"); break;
      case step::work: o << "WORK for request " << e.a << " from rank " << e.peer << ": piece " << e.b; break;
      case step::refuse: o << "REFUSE of request " << e.a << " from rank " << e.peer; break;
      case step::inbox: o << "inbox <- piece " << e.b << " of rank " << e.peer << " (request " << e.a << ")"; break;
      case step::take: o << "a worker takes piece " << e.b << " of rank " << e.peer << " from the inbox"; break;
      case step::mail_in: o << "a piece of rank " << e.peer << " in the mailbox"; break;
      case step::take_mail: o << "a worker takes piece " << e.b << " of rank " << e.peer << " from the mailbox (request " << e.a << ")"; break;
      case step::mailed: o << "piece " << e.b << " went to rank " << e.peer << "'s mailbox (request " << e.a << ")"; break;
      case step::root_begin: o << "root call " << e.a << " begins"; break;
      case step::root_end: o << "root call " << e.a << " ends here"; break;
    }
    o << "\n";
  }
}

}  // namespace tascell::detail::net
