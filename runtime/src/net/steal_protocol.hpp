// Stealing between processes: requests, proxies, steal-backs, pieces and
// their results (docs/message-thread.md has a diagram of each exchange).
// Two sides, the pieces between them, and what they share:
//   steal_thief.hpp     this process asking for work and running what comes
//   received_pieces.hpp the pieces of other processes here: their stops,
//                       steal-backs and results
//   victim_ranks.hpp    which process to ask for work next
//   steal_victim.hpp    other processes' requests served here, by proxies
//                       (proxy_pool.hpp)
//   victim_mail.hpp     ... and, for a thief on this machine, pieces put
//                       into its mailbox and results taken from the rings
//   steal_context.hpp   what all use (the process, the outbox, the loop,
//                       the request numbers, shared memory)
// This class owns the six and is the message thread's view of them: it
// routes each message to its side (a WORK or REFUSE answers this process's
// request or one of its steal-backs; a REQUEST is held for the next root
// call or served), opens shared memory, and says when the root call may
// end and when an answer is due. Workers and the network call the sides
// themselves (thief(), pieces(), victims(), victim(), mail()).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "steal_context.hpp"
#include "steal_thief.hpp"
#include "steal_victim.hpp"
#include "victim_mail.hpp"

namespace tascell::detail::net {

class steal_protocol {
 public:
  steal_protocol(host& h, const settings& cfg, outbox& out, protocol_log& log, const root_protocol& root,
                 loop_services& loop)
      : c_(h, cfg, out, log, root, loop) {}
  steal_protocol(const steal_protocol&) = delete;
  steal_protocol& operator=(const steal_protocol&) = delete;

  steal_thief& thief() { return thief_; }
  const steal_thief& thief() const { return thief_; }
  received_pieces& pieces() { return pieces_; }
  const received_pieces& pieces() const { return pieces_; }
  // Which process this one asks for work next.
  victim_ranks& victims() { return victims_; }
  steal_victim& victim() { return victim_; }
  const steal_victim& victim() const { return victim_; }
  victim_mail& mail() { return mail_; }
  const victim_mail& mail() const { return mail_; }

  // Once the ranks are known.
  void place(int rank, int size, std::uint64_t seed);
  // Requests and pieces between the processes of this machine through
  // shared memory (collective over `node`), when every process wants it.
  void open_shared(MPI_Comm node, bool wanted, int workers);
  // The protocol simulation's processes of one machine.
  void share_for_testing(const std::vector<char*>& objects, int workers);
  // At exit.
  void close_shared() { c_.shared.close(); }
  bool shares_requests() const { return c_.shared.active(); }
  void place_worker(int i, void* region) {
    if (c_.shared.active()) c_.shared.place_worker(i, region);
  }

  // --- the message thread ---
  // The start of a turn.
  void begin_turn() {
    thief_.begin_turn();
    victim_.begin_turn();
  }
  // This process began a root call: requests held for it are served.
  void root_begun() {
    thief_.root_begun();
    victim_.root_begun();
  }
  // Nothing of this process's stealing is out (no request, proxy,
  // steal-back or posted slot): the root call may end here. Takes back an
  // armed request and adopts one a worker made first.
  bool quiet_for_root_end(bool& acted);
  // Messages.
  void heard_load(int from, int load) { c_.loads[static_cast<std::size_t>(from)] = load; }
  void on_request_message(int from, reader& r);
  void on_work(int from, reader& r);
  void on_refuse(int from, std::uint64_t seq);
  // An answer from a process that `polled(rank)` may come any moment.
  template <class Polled>
  bool answer_due(Polled polled) const;

  // Introspection (describe.cpp): the SIGUSR1 dump's lines, what the message
  // thread knows of one proxy.
  void describe_all(std::ostream& m) const;
  void describe(const worker_face* proxy_worker) const;

 private:
  steal_context c_;
  received_pieces pieces_{c_};
  victim_ranks victims_{c_};
  steal_thief thief_{c_, pieces_, victims_};
  steal_victim victim_{c_};
  victim_mail mail_{c_, victim_, victim_.pieces_sent()};
};

template <class Polled>
bool steal_protocol::answer_due(Polled polled) const {
  bool due = thief_.request().answer_due(polled) || victim_.answer_due(polled);
  for (int r = 0; r < c_.size; ++r)
    due = due || (r != c_.rank && c_.loads[static_cast<std::size_t>(r)] == 0 && polled(r));
  return due;
}

}  // namespace tascell::detail::net
