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
//      (steal_victim::adopt_posted); a new standing proxy is published; state =
//      free. A claiming slot is being written: look again soon.
//   V leaves a root call only when every slot is free, after it has stopped
//      accepting (`accepting` = 0 first; T reads `accepting` after its
//      claim, so either T sees 0 and backs out, or V sees the claim).
//   T rings V's doorbell when no answer has come within ring_after: the
//      worker may be napping at a join, or V's message thread may have to
//      adopt the slot to withdraw it at the end of a root call.
//
// The answer, when it is a piece, comes back the same way: V's worker
// writes it (the bytes of a WORK message) into T's mailbox, a buffer in T's
// control area, and an idle worker of T takes it (or T's message thread,
// which looks at the mailbox on every turn, when no worker has for a
// while). Neither V's message thread nor MPI is on the way; V's message
// thread learns of the piece at its next turn (the proxy's reply, marked
// `mailed`), or sooner when a message about the piece comes back. One
// mailbox per thief is enough: a process has one request for work out at a
// time, and asks again only after it has taken the answer. Refusals, and
// pieces that do not fit, travel by MPI.
//
// The piece's result comes back through shared memory too: the worker of T
// that ran it writes the bytes of its RESULT message into a ring in V's
// control area, one per thief (results_per_ring results of up to
// result_capacity bytes), and V takes them in order: a worker of V waiting
// at a join, or V's message thread at its turn (whoever holds V's turn,
// steal_victim::take_results). Single writer at a time (a lock word the
// thief's workers take; a busy lock or a full ring sends the result by
// MPI), single reader: the writer writes at `tail` only when `head` has
// passed it, the reader moves `head` after applying a result.
//   V's worker, having given piece p for the request of T:
//      mailbox.state is empty (else: by MPI) -> writes the bytes ->
//      p.mailed = true -> hands p to the proxy (reply) -> state = full.
//   T's message thread: state full -> copies the bytes -> state = empty ->
//      handles them as a WORK from V. Before it handles any batch, it takes
//      the mailbox first: a later message about the piece (a STOP, a
//      steal-back) must find it.
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "frame.hpp"
#include "shared_layout.hpp"

namespace tascell::detail::net {

struct worker_face;

class shared_requests {
 public:
  // A thief that has posted a request rings the victim's doorbell when no
  // answer has come after this long.
  static constexpr std::chrono::microseconds ring_after{200};
  // Slots (and standing proxies) per thief: a thief posts into a free one.
  // The victim's message thread frees a slot when it adopts the request
  // (at its next turn); with the piece going back through the mailbox that
  // may be after the thief wants to ask again, and with one slot that
  // request would go by MPI.
  static constexpr int slots_per_thief = shared_layout::slots_per_thief;

  // Collective over `node` (the processes of the run on this machine), from
  // the message thread, before the workers are made; every process calls
  // it, `wanted` or not. When every process wants it, each creates its
  // object (a control area and a page per worker) and maps every other
  // one's. False, with the reason, when not every process wants it or
  // shared memory cannot be had: requests then go by MPI.
  bool open(MPI_Comm node, bool wanted, int world_rank, int world_size, int workers, std::string& why);
  // Unmaps the other processes' objects (at exit).
  void close();
  // The size of a process's object and where worker i's page starts in it:
  // shared_layout::object_bytes and worker_offset.
  // Test hook (tests/runtime/shared_requests_test.cpp): plays process
  // `rank` of objects.size() processes on one machine (world ranks equal
  // ranks on the machine) whose objects, zeroed and each shared_layout::object_bytes()
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
  // Publishes the standing proxy for slot k of the thief `world_rank`.
  void stand(int world_rank, int k, worker_face* proxy);
  // Calls f(thief, k, seq, victim index) for each request posted in slot k
  // of a thief, then frees the slot; f must stand a new proxy there (the old
  // one is taken).
  // Returns whether a slot is being claimed (look again soon).
  template <class F>
  bool adopt(F&& f);
  // Stops accepting; true when every slot is free (the root call may end).
  bool quiet();

  // --- the mailbox: pieces answering posted requests ---
  // The largest WORK message that fits.
  static constexpr std::size_t mailbox_capacity = shared_layout::mailbox_capacity;
  // The request number of the request that thief `world_rank` posted here
  // last in slot k (the one the proxy standing there answers).
  std::uint64_t posted_seq(int world_rank, int k) const;
  // How many of thief `world_rank`'s slots hold a request the message
  // thread has not adopted yet.
  int unadopted(int world_rank) const;
  // A worker of this process, answering the request thief `world_rank`
  // posted: writes `bytes` into its mailbox without publishing them; false
  // (nothing written) when they do not fit or the mailbox is not empty.
  bool write_mail(int world_rank, std::string_view bytes);
  // ... then, once the piece is handed over, publishes them.
  void publish_mail(int world_rank);
  // The thief (its message thread, or an idle worker): the bytes in its own
  // mailbox and their sender; the mailbox is then being taken (no other
  // thread takes it) until mail_taken() or mail_empty(). False when it holds
  // nothing to take.
  bool claim_mail(int& from, std::string& bytes);
  // An idle worker has taken the piece (claim_mail) and runs it; the message
  // thread has not yet recorded it (then mail_empty()).
  void mail_taken();
  // The mailbox is empty again: its piece has been recorded by the message
  // thread.
  void mail_empty();
  // A worker could not read the piece it claimed: the message thread takes
  // it (and says what is wrong).
  void mail_full_again();
  // Where the mailbox is: empty, full, being taken, taken by a worker.
  enum : std::uint32_t { mail_is_empty = 0, mail_is_full = 1, mail_is_taking = 2, mail_is_taken = 3 };
  std::uint32_t mail_state() const;
  // The thieves on this machine (world ranks), for standing proxies.
  const std::vector<int>& thieves() const { return thieves_; }

  // --- results: the outputs of pieces that went through a mailbox ---
  // The largest RESULT message that fits, and how many wait at most.
  static constexpr std::size_t result_capacity = shared_layout::result_capacity;
  static constexpr int results_per_ring = shared_layout::results_per_ring;
  // A worker of this process that ran a piece victim `world_rank` gave it:
  // writes the result's bytes into the victim's ring for this process;
  // false (nothing written) when they do not fit, the ring is full or
  // another worker is writing there.
  bool write_result(int world_rank, std::string_view bytes);
  // Whether a result waits in this process's rings.
  bool results_waiting() const;
  // The victim (whoever holds its message thread's turn, one at a time):
  // calls f(thief, bytes) for every result waiting, in the order each
  // thief wrote them; a result is taken once f returns (if f throws, it
  // stays). True when it took any.
  template <class F>
  bool take_results(F&& f);

 private:
  using slot = shared_layout::slot;
  using result_ring = shared_layout::result_ring;
  using result_entry = shared_layout::result_entry;
  using mailbox = shared_layout::mailbox;
  using view = shared_layout::view;
  static constexpr std::uint32_t free_slot = shared_layout::free_slot, claiming = shared_layout::claiming,
                                 posted = shared_layout::posted;

  shared_layout layout_;  // the same in every process: it depends on the local size only
  int fd_ = -1;
  bool mapped_ = false;  // the views are mappings (not a test's memory)
  int local_rank_ = 0;
  int world_rank_ = 0;
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
bool shared_requests::take_results(F&& f) {
  if (!own_) return false;
  view me{own_, own_bytes_};
  bool any = false;
  for (int r : thieves_) {
    result_ring* g = layout_.ring_of(me, local_of_[static_cast<std::size_t>(r)]);
    std::uint64_t h = g->head.load(std::memory_order_relaxed);
    std::uint64_t t = g->tail.load(std::memory_order_acquire);
    for (; h < t; ++h) {
      const result_entry& e = g->entries[h % results_per_ring];
      if (e.bytes > result_capacity)
        throw malformed_message("a result in shared memory that says it holds " + std::to_string(e.bytes) + " bytes");
      f(r, std::string_view(e.data, e.bytes));
      g->head.store(h + 1, std::memory_order_release);  // the thief may write there again
      any = true;
    }
  }
  return any;
}

template <class F>
bool shared_requests::adopt(F&& f) {
  if (!own_) return false;
  view me{own_, own_bytes_};
  bool claims = false;
  for (int r : thieves_)
    for (int k = 0; k < slots_per_thief; ++k) {
      slot* s = layout_.slot_of(me, local_of_[static_cast<std::size_t>(r)], k);
      std::uint32_t st = s->state.load(std::memory_order_acquire);
      if (st == claiming) claims = true;
      if (st != posted) continue;
      f(r, k, s->seq, s->victim);
      s->state.store(free_slot, std::memory_order_release);
    }
  return claims;
}

}  // namespace tascell::detail::net
