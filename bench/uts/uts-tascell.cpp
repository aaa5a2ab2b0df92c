// UTS on the Tascell++ runtime API, as the translator lowers
//   @task void search(state s, int d, long& nodes, long& leaves, int& depth) {
//     nodes += 1; if (d > depth) depth = d;
//     int m = num_children(tree, s, d);
//     if (m == 0) { leaves += 1; return; }
//     @dowork reduction(+: nodes, leaves) reduction(max: depth)
//     for (int i = 0; i < m; ++i) { state child = child_state(s, i); search(child, d + 1, nodes, leaves, depth); }
//   }
// The parent's state is an input: copied only when work is given away. No
// cutoff. Workers: TASCELL_WORKERS.
#include <tascell/tascell.hpp>

#include "common/report.hpp"
#include "uts/uts-config.hpp"

using uts_config::state;

// Visits the subtree of the node with state s at depth d.
static void search(tascell::ctx c, const state& s, int d, long& nodes, long& leaves, int& depth) {
  nodes += 1;
  if (d > depth) depth = d;
  int m = uts_config::num_children(*uts_config::the_tree, s, d);
  if (m == 0) {
    leaves += 1;
    return;
  }
  tascell::dowork_for(c, tascell::range(0, m), tascell::in(s), tascell::in(d),
                      tascell::reduce<tascell::op::plus>(nodes), tascell::reduce<tascell::op::plus>(leaves),
                      tascell::reduce<tascell::op::max>(depth),
                      [](tascell::ctx c, std::int64_t i, const state& s, const int& d, long& nodes, long& leaves,
                         int& depth) {
                        state child = uts_config::child_state(s, i);
                        search(c, child, d + 1, nodes, leaves, depth);
                      });
}

static uts_config::counts uts(tascell::ctx c, int seed) {
  uts_config::counts r;
  search(c, uts_config::root_state(seed), 0, r.nodes, r.leaves, r.depth);
  return r;
}

int main(int argc, char** argv) {
  auto args = uts_config::parse_args(argc, argv);
  uts_config::counts c;
  return bench::run_checked(
      args, uts_config::known_answer(args.n), [](long) {},
      [&](long) {
        c = tascell::root(uts, uts_config::the_tree->seed);
        return c.nodes;
      },
      [&](long id, long) { return uts_config::check(args.prog, id, c); });
}
