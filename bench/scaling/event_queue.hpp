// Timed events, earliest first; equal times in the order they were posted,
// so a run is deterministic for a given seed.
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

namespace scaling {

enum class ev : std::uint8_t {
  unit_done,    // a worker's running unit of work ends (a = worker, ver)
  serve,        // a worker answers the request posted to it (a = worker)
  reply,        // a worker's request is answered (a = worker, b = piece or -1)
  attempt,      // a turn of an idle or waiting worker's loop (a = worker, ver)
  proxy_reply,  // a proxy's request was answered; its message thread sees it (a = proxy, b = piece or -1)
  message,      // a message thread handles a message (a = message)
  ask,          // a message thread considers asking another process (a = process)
};

struct event {
  double t;
  std::uint64_t order;
  ev kind;
  int a, b;
  std::uint64_t ver;
};

class event_queue {
 public:
  void post(double t, ev kind, int a, int b = 0, std::uint64_t ver = 0) {
    q_.push({t, next_++, kind, a, b, ver});
  }
  bool empty() const { return q_.empty(); }
  event pop() {
    event e = q_.top();
    q_.pop();
    return e;
  }
  std::uint64_t posted() const { return next_; }

 private:
  struct later {
    bool operator()(const event& x, const event& y) const {
      return x.t > y.t || (x.t == y.t && x.order > y.order);
    }
  };
  std::priority_queue<event, std::vector<event>, later> q_;
  std::uint64_t next_ = 0;
};

}  // namespace scaling
