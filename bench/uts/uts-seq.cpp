// UTS, sequential baseline: depth-first search of the tree, a loop over the
// children of every node, adding up nodes and leaves and keeping the deepest
// depth. The tascell variant with the markers erased; no cutoff.
#include "common/report.hpp"
#include "uts/uts-config.hpp"

using uts_config::state;

// Visits the subtree of the node with state s at depth d.
static void search(const state& s, int d, long& nodes, long& leaves, int& depth) {
  nodes += 1;
  if (d > depth) depth = d;
  int m = uts_config::num_children(*uts_config::the_tree, s, d);
  if (m == 0) {
    leaves += 1;
    return;
  }
  for (int i = 0; i < m; ++i) {
    state child = uts_config::child_state(s, i);
    search(child, d + 1, nodes, leaves, depth);
  }
}

int main(int argc, char** argv) {
  auto args = uts_config::parse_args(argc, argv);
  uts_config::counts c;
  // Sequential: TASCELL_WORKERS is ignored.
  return bench::run_checked(
      args, uts_config::known_answer(args.n), [](long) {},
      [&](long) {
        c = {};
        search(uts_config::root_state(uts_config::the_tree->seed), 0, c.nodes, c.leaves, c.depth);
        return c.nodes;
      },
      [&](long id, long) { return uts_config::check(args.prog, id, c); });
}
