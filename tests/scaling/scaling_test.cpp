// Checks of the scaling simulator (bench/scaling/) on cases with known
// answers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "scaling/fib_tree.hpp"
#include "scaling/nqueens_tree.hpp"
#include "scaling/simulator.hpp"
#include "scaling/uts_tree.hpp"

namespace {

// A named check: the name says what was expected when it fails.
#define CHECK_THAT(ok, what) EXPECT_TRUE(ok) << (what)

bool close(double a, double b, double rel) { return std::fabs(a - b) <= rel * std::fabs(b); }

scaling::machine layout(int processes, int workers, scaling::remote_choice r = scaling::remote_choice::loaded) {
  scaling::machine m;
  m.processes = processes;
  m.workers = workers;
  m.remote = r;
  return m;
}

std::string label(const std::string& tree, const scaling::machine& m) {
  std::string s = tree;
  s += " on ";
  s += std::to_string(m.processes);
  s += "x";
  s += std::to_string(m.workers);
  return s;
}

// Work is conserved: what the workers ran adds up to the tree's work, and
// the run takes at least work / workers.
void conserved(scaling::tree_model& t, const scaling::machine& m) {
  scaling::simulator sim(t, m);
  scaling::result r = sim.run();
  std::string l = label(t.name(), m);
  CHECK_THAT(close(r.executed, r.work, 1e-9), l + ": work executed == the tree's work");
  CHECK_THAT(r.seconds * r.workers >= r.work * (1 - 1e-9), l + ": time >= work / workers");
  CHECK_THAT(close(r.work_time, r.work, 0.02) || r.work_time >= r.work, l + ": time working covers the work");
}

}  // namespace

TEST(Simulator, KnownCounts) {
  // Known counts.
  CHECK_THAT(scaling::fib_tree::calls(35) == 29860703.0, "fib(35) makes 29,860,703 calls");
  {
    scaling::nqueens_options o;
    o.all_exact = true;
    scaling::nqueens_tree q8(8, 1e-7, o), q13(13, 1e-7, o);
    CHECK_THAT(q8.exact_solutions() == 92, "8-queens: 92 solutions");
    CHECK_THAT(q13.exact_solutions() == 73712, "13-queens: 73,712 solutions");
    CHECK_THAT(close(q13.nodes(), static_cast<double>(q13.exact_nodes()), 1e-12), "13-queens: exact node count");
  }
  {
    // Knuth's estimator against the exact count (14 queens, 365,596 solutions).
    scaling::nqueens_options o;
    o.top_rows = 3;
    o.exact_levels = 4;
    o.probes = 64;
    scaling::nqueens_tree est(14, 1e-7, o);
    scaling::nqueens_options e;
    e.all_exact = true;
    scaling::nqueens_tree exact(14, 1e-7, e);
    double x = static_cast<double>(exact.exact_nodes());
    std::printf("     14-queens nodes: estimated %.0f, exact %.0f\n", est.nodes(), x);
    CHECK_THAT(close(est.nodes(), x, 0.03), "14-queens: estimated nodes within 3% of exact");
  }
}

TEST(Simulator, OneWorkerTakesTheSequentialTimePlusStart) {
  // One worker: the sequential time plus the set-up of the root piece, exactly.
  {
    scaling::fib_tree f(25, 1.4e-9);
    scaling::machine m = layout(1, 1);
    scaling::simulator sim(f, m);
    scaling::result r = sim.run();
    CHECK_THAT(close(r.seconds, r.work + m.costs.start, 1e-12), "fib(25) on 1 worker: work + start cost");
    CHECK_THAT(r.pieces_local == 0 && r.requests == 0, "fib(25) on 1 worker: no steals");
  }
}

TEST(Simulator, TwoWorkersWithFreeStealsHalveTheTime) {
  // Two workers with free steals: close to half the time.
  {
    scaling::fib_tree f(30, 1.4e-9);
    scaling::machine m = layout(1, 2);
    m.costs = {};
    m.costs.poll_interval = 1e-12;
    m.costs.signal = m.costs.give = m.costs.refuse = m.costs.start = m.costs.loop = m.costs.yield = 1e-12;
    m.costs.wake = 1e-12;
    scaling::simulator sim(f, m);
    scaling::result r = sim.run();
    CHECK_THAT(r.efficiency() > 0.99 && r.efficiency() <= 1.0 + 1e-9, "fib(30) on 2 workers, free steals: efficiency in (0.99, 1]");
  }
}

TEST(Simulator, EveryNodeRunsOnceOnEveryLayout) {
  // Conservation over layouts, trees and strategies (every node run once:
  // nothing lost, nothing twice).
  {
    scaling::fib_tree f(27, 1.4e-9);
    scaling::nqueens_options o;
    o.all_exact = true;
    scaling::nqueens_tree q(11, 1e-7, o);
    scaling::uts_tree u("T1S", 1e-7);
    for (scaling::tree_model* t : {static_cast<scaling::tree_model*>(&f), static_cast<scaling::tree_model*>(&q),
                                   static_cast<scaling::tree_model*>(&u)}) {
      conserved(*t, layout(1, 2));
      conserved(*t, layout(1, 8));
      conserved(*t, layout(3, 1));
      conserved(*t, layout(4, 4, scaling::remote_choice::random));
      conserved(*t, layout(4, 4, scaling::remote_choice::hierarchical));
      scaling::machine shared = layout(3, 1);
      shared.cores = 2;
      conserved(*t, shared);
    }
    CHECK_THAT(static_cast<long>(u.nodes()) == 257042, "UTS T1S: 257,042 nodes");
  }
}

TEST(Simulator, DeterministicForASeed) {
  // Deterministic for a seed.
  {
    scaling::fib_tree f(28, 1.4e-9);
    scaling::result a = scaling::simulator(f, layout(2, 3)).run();
    scaling::result b = scaling::simulator(f, layout(2, 3)).run();
    CHECK_THAT(a.seconds == b.seconds && a.pieces_local == b.pieces_local && a.messages == b.messages,
          "same seed, same run");
  }
}

TEST(Simulator, ThreeWorkersOnTwoCoresShareThem) {
  // 3 workers on 2 cores (processor sharing) take at least work / 2.
  {
    scaling::fib_tree f(28, 1.4e-9);
    scaling::machine m = layout(3, 1);
    m.cores = 2;
    scaling::result r = scaling::simulator(f, m).run();
    CHECK_THAT(r.seconds >= r.work / 2, "3 workers on 2 cores: time >= work / 2");
  }
}

TEST(Simulator, FramesBelowAreTheMeanDepthOfTheSubtree) {
  // fib(2): itself and two leaves one deeper: 1 + 2/3 frames; fib(3): calls
  // at depths 0, 1, 1, 2, 2: 1 + 6/5.
  scaling::fib_tree f(10, 1e-9);
  CHECK_THAT(close(f.frames_below(0), 1, 1e-12), "fib(0) is one frame");
  CHECK_THAT(close(f.frames_below(2), 1 + 2.0 / 3, 1e-12), "fib(2): 1 + 2/3 frames");
  CHECK_THAT(close(f.frames_below(3), 1 + 6.0 / 5, 1e-12), "fib(3): 1 + 6/5 frames");
  // n-queens 4, exact: 1 + 4 + 6 + 4 + 2 nodes on rows 0..4 (17 in all).
  scaling::nqueens_options o;
  o.all_exact = true;
  scaling::nqueens_tree q(4, 1e-7, o);
  ASSERT_EQ(q.exact_nodes(), 17u);
  CHECK_THAT(close(q.frames_below(q.root()), 1 + (4 + 12 + 12 + 8) / 17.0, 1e-12),
             "4-queens from the empty board: 1 + the mean row of its 17 nodes");
}

TEST(Simulator, LazyFramesUnwindOnlyWhenTheirCostIsSet) {
  // The eager lowering never unwinds; the lazy one unwinds at the first
  // request into a running unit and pays per frame, with the same work run.
  scaling::fib_tree f(30, 0.6e-9);
  scaling::machine eager = layout(1, 2);
  scaling::result e = scaling::simulator(f, eager).run();
  CHECK_THAT(e.unwindings == 0 && e.unwound_frames == 0, "eager: no unwinding");
  scaling::machine lazy = layout(1, 2);
  lazy.costs.unwind_frame = 25e-9;
  scaling::result l = scaling::simulator(f, lazy).run();
  CHECK_THAT(l.unwindings >= 1, "lazy fib(30) on 2 workers: at least the first request unwinds");
  CHECK_THAT(l.unwindings <= l.requests, "an unwinding is a request's");
  CHECK_THAT(l.unwound_frames >= l.unwindings && l.unwound_frames <= 30.0 * static_cast<double>(l.unwindings),
             "fib(30): between 1 and 30 frames per unwinding");
  CHECK_THAT(close(l.executed, l.work, 1e-9), "lazy: work executed == the tree's work");
  // A costly unwinding shows in the time: a millisecond per frame.
  scaling::machine slow = lazy;
  slow.costs.unwind_frame = 1e-3;
  scaling::result s = scaling::simulator(f, slow).run();
  CHECK_THAT(s.seconds > l.seconds + 1e-3, "1 ms per frame unwound makes the run longer");
}

TEST(Simulator, RingsAndTheMessageThreadsCpu) {
  // With slow polling (1 ms sleeps, 100 us latency), messages that ring
  // their receiver make the remote steals faster; work is conserved either
  // way, also with the message thread's turns taken from a worker.
  scaling::fib_tree f(30, 1.4e-9);
  scaling::machine m = layout(2, 1);
  m.net.latency = 100e-6;
  m.net.poll_urgent = 1e-3;
  m.net.poll_max = 1e-3;
  scaling::result polled = scaling::simulator(f, m).run();
  m.net.rings = true;
  m.net.ring_wake = 5e-6;
  scaling::result rung = scaling::simulator(f, m).run();
  CHECK_THAT(polled.median_remote_steal() > 0 && rung.median_remote_steal() > 0, "remote steals happened");
  CHECK_THAT(rung.median_remote_steal() < polled.median_remote_steal(), "rung steals are faster than polled");
  conserved(f, m);
  // Each turn of the message thread costs a working worker of its process
  // 200 us: the workers spend that much longer working than the work
  // itself takes (whatever the steals do to the run's length).
  m.net.thread_cpu = 200e-6;
  scaling::result charged = scaling::simulator(f, m).run();
  double overhead = charged.work_time - charged.work, before = rung.work_time - rung.work;
  CHECK_THAT(overhead > before + 200e-6, "the message thread's turns are taken from the workers: " +
                                             std::to_string(overhead) + " s working beyond the work against " +
                                             std::to_string(before) + " s without");
  conserved(f, m);
}
