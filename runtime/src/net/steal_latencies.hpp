// How long each steal of work from another process took, from the request
// leaving to a worker holding the piece (in ns): written by the worker that
// takes a piece, or by the message thread that records one taken from the
// mailbox; read by TASCELL_STATS at the end of a root call.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

namespace tascell::detail::net {

class steal_latencies {
 public:
  void add(std::int64_t ns) {
    std::lock_guard<std::mutex> g(m_);
    ns_.push_back(ns);
  }
  std::vector<std::int64_t> take() {
    std::lock_guard<std::mutex> g(m_);
    std::vector<std::int64_t> v;
    v.swap(ns_);
    return v;
  }

 private:
  std::mutex m_;
  std::vector<std::int64_t> ns_;
};

}  // namespace tascell::detail::net
