// UTS with oneTBB, no cutoff: depth-first search where the loop over the
// children of every node is a parallel_reduce over a blocked range (the
// default auto_partitioner, no grainsize) of (nodes, leaves, depth), as
// oneTBB users write a parallel loop with reductions.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_reduce.h>

#include "common/report.hpp"
#include "uts/uts-config.hpp"

using uts_config::counts;
using uts_config::state;

static counts combine(const counts& a, const counts& b) {
  return {a.nodes + b.nodes, a.leaves + b.leaves, a.depth > b.depth ? a.depth : b.depth};
}

// The counts of the subtree of the node with state s at depth d.
static counts search(const state& s, int d) {
  counts c{1, 0, d};
  int m = uts_config::num_children(*uts_config::the_tree, s, d);
  if (m == 0) {
    c.leaves = 1;
    return c;
  }
  counts sub = tbb::parallel_reduce(
      tbb::blocked_range<int>(0, m), counts{},
      [&](const tbb::blocked_range<int>& r, counts acc) {
        for (int i = r.begin(); i != r.end(); ++i) acc = combine(acc, search(uts_config::child_state(s, i), d + 1));
        return acc;
      },
      combine);
  return combine(c, sub);
}

int main(int argc, char** argv) {
  auto args = uts_config::parse_args(argc, argv);
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism,
                         static_cast<std::size_t>(bench::workers()));
  counts c;
  return bench::run_checked(
      args, uts_config::known_answer(args.n), [](long) {},
      [&](long) {
        c = search(uts_config::root_state(uts_config::the_tree->seed), 0);
        return c.nodes;
      },
      [&](long id, long) { return uts_config::check(args.prog, id, c); });
}
