// What the protocols between processes need from the process they run in:
// its workers' shared words, whether the root call is over, and its
// incumbents and board. The runtime is the host of a real run
// (runtime.hpp); the protocol simulation (tests/sim/) hosts several
// simulated processes in one test process, each with workers of its own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace tascell {
struct task;
}

namespace tascell::detail::net {

struct worker_face;

class host {
 public:
  using board_write = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::string>;

  // This process's workers (proxies are not among them).
  virtual int workers() const = 0;
  virtual worker_face* worker(int i) const = 0;
  // The root task has finished here, or rank 0 said the root call is over:
  // workers leave it.
  virtual bool root_done() const = 0;
  virtual void mark_root_done() = 0;
  // Ends the naps of idle workers (work or a request arrived).
  virtual void wake_workers() = 0;
  // A piece given to another process has ended there (its result applied
  // to t): its victim may see it done (piece_done in worker.hpp).
  virtual void piece_done(task* t) = 0;
  // A cancel() came up from piece t in another process: t's point on its
  // victim must look at its pieces (alarm_victim in worker.hpp).
  virtual void alarm_victim(task* t) = 0;

  // Incumbents (incumbent.hpp): every value, as bytes, by id; applying a
  // value from another process says whether it improved this one's.
  virtual std::vector<std::pair<std::uint64_t, std::string>> incumbent_values() = 0;
  virtual bool apply_incumbent(std::uint64_t id, std::string_view bytes) = 0;
  // Board writes made here during the root call (taken: each is sent
  // once), and a write from another process.
  virtual std::vector<board_write> board_writes() = 0;
  virtual void apply_board(std::uint64_t id, std::uint64_t key, std::uint64_t stamp, std::string_view value) = 0;

 protected:
  ~host() = default;
};

}  // namespace tascell::detail::net
