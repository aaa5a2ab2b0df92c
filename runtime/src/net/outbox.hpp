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

 protected:
  ~outbox() = default;
};

}  // namespace tascell::detail::net
