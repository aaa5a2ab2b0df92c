// Stealing between processes: the message thread's routing between the two
// sides (steal_protocol.hpp).
#include "steal_protocol.hpp"

#include <cstdio>
#include <sstream>
#include <string>

namespace tascell::detail::net {

void steal_protocol::place(int rank, int size, std::uint64_t seed) {
  c_.rank = rank;
  c_.size = size;
  c_.rng = seed | 1u;
  c_.loads.assign(static_cast<std::size_t>(size), 0);
}

void steal_protocol::open_shared(MPI_Comm node, bool wanted, int workers) {
  std::string why;
  if (c_.shared.open(node, wanted, c_.rank, c_.size, workers, why)) {
    victim_.stand_all();
  } else if (c_.cfg.stats && wanted) {
    std::fprintf(stderr, "tascell: rank %d: requests from this machine go by MPI: %s\n", c_.rank, why.c_str());
  }
}

void steal_protocol::share_for_testing(const std::vector<char*>& objects, int workers) {
  c_.shared.attach_for_testing(c_.rank, objects, workers);
  victim_.stand_all();
}

bool steal_protocol::quiet_for_root_end(bool& acted) {
  acted = false;
  // A request armed for a worker is taken back; one a worker made is adopted
  // (and answered) first.
  if (thief_.adopt_or_disarm()) {
    acted = true;
    return false;
  }
  if (!thief_.request().quiet() || !victim_.quiet()) return false;
  // No request posted through shared memory is left unadopted (it stops
  // accepting them first); one posted meanwhile is adopted, and withdrawn,
  // soon (the back-off starts over).
  if (!c_.shared.quiet()) {
    victim_.see_claims();
    return false;
  }
  return true;
}

void steal_protocol::on_request_message(int from, reader& r) {
  auto n = r.get<std::uint64_t>("a root call number");
  auto seq = r.get<std::uint64_t>("a request number");
  auto wanted = r.get<std::uint64_t>("a wanted piece");
  // The asker has begun the next root call and this process has not yet:
  // answer when it begins, rather than refuse and make the asker back off
  // just when the work appears.
  if (!c_.root.in_root() && n == c_.root.number() + 1 && !wanted) {
    victim_.defer(from, seq);
    return;
  }
  if (n != c_.root.number()) return c_.refuse(from, seq);
  // A steal-back asks for a piece that runs here.
  victim_.on_request(from, seq, wanted != 0, wanted ? pieces_.find(from, wanted) : nullptr);
}

void steal_protocol::on_work(int from, reader& r) {
  std::uint64_t seq = 0;
  task* t = thief_.on_work(from, r, seq);
  if (!t || victim_.answer_back(seq, t)) return;  // this process's request, or a steal-back's
  pieces_.forget(from, t->from_handle);
  delete t;
  throw malformed_message("work that answers no request");
}

void steal_protocol::on_refuse(int from, std::uint64_t seq) {
  if (thief_.on_refuse(from, seq) || victim_.answer_back(seq, refused)) return;
  throw malformed_message("a refusal that answers no request");
}

std::string steal_context::say_log() const {
  std::string prefix = "tascell: rank " + std::to_string(rank) + ": ";
  std::ostringstream m;
  log.print(m, prefix.c_str());
  return m.str();
}

}  // namespace tascell::detail::net
