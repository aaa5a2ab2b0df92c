// A task tree as the simulator sees it: a node runs its own part, then its
// iterations in order (the parts of a @dowork or the indices of a loop). An
// iteration is a subtree (a child node) or a leaf with a fixed cost. A
// subtree is known only by its work (seconds on one worker) until a steal
// needs to split it; then `expand` lists its iterations, whose works add up
// to the node's work exactly (the models keep this invariant).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scaling {

using node_id = std::uint64_t;
inline constexpr node_id no_node = ~node_id{0};

struct iteration {
  double work;    // seconds: the whole iteration, its subtree included
  node_id child;  // the subtree, or no_node (nothing to split)
};

struct expansion {
  double own = 0;                 // before the first iteration
  std::vector<iteration> its;     // in execution order
};

class tree_model {
 public:
  virtual ~tree_model() = default;
  virtual std::string name() const = 0;
  virtual node_id root() = 0;
  // The work of a subtree, as its parent's expansion gave it.
  virtual double root_work() = 0;
  // The node's own part and iterations; `work` is what the parent assigned
  // to it, and the iterations' works add up to work - own.
  virtual const expansion& expand(node_id n, double work) = 0;
  // Bytes of a piece's packed inputs (a WORK message) for this tree.
  virtual std::int64_t piece_bytes() const = 0;
  // Nodes of the whole tree (for reports).
  virtual double nodes() = 0;
  // Frames on the stack from node n's own frame (counted) to the frame
  // running at a random moment inside n's subtree: 1 + the mean depth of the
  // subtree's nodes below n (every node costs the same). What a lazy
  // function's unwinding saves and rebuilds when a request finds no point
  // above n (docs/architecture.md, "Lazy functions"); used only when the
  // machine's unwind_frame cost is set.
  virtual double frames_below(node_id n) = 0;
};

}  // namespace scaling
