// What this process's workers ask of the network, and nothing else: take a
// piece another process sent, take results waiting in shared memory, hand
// over a piece given to a proxy or one that finished or was cancelled here,
// spread an incumbent or a board write, wake the message thread, ask it to
// describe a proxy. The network owns one (network::workers()); the runtime
// keeps a pointer to it (runtime::link()), so worker code (join, serve,
// request, watchdog) includes this header and not network.hpp.
//
// The calls go straight to the thief's and the victim's sides
// (steal_thief.hpp, received_pieces.hpp, steal_victim.hpp) or post an event for the message
// thread (event_queue.hpp); none takes the turn's lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "doorbell.hpp"
#include "event_queue.hpp"
#include "steal_protocol.hpp"

namespace tascell::detail::net {

class worker_link {
 public:
  worker_link(steal_protocol& steal, event_queue& events, doorbell& bell)
      : steal_(steal), events_(events), bell_(bell) {}
  worker_link(const worker_link&) = delete;
  worker_link& operator=(const worker_link&) = delete;

  // A piece that another process sent for this one, or nullptr; a worker
  // that gets nullptr counts as hungry (when it says it may take work) until
  // it runs something.
  task* take_work(worker_face* w, bool hungry = true) { return steal_.thief().take_work(w, hungry); }
  // A request of this process for work is out: idle workers should stay
  // awake for the answer (until a worker has taken it: a worker that naps
  // then would start it tens of microseconds late).
  bool expecting_work() const { return steal_.thief().expecting_work(); }
  // Requests from processes on this machine may come through shared memory
  // (TASCELL_NODE_REQUESTS=shared, shared_requests.hpp).
  bool shares_requests() const { return steal_.shares_requests(); }
  // A worker waiting at a join: the results of pieces given to processes of
  // this machine wait in shared memory (received_pieces::mail_result) until
  // it, or the message thread, takes them. True when it took any.
  bool take_results() { return steal_.mail().take_results_here(); }

  // A worker of this process has given t for the proxy `proxy_worker`, not
  // yet handed it over: when the proxy answers a request that a thief on
  // this machine posted through shared memory, writes t into that thief's
  // mailbox (shared_requests.hpp), marks it `mailed` and returns the
  // thief's rank; then, once t is handed to the proxy, the worker calls
  // mail_sent(rank), which lets the thief see it. -1 when t must go by MPI
  // (the worker then wakes the message thread, which sends it).
  int mail_piece(worker_face* proxy_worker, task* t) { return steal_.mail().mail_piece(proxy_worker, t); }
  void mail_sent(int thief) { steal_.mail().mail_sent(thief); }

  // A piece from another process finished on worker w of this one
  // (run_task): its outputs go back. The network owns t from here on. A
  // worker that goes back to looking for work (`last`: nothing under the
  // piece, neither a piece it was nested in nor a waiting fiber, and it is
  // not running the root task) counts as hungry from here, and when its
  // whole process is, it posts the next request first
  // (steal_thief::piece_finishing): the ring that sends the outputs may let
  // the message thread take its core for the length of a turn.
  void piece_finished(task* t, worker_face* w, bool last);
  // cancel() was called inside a piece from another process.
  void piece_cancelled(task* t) { events_.post({event_queue::event::cancelled, t, 0, 0, {}}); }
  // An incumbent improved here: spread it.
  void incumbent_improved(std::uint64_t id, std::string value) {
    events_.post({event_queue::event::improved, nullptr, id, 0, std::move(value)});
  }
  // A board was written here: send the write to every process.
  void board_published(std::uint64_t id, std::uint64_t key, std::uint64_t stamp, std::string value) {
    events_.post({event_queue::event::published, nullptr, id, 0, std::move(value), key, stamp});
  }

  // Wakes the message thread if it sleeps (a proxy's request was answered).
  void wake() { bell_.ring_self(); }
  // A worker has waited long for an answer from `proxy_worker`, a proxy of
  // this process (watchdog.cpp): on its next turn the message thread says
  // on stderr what it knows of that proxy and of its own requests
  // (describe.cpp). One at a time; a second call before that turn replaces
  // the first.
  void describe_proxy(worker_face* proxy_worker) {
    describe_.store(proxy_worker, std::memory_order_release);
    wake();
  }
  // The message thread, at its turn: the proxy to describe, or nullptr.
  worker_face* take_proxy_to_describe() {
    if (!describe_.load(std::memory_order_relaxed)) [[likely]]
      return nullptr;
    return describe_.exchange(nullptr, std::memory_order_acq_rel);
  }

 private:
  steal_protocol& steal_;
  event_queue& events_;
  doorbell& bell_;
  std::atomic<worker_face*> describe_{nullptr};
};

}  // namespace tascell::detail::net
