// What the two sides of stealing between processes share (steal_thief.hpp:
// this process asking for work and running what it gets; steal_victim.hpp:
// other processes' requests served here): the process they run in, its
// settings, the outbox, the protocol log, the root-call protocol and the
// message loop; this process's place among the others, the loads heard
// from them, the request numbers and the requests between the processes of
// this machine (shared_requests.hpp). steal_protocol.hpp owns one of each.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "../settings.hpp"
#include "frame.hpp"
#include "host.hpp"
#include "loop_services.hpp"
#include "outbox.hpp"
#include "protocol_log.hpp"
#include "root_protocol.hpp"
#include "shared_requests.hpp"
#include "worker_face.hpp"

namespace tascell::detail::net {

struct steal_context {
  steal_context(host& h, const settings& c, outbox& o, protocol_log& l, const root_protocol& r, loop_services& s)
      : process(h), cfg(c), out(o), log(l), root(r), loop(s) {}
  steal_context(const steal_context&) = delete;
  steal_context& operator=(const steal_context&) = delete;

  host& process;
  const settings& cfg;
  outbox& out;
  protocol_log& log;
  const root_protocol& root;
  loop_services& loop;

  // --- message thread only ---
  int rank = 0, size = 1;
  std::uint64_t rng = 1;    // xorshift state: victim ranks, the start of a choice of giver
  std::vector<int> loads;   // the last load heard from each rank (0: it had no work)
  std::uint64_t next_seq = 1;  // request numbers, for work and for steal-backs alike
  // Requests, pieces and results between the processes of this machine.
  shared_requests shared;

  // Pieces sent to other processes and the bytes of their inputs (what
  // their clauses packed), and the same for results: TASCELL_STATS shows
  // what a piece carries.
  struct sent_figures {
    std::atomic<std::int64_t> count{0}, bytes{0};
  };
  static void count_sent(sent_figures& f, std::size_t bytes) {
    f.count.fetch_add(1, std::memory_order_relaxed);
    f.bytes.fetch_add(static_cast<std::int64_t>(bytes), std::memory_order_relaxed);
  }

  std::chrono::steady_clock::time_point now() const { return loop.now(); }
  // Every worker of this process is idle (and the loop has its workers).
  bool all_hungry() const {
    if (!loop.attached()) return false;
    for (int i = 0; i < process.workers(); ++i)
      if (!process.worker(i)->hungry.load(std::memory_order_relaxed)) return false;
    return true;
  }
  [[noreturn]] void fatal(const std::string& cause) {
    loop.fatal(cause);
    std::abort();  // not reached: fatal() ends the process
  }
  // The protocol log's last steps, for an internal error's message.
  std::string say_log() const;
  // Runs f, turning a malformed message from `from` into a fatal error.
  template <class F>
  void guarded(int from, F&& f) {
    guard_message(from, f, [&](const std::string& cause) { fatal(cause); });
  }
  // Refuses request seq of process `to`.
  void refuse(int to, std::uint64_t seq) {
    writer w(out.begin(to, msg::refuse));
    w.put(seq);
  }
};

}  // namespace tascell::detail::net
