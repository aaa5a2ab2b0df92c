// Requests for work between processes on one machine, posted through shared
// memory instead of an MPI message (TASCELL_NODE_REQUESTS=shared).
//
// Through MPI, a steal between two processes begins with a REQUEST that the
// victim's message thread must receive: the thief rings its doorbell, and
// the victim's message thread, asleep, wakes on another core (14-45 us in
// this VM, bench/mpi/wake_latency.cpp), receives the request and posts it to
// a busy worker through a proxy. Here the thief's message thread posts it to
// that worker itself. Every worker's first page (its `attention` and
// `requester` words, worker.hpp) is mapped from a shared-memory object that
// the other processes of the machine map too; each message thread keeps, for
// every other process of the machine, a *standing proxy* ready (a proxy not
// yet asked for anything) and publishes its address. A thief claims a busy
// worker's `requester` for the victim's standing proxy for it and sets the
// worker's `attention`; the worker gives at its next poll, as to any proxy,
// and rings its own message thread, on its own core, which sends the piece
// by MPI as before. Everything after the request (WORK or REFUSE, results,
// stops, steal-backs) travels by MPI as before.
//
// The protocol, per (victim process V, thief process T): one slot in V's
// control area, indexed by T's rank on the machine.
//   T: slot.state free -> claiming (compare-and-swap), then reads V's
//      `accepting` (the root call V takes requests for): not T's own root
//      call -> state = free, and the request goes by MPI. Otherwise it writes
//      the request number and the worker's index (giver.hpp), then
//      compare-and-swaps the worker's `requester` from null to the standing
//      proxy (failure: state = free, by MPI), then state = posted, then the
//      worker's `attention` = 1.
//   V's worker: as for any proxy (serve.cpp, answer_request): gives or
//      refuses and rings its message thread.
//   V's message thread, every turn: a posted slot becomes an ordinary proxy
//      (network::adopt_posted); a new standing proxy is published; state =
//      free. A claiming slot is being written: look again soon.
//   V leaves a root call only when every slot is free, after it has stopped
//      accepting (`accepting` = 0 first; T reads `accepting` after its
//      claim, so either T sees 0 and backs out, or V sees the claim).
//   T rings V's doorbell when no answer has come within ring_after: the
//      worker may be napping at a join, or V's message thread may have to
//      adopt the slot to withdraw it at the end of a root call.
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace tascell::detail {
struct worker_impl;
}

namespace tascell::detail::net {

class shared_requests {
 public:
  // A thief that has posted a request rings the victim's doorbell when no
  // answer has come after this long.
  static constexpr std::chrono::microseconds ring_after{200};

  // Collective over `node` (the processes of the run on this machine), from
  // the message thread, before the workers are made; every process calls
  // it, `wanted` or not. When every process wants it, each creates its
  // object (a control area and a page per worker) and maps every other
  // one's. False, with the reason, when not every process wants it or
  // shared memory cannot be had: requests then go by MPI.
  bool open(MPI_Comm node, bool wanted, int world_rank, int world_size, int workers, std::string& why);
  // Unmaps the other processes' objects (at exit).
  void close();
  // The size of a process's object (local_size processes on the machine,
  // `workers` worker pages after the control area), and where worker i's
  // page starts in it.
  static std::size_t object_bytes(int local_size, int workers);
  static std::size_t worker_offset(int local_size, int i);
  // Test hook (tests/runtime/shared_requests_test.cpp): plays process
  // `rank` of objects.size() processes on one machine (world ranks equal
  // ranks on the machine) whose objects, zeroed and each object_bytes()
  // long, are in this process's memory. close() forgets them.
  void attach_for_testing(int rank, const std::vector<char*>& objects, int workers);
  bool active() const { return own_ != nullptr; }

  // Worker i's first page, mapped from this process's object at the start
  // of its region (before the worker is constructed there). False when the
  // mapping failed: this process then never accepts requests this way.
  bool place_worker(int i, void* region);

  // --- the thief's message thread ---
  // Whether requests to `world_rank` can be posted this way.
  bool reaches(int world_rank) const;
  // Posts request `seq` of root call `root` to a busy worker of `world_rank`
  // (with `largest`, the one whose oldest work is shallowest in the task
  // tree; otherwise the first busy one from `start`). False when it cannot
  // (no standing proxy, another root call, no busy worker, the worker is
  // being asked already): the request then goes by MPI.
  bool post(int world_rank, std::uint64_t root, std::uint64_t seq, bool largest, std::uint64_t start);

  // --- the victim's message thread ---
  // The root call this process takes requests for (0: none).
  void set_accepting(std::uint64_t root);
  // Publishes the standing proxy for the thief `world_rank`.
  void stand(int world_rank, worker_impl* proxy);
  // Calls f(thief, seq, victim index) for each posted request, then frees its
  // slot; f must stand a new proxy for that thief (the old one is taken).
  // Returns whether a slot is being claimed (look again soon).
  template <class F>
  bool adopt(F&& f);
  // Stops accepting; true when every slot is free (the root call may end).
  bool quiet();
  // The thieves on this machine (world ranks), for standing proxies.
  const std::vector<int>& thieves() const { return thieves_; }

 private:
  enum : std::uint32_t { free_slot = 0, claiming = 1, posted = 2 };
  // One cache line per thief (the object is mapped at a page boundary).
  struct slot {
    std::atomic<std::uint32_t> state;
    std::int32_t victim;
    std::uint64_t seq;
    std::atomic<std::uint64_t> proxy;  // the standing proxy's address in the victim
    char pad[40];
  };
  static_assert(sizeof(slot) == 64);
  struct header {
    std::atomic<std::uint64_t> accepting;
    std::int32_t workers;
    char pad[52];
  };
  static_assert(sizeof(header) == 64);
  struct view {
    char* base = nullptr;  // the control area, then the worker pages
    std::size_t bytes = 0;
  };
  header* head(const view& v) const { return reinterpret_cast<header*>(v.base); }
  slot* slot_of(const view& v, int local) const {
    return reinterpret_cast<slot*>(v.base + sizeof(header)) + local;
  }
  worker_impl* worker_of(const view& v, int i) const {
    return reinterpret_cast<worker_impl*>(v.base + control_bytes_ + static_cast<std::size_t>(i) * page_);
  }

  static std::size_t page_bytes();
  static std::size_t control_size(int local_size);

  int fd_ = -1;
  bool mapped_ = false;  // the views are mappings (not a test's memory)
  std::size_t page_ = 4096;
  std::size_t control_bytes_ = 0;  // the same in every process: it depends on the local size only
  int local_rank_ = 0;
  char* own_ = nullptr;
  std::size_t own_bytes_ = 0;
  std::vector<view> of_rank_;  // by world rank: another process's object here, or empty
  std::vector<int> local_of_;  // world rank -> rank on this machine, or -1
  std::vector<int> thieves_;
  // Open, and every worker page in place (place_worker runs on the thread
  // that makes the runtime, set_accepting on the message thread).
  std::atomic<bool> usable_{false};
  std::uint64_t accepting_ = 0;  // last published
};

template <class F>
bool shared_requests::adopt(F&& f) {
  if (!own_) return false;
  view me{own_, own_bytes_};
  bool claims = false;
  for (int r : thieves_) {
    slot* s = slot_of(me, local_of_[static_cast<std::size_t>(r)]);
    std::uint32_t st = s->state.load(std::memory_order_acquire);
    if (st == claiming) claims = true;
    if (st != posted) continue;
    f(r, s->seq, s->victim);
    s->state.store(free_slot, std::memory_order_release);
  }
  return claims;
}

}  // namespace tascell::detail::net
