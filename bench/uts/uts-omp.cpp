// UTS with OpenMP tasks, no cutoff: depth-first search with one task per
// child; the children's counts go into a local array that is summed after
// the taskwait. This is the standard OpenMP form of UTS (BOTS uts).
// (A taskloop with reduction(+: nodes, leaves) reduction(max: depth) over the
// children is the other natural form, but libgomp's task reductions get
// slower with the nesting depth: T3, 1572 deep, then takes ~10 s instead of
// ~0.3 s on one thread.)
#include <omp.h>

#include <vector>

#include "common/report.hpp"
#include "uts/uts-config.hpp"

using uts_config::counts;
using uts_config::state;

// The counts of the subtree of the node with state s at depth d.
static counts search(const state& s, int d) {
  counts c{1, 0, d};
  int m = uts_config::num_children(*uts_config::the_tree, s, d);
  if (m == 0) {
    c.leaves = 1;
    return c;
  }
  std::vector<counts> sub(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) {
#pragma omp task firstprivate(i) shared(s, sub)
    sub[static_cast<std::size_t>(i)] = search(uts_config::child_state(s, i), d + 1);
  }
#pragma omp taskwait
  for (const counts& x : sub) {
    c.nodes += x.nodes;
    c.leaves += x.leaves;
    if (x.depth > c.depth) c.depth = x.depth;
  }
  return c;
}

int main(int argc, char** argv) {
  auto args = uts_config::parse_args(argc, argv);
  omp_set_num_threads(bench::workers());
  counts c;
  return bench::run_checked(
      args, uts_config::known_answer(args.n), [](long) {},
      [&](long) {
        state root = uts_config::root_state(uts_config::the_tree->seed);
#pragma omp parallel
#pragma omp single
        c = search(root, 0);
        return c.nodes;
      },
      [&](long id, long) { return uts_config::check(args.prog, id, c); });
}
