// The chain: what a worker function records so that work can later be given
// away from it, and the hidden context every @task function receives.
//
// Each worker owns a node stack, in a region of its own aligned to
// region_bytes; the worker's signals sit at the start of the region. A
// @dowork pushes a spawn point, a @wind a wind node, a piece of work received
// from another worker a boundary node; they lie back to back, oldest lowest,
// in the order of the C++ frames that pushed them.
//
// The hidden parameter `ctx` is one scalar: the address just past the newest
// node (where the next one goes), so pushing a node is a few stores at a
// known address and popping it is free: the caller's ctx still points below
// it. The worker is found from ctx by masking (it is at the region's start),
// so ctx needs no second word. Keeping nodes out of the C++ frame also keeps
// every frame variable private to its frame, which lets the compiler keep
// them in registers and turn the last part of a @dowork into a loop.
//
// Every node ends with its kind word: the address of its static node_kind,
// whose `size` leads from the node's end to its start; so the runtime walks
// the chain downwards on its slow paths.
//
// Bit 0 of ctx (and of a kind word, recording the ctx the node was pushed
// under) means "a @dowork whose work has all started sits here": a @dowork
// runs its last part after its point is gone (nothing is left to give, and
// the part can be a tail call), and cancel() must know that the innermost
// @dowork of that part is that finished one, not the next point down.
//
// Invariant (single owner): only the worker that owns a node stack reads or
// writes its nodes. Requests from other workers are served by the owner at
// its polls, so none of these fields needs to be atomic.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>

#include "tascell/detail/macros.hpp"

namespace tascell {

// The hidden parameter of every @task function.
enum class ctx : std::uintptr_t {};

struct spawn_point;
struct task;
namespace detail {
struct worker;
struct point_aux;
struct wire_ops;
}

// A lazy_mark sits at the bottom of a stretch of lazy frames whose @wind
// statements write no node (lazy.hpp): no point below it may be given from
// while it is on the chain.
enum class node_type : std::uint8_t { point, wind, boundary, lazy_mark };

// Static description of a node; one per @dowork / @wind site (per template
// instantiation), so a node stores only its address.
struct node_kind {
  node_type type;
  std::uint32_t size;  // bytes of the node, kind word included
  // --- spawn points ---
  // Packs the work [lo, hi) of `p` into a new task: copies of its inputs
  // (put). Called by the owner while serving a request, after undoing winds.
  task* (*put)(spawn_point* p, std::int64_t lo, std::int64_t hi);
  // Runs a task on the worker that received it (pushes its own point so the
  // work can be split again).
  void (*run)(ctx c, task* t);
  // Priority of the work at `p` (priority clause), or nullptr: all 0.
  std::int64_t (*priority)(spawn_point* p);
  // True when the work can only run in this process (captures by reference,
  // or a shared() pointer).
  bool local_only;
  const char* site;  // a name, for traces and messages
  // --- winds ---
  void (*undo)(void* n);  // run `after`
  void (*redo)(void* n);  // run `before`
  // --- spawn points whose work can go to another process (wire.hpp) ---
  const detail::wire_ops* wire;
  // --- spawn points whose work is placed by the thief's rank (a loop over
  // a table's indices, table_loop.hpp): the unit of work this point gives
  // a thief of process `rank` (-1: a thief of this process), or -1 when it
  // has none for it. With it, put
  // receives [unit, unit + 1), updates the point itself and returns a task
  // with its kind and range set.
  std::int64_t (*place)(spawn_point* p, int rank) = nullptr;
};

// The start of every spawn point: work [next, end) of this @dowork has not
// started and may be given away. The owner advances `next` as it starts
// parts/iterations; serving a request lowers `end`. Everything else about
// the point (pieces given away, stop requests) lives in a point_aux kept by
// the worker, created on the slow path only.
struct spawn_point {
  std::int64_t next;
  std::int64_t end;
};

// A piece of work given away: the range [lo, hi) of one spawn point's kind,
// followed (in the derived type) by copies of its inputs and its outputs.
//
// Cache-line aligned, so that where malloc puts a task does not change how
// fast the thief runs it: the thief's loop reads and writes the task's
// copies (inputs, reduction targets) all through the piece. Grav on 2
// workers took 3% longer with its task 48 bytes into a line than 16 bytes
// into one (which one a run gets depends on what was allocated before);
// aligned, the layout is the same every time, and fast (docs/history/performance-sessions.md,
// session 13).
struct alignas(64) task {
  const node_kind* kind = nullptr;
  std::int64_t lo = 0, hi = 0;
  detail::worker* victim = nullptr;      // who gave it (owner of the point)
  detail::point_aux* origin = nullptr;   // the point it came from, on the victim
  std::atomic<detail::worker*> thief{nullptr};  // who runs it
  // In the first line, with what both read: a derived task's copies begin
  // in the tail of the second (the ABI reuses the base's tail padding), and
  // a victim that waits at a join reads `done` while the thief writes them.
  std::atomic<bool> stop{false};         // the victim asks it to stop
  std::atomic<bool> cancel_up{false};    // cancel() was called inside it
  std::atomic<bool> done{false};         // set last by the thief (release)
  task* next_given = nullptr;            // victim's list (owner-only)
  std::exception_ptr error;              // first exception thrown in it
  std::uint64_t serial = 0;              // unique per process, for traces
  bool completed = false;                // every index in [lo, hi) finished
  bool merged = false;                   // victim: accounted for at the join (owner-only)
  // Victim: given to a thief of another process on this machine straight
  // through its mailbox in shared memory (net/shared_requests.hpp), not by
  // the message thread. Written before the piece is handed to the proxy.
  bool mailed = false;
  // Thief, a piece from another process whose victim has asked for part of
  // it back: the victim waits at its join, so the result wakes it (message
  // thread only; net/steal_protocol.cpp, send_result).
  std::atomic<bool> waited_for{false};
  // A piece that came from another process: the victim's rank and its
  // handle for the piece there; -1 for a piece of this process.
  std::int32_t from_rank = -1;
  std::uint64_t from_handle = 0;
  std::int64_t asked_ns = 0;  // when the request for it left (steady clock; statistics)
  // The depth in the task tree of the spawn point it was split from: the
  // root call's first point is at 0, a point pushed while a point at depth
  // d is open at d + 1. A piece's own point (pushed by `run`) is at this
  // depth too.
  std::int32_t tree_depth = 0;
  virtual ~task() = default;
};

namespace detail {

// Every worker's region: its signals, then its node stack.
inline constexpr std::uintptr_t region_bytes = std::uintptr_t{1} << 26;

TASCELL_INLINE std::uintptr_t bits(ctx c) { return static_cast<std::uintptr_t>(c); }
TASCELL_INLINE char* free_of(ctx c) {
  return reinterpret_cast<char*>(bits(c) & ~std::uintptr_t{1});
}
TASCELL_INLINE bool is_finished(ctx c) { return (bits(c) & 1u) != 0; }
TASCELL_INLINE ctx finished(ctx c) { return ctx(bits(c) | 1u); }
TASCELL_INLINE ctx after(const void* node_end) {
  return ctx(reinterpret_cast<std::uintptr_t>(node_end));
}
TASCELL_INLINE worker* worker_of(ctx c) {
  return reinterpret_cast<worker*>(bits(c) & ~(region_bytes - 1));
}
// The kind word of a node pushed under ctx c.
TASCELL_INLINE std::uintptr_t kind_word(const node_kind* k, ctx c) {
  return reinterpret_cast<std::uintptr_t>(k) | (bits(c) & 1u);
}
inline const node_kind* kind_of_word(std::uintptr_t w) {
  return reinterpret_cast<const node_kind*>(w & ~std::uintptr_t{1});
}

}  // namespace detail
}  // namespace tascell
