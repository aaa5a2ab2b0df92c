// Which process this one asks for work next: one where work is known to
// wait for it (a loop over a table's indices holds its block there), else
// the most loaded one heard of (TASCELL_REMOTE_VICTIM=loaded), else one at
// random. The message thread's.
#pragma once

#include "steal_context.hpp"

namespace tascell::detail::net {

class victim_ranks {
 public:
  explicit victim_ranks(steal_context& c) : c_(c) {}
  victim_ranks(const victim_ranks&) = delete;
  victim_ranks& operator=(const victim_ranks&) = delete;

  int choose();
  // Work waits for this process at `rank`: the next request goes there.
  void prefer(int rank) { preferred_ = rank; }

 private:
  int random_other();

  steal_context& c_;
  int preferred_ = -1;
};

}  // namespace tascell::detail::net
