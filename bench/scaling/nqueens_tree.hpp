// n-queens as the runtime runs it (tests/runtime/programs/nqueens.hpp): a
// node at row k < n is a loop over the n columns; a safe column is a child
// subtree (row k+1), an unsafe one costs nothing here. The children of a
// node are exact (the real boards, as bit masks). A subtree's size is:
//   - exact (counted) when its node is at most `exact_levels` rows from the
//     bottom or the whole tree is small;
//   - otherwise, below row `top_rows`, Knuth's estimator (random probes down
//     the tree, the product of the branching factors), deterministic per
//     board;
//   - above row `top_rows`, the sum of its children's sizes.
// A node's work is split among its iterations in proportion to their sizes,
// so work is conserved whatever the estimates' error.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "tree.hpp"

namespace scaling {

struct nqueens_options {
  int top_rows = 4;        // rows enumerated exactly at the top (sizes summed)
  int exact_levels = 7;    // subtrees this close to the bottom are counted exactly
  int probes = 64;         // Knuth probes per estimated subtree
  bool all_exact = false;  // count everything exactly (small n)
};

class nqueens_tree final : public tree_model {
 public:
  nqueens_tree(int n, double seconds_per_node, nqueens_options o = {});
  std::string name() const override;
  node_id root() override { return 0; }
  double root_work() override;
  const expansion& expand(node_id id, double work) override;
  std::int64_t piece_bytes() const override { return 4 * n_ + 48; }
  double nodes() override;
  double frames_below(node_id id) override;

  // Nodes of the subtree of an exact count from the empty board (for tests).
  std::uint64_t exact_nodes();
  std::uint64_t exact_solutions();

 private:
  struct board {
    std::uint32_t cols, left, right;  // occupied columns and diagonals, seen from the next row
    int row;
  };
  double size(const board& b);  // nodes of b's subtree, itself included (estimated or exact)
  double knuth(const board& b);
  template <class Visit>
  void probe(const board& b, std::uint64_t& s, Visit&& visit);
  // Every node of the subtree of the board (cols, left, right) at `row`,
  // itself included: visit(its row).
  template <class Visit>
  void walk(std::uint32_t cols, std::uint32_t left, std::uint32_t right, int row, Visit& visit);
  std::uint64_t count(std::uint32_t cols, std::uint32_t left, std::uint32_t right, int row,
                      std::uint64_t* solutions);
  node_id intern(const board& b);
  static std::uint64_t key(const board& b);

  int n_;
  std::uint32_t full_;
  double cost_;
  nqueens_options opt_;
  std::vector<board> boards_;
  std::unordered_map<std::uint64_t, double> sizes_;
  std::unordered_map<std::uint64_t, node_id> ids_;
  expansion buf_;
  // Nodes of the whole tree at each row (exact, or from Knuth probes): the
  // depth profile frames_below assumes for every subtree.
  std::vector<double> level_nodes_;
};

}  // namespace scaling
