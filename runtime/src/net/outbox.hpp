// Where a protocol between processes writes a message: into the batch for
// its destination, which the message thread sends when its turn ends
// (network.cpp). The protocols (root_protocol.hpp, the steal protocol) know
// only this, not how batches travel.
#pragma once

#include <string>

#include "frame.hpp"

namespace tascell::detail::net {

class outbox {
 public:
  // Starts a message of `type` to rank `to` and returns the batch to append
  // its fields to (with a `writer`).
  virtual std::string& begin(int to, msg type) = 0;
  // The same for a message that need not wake the receiver: a process on
  // this machine finds it at its next turn instead of being rung for it
  // (a batch of only such messages does not ring).
  virtual std::string& begin_quiet(int to, msg type) = 0;

 protected:
  ~outbox() = default;
};

}  // namespace tascell::detail::net
