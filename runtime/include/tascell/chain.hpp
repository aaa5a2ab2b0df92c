// The chain: what a worker function keeps in its own frame so that work can
// later be given away from it, and the hidden context every @task function
// receives.
//
// A worker's chain is a singly linked list of nodes that live in the frames of
// the functions it is running, newest first. There are three kinds of node:
//   - spawn points (a @dowork: parts or a loop range not yet started),
//   - winds (a @wind: its after/before are run around temporary backtracking),
//   - task boundaries (the start of a piece of work received from another
//     worker; the nodes below it belong to the frames under it).
// The newest node is not stored in the worker: it travels in `ctx::top`, the
// hidden parameter, just as Tascell passes its nested-function chain. Pushing
// a node is therefore a few stores into the frame, and popping it is free.
//
// Invariant (single owner): only the worker that runs a frame reads or writes
// the nodes in it. Requests from other workers are served by the owner itself,
// at its polls, so none of these fields needs to be atomic.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>

#include "tascell/detail/macros.hpp"

namespace tascell {

struct node;
struct spawn_point;
struct task;
namespace detail {
struct worker;
struct point_aux;
}

// The hidden parameter of every @task function.
struct ctx {
  detail::worker* w;
  node* top;  // newest node of the chain, or nullptr at the root of a stack
};

enum class node_type : std::uint8_t { point, wind, boundary };

// Static description of a node; one per @dowork / @wind site (per template
// instantiation), so generated code never stores more than a pointer to it.
struct node_kind {
  node_type type;
  // --- spawn points ---
  // Packs the work [lo, hi) of `p` into a new task: copies of its inputs
  // (put). Called by the owner while serving a request, after undoing winds.
  task* (*put)(spawn_point* p, std::int64_t lo, std::int64_t hi);
  // Runs a task on the worker that received it (creates its own point so the
  // work can be split again).
  void (*run)(ctx c, task* t);
  // Merges a finished task's outputs and reduction values into the instance
  // described by `targets` (get).
  void (*merge)(void* targets, task* t);
  // Priority of the work at `p` (priority clause), or nullptr: all 0.
  std::int64_t (*priority)(spawn_point* p);
  // True when the work can only run in this process (captures by reference,
  // or a shared() pointer).
  bool local_only;
  const char* site;  // "file:line" or a name, for traces and messages
  // --- winds ---
  void (*undo)(node* n);  // run `after`
  void (*redo)(node* n);  // run `before`
};

struct node {
  node* prev;
  const node_kind* kind;
};

// A spawn point: work [next, end) of this @dowork has not started and may be
// given away. The owner advances `next` as it starts parts/iterations; serving
// a request lowers `end`. Everything else about the point (tasks given away,
// stop requests) lives in a point_aux kept on the worker, created on the slow
// path only.
struct spawn_point : node {
  std::int64_t next;
  std::int64_t end;
};

// A piece of work given away: the range [lo, hi) of one spawn point's kind,
// followed (in the derived type) by copies of its inputs and its outputs.
struct task {
  const node_kind* kind = nullptr;
  std::int64_t lo = 0, hi = 0;
  detail::worker* victim = nullptr;      // who gave it (owner of the point)
  detail::point_aux* origin = nullptr;   // the point it came from, on the victim
  std::atomic<detail::worker*> thief{nullptr};  // who runs it
  task* next_given = nullptr;            // victim's list (owner-only)
  std::exception_ptr error;              // first exception thrown in it
  std::uint64_t serial = 0;              // unique per process, for traces
  bool completed = false;                // every index in [lo, hi) finished
  bool merged = false;                   // victim: merged at the join (owner-only)
  std::atomic<bool> stop{false};         // the victim asks it to stop
  std::atomic<bool> cancel_up{false};    // cancel() was called inside it
  std::atomic<bool> done{false};         // set last by the thief (release)
  virtual ~task() = default;
};

}  // namespace tascell
