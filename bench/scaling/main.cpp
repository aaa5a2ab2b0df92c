// scaling-sim: the command line of the simulator. One JSON line per run.
//
//   scaling-sim --tree nqueens:19 --cost 4.1e-9 --layout 199x36+4 --layout 2x36
//               --remote random --remote loaded [cost and network options]
//
// --layout PxW: P processes of W workers each; PxW+R adds one process of R
// workers (199x36+4 is 7,168 workers, 227x36+20 is 8,192).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "fib_tree.hpp"
#include "nqueens_tree.hpp"
#include "simulator.hpp"
#include "uts_tree.hpp"

namespace {

struct layout {
  int processes, workers, extra;
};

layout parse_layout(const std::string& s) {
  auto x = s.find('x');
  if (x == std::string::npos) throw CLI::ValidationError("--layout", "expected PxW[+R], got " + s);
  auto plus = s.find('+');
  int extra = plus == std::string::npos ? 0 : std::stoi(s.substr(plus + 1));
  return {std::stoi(s.substr(0, x)), std::stoi(s.substr(x + 1, plus - x - 1)), extra};
}

scaling::remote_choice parse_remote(const std::string& s) {
  if (s == "random") return scaling::remote_choice::random;
  if (s == "loaded") return scaling::remote_choice::loaded;
  if (s == "hierarchical") return scaling::remote_choice::hierarchical;
  throw CLI::ValidationError("--remote", "random, loaded or hierarchical, got " + s);
}

std::unique_ptr<scaling::tree_model> make_tree(const std::string& spec, double cost,
                                               const scaling::nqueens_options& nq) {
  auto colon = spec.find(':');
  std::string kind = spec.substr(0, colon), arg = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (kind == "fib") return std::make_unique<scaling::fib_tree>(std::stoi(arg), cost);
  if (kind == "nqueens") return std::make_unique<scaling::nqueens_tree>(std::stoi(arg), cost, nq);
  if (kind == "uts") return std::make_unique<scaling::uts_tree>(arg, cost);
  throw CLI::ValidationError("--tree", "fib:N, nqueens:N or uts:NAME, got " + spec);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Discrete-event simulator of the Tascell++ stealing protocol"};
  std::string tree_spec = "fib:30";
  double cost = 1.4e-9;
  std::vector<std::string> layouts{"1x1"}, remotes{"loaded"};
  scaling::machine m;
  scaling::nqueens_options nq;
  int seeds = 1;
  std::string local = "busy";
  app.add_option("--tree", tree_spec, "fib:N, nqueens:N or uts:T1|T3|T5|T1L");
  app.add_option("--cost", cost, "seconds per node on one worker (the Tascell++ binary)");
  app.add_option("--layout", layouts, "PxW: processes x workers per process (repeatable)");
  app.add_option("--remote", remotes, "remote victim: random, loaded, hierarchical (repeatable)");
  app.add_option("--local", local, "local victim: busy or random");
  app.add_option("--group", m.group, "hierarchical: processes per group");
  app.add_flag("--remote-giver-largest", m.giver_largest,
               "a remote request goes to the busy local worker whose oldest work is shallowest in the tree, as "
               "published at its last hand-over (the runtime's TASCELL_REMOTE_GIVER=largest; default: random)");
  app.add_flag("--largest-first", m.largest_first,
               "model-only: a remote request goes to the local worker with the largest piece to give");
  app.add_option("--max-nesting", m.max_nesting,
                 "a waiting worker takes unrelated work while fewer pieces are nested (runtime: 3)");
  app.add_option("--cores", m.cores, "cores shared by all workers (0: one per worker)");
  app.add_option("--grain", m.grain, "s: never split a subtree of less work (simulator approximation)");
  double grain_fraction = 0;
  app.add_option("--grain-fraction", grain_fraction,
                 "grain = max(--grain, this * work / workers) for each layout");
  app.add_option("--seeds", seeds, "runs with seeds 1..N (one line each)");
  app.add_option("--poll", m.costs.poll_interval, "s between two polls of a running worker");
  app.add_option("--signal", m.costs.signal, "s for a store to be seen by another core");
  app.add_option("--give", m.costs.give, "s: victim's temporary backtracking and put");
  app.add_option("--refuse", m.costs.refuse, "s: victim's refusal");
  app.add_option("--start", m.costs.start, "s: thief's set-up of a piece");
  app.add_option("--loop", m.costs.loop, "s: a turn of an idle or waiting loop");
  app.add_option("--yield", m.costs.yield, "s: back-off by sched_yield");
  app.add_option("--wake", m.costs.wake, "s: a napping worker to run again");
  app.add_option("--unwind-frame", m.costs.unwind_frame,
                 "s per lazy frame saved and rebuilt when a request finds no point (0: eager lowering)");
  app.add_option("--spin-quantum", m.costs.spin_quantum, "s: simulated length of a run of yield turns");
  app.add_option("--nap-quantum", m.costs.nap_quantum, "s: simulated length of a run of 20 us naps");
  app.add_option("--latency", m.net.latency, "s one way between message threads");
  app.add_option("--bandwidth", m.net.bandwidth, "bytes/s between processes");
  app.add_option("--handle", m.net.handle, "s: message thread's work per message");
  app.add_option("--net-wake", m.net.wake, "s: message thread to run after an event");
  app.add_option("--poll-urgent", m.net.poll_urgent, "s: message thread's sleep when urgent");
  app.add_option("--poll-max", m.net.poll_max, "s: its longest sleep");
  app.add_flag("--rings", m.net.rings,
               "messages ring the receiving message thread (the runtime's TASCELL_REMOTE_WAKE=ring): it sees one "
               "--ring-wake after arrival instead of at its next poll");
  app.add_option("--ring-wake", m.net.ring_wake, "s: a message thread woken by a ring to run again");
  app.add_option("--thread-cpu", m.net.thread_cpu,
                 "s a working worker of the process loses per turn of its message thread (a core per worker)");
  app.add_option("--take", m.net.take, "s: a hungry worker to take a piece from the inbox");
  app.add_option("--nq-top-rows", nq.top_rows, "n-queens: rows enumerated exactly");
  app.add_option("--nq-exact-levels", nq.exact_levels, "n-queens: subtrees this deep counted exactly");
  app.add_option("--nq-probes", nq.probes, "n-queens: Knuth probes per estimate");
  app.add_flag("--nq-all-exact", nq.all_exact, "n-queens: count every subtree exactly");
  CLI11_PARSE(app, argc, argv);
  m.local = local == "random" ? scaling::local_choice::random : scaling::local_choice::busy;

  if (m.costs.unwind_frame > 0 && tree_spec.rfind("uts", 0) == 0) {
    std::fprintf(stderr, "scaling-sim: --unwind-frame: the translator keeps UTS eager; no lazy frames to unwind\n");
    return 2;
  }
  auto t0 = std::chrono::steady_clock::now();
  auto tree = make_tree(tree_spec, cost, nq);
  double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("{\"tree\": \"%s\", \"nodes\": %.6g, \"work\": %.9g, \"setup_s\": %.3f}\n", tree->name().c_str(),
              tree->nodes(), tree->root_work(), setup);
  std::fflush(stdout);
  for (const auto& r : remotes)
    for (const auto& l : layouts)
      for (int s = 1; s <= seeds; ++s) {
        scaling::machine mm = m;
        layout lay = parse_layout(l);
        mm.processes = lay.processes;
        mm.workers = lay.workers;
        mm.extra = lay.extra;
        mm.remote = parse_remote(r);
        mm.seed = static_cast<std::uint64_t>(s);
        int total = lay.processes * lay.workers + lay.extra;
        mm.grain = std::max(m.grain, grain_fraction * tree->root_work() / total);
        auto t1 = std::chrono::steady_clock::now();
        scaling::simulator sim(*tree, mm);
        scaling::result x = sim.run();
        double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
        std::printf(
            "{\"tree\": \"%s\", \"processes\": %d, \"workers_total\": %d, \"remote\": \"%s\", \"seed\": %d, "
            "\"grain\": %.6g, \"seconds\": %.9g, \"work\": %.9g, \"executed\": %.9g, \"efficiency\": %.6f, "
            "\"pieces_local\": %lld, \"pieces_remote\": %lld, \"steal_backs\": %lld, \"requests\": %lld, "
            "\"refusals\": %lld, \"messages\": %lld, \"remote_asks\": %lld, \"remote_refusals\": %lld, "
            "\"work_time\": %.6g, \"idle_time\": %.6g, \"wait_time\": %.6g, \"remote_steal_median\": %.6g, "
            "\"unwindings\": %lld, \"unwound_frames\": %.6g, \"events\": %lld, \"wall_s\": %.3f}\n",
            tree->name().c_str(), mm.processes + (mm.extra > 0), x.workers, r.c_str(), s, mm.grain, x.seconds, x.work, x.executed,
            x.efficiency(), static_cast<long long>(x.pieces_local), static_cast<long long>(x.pieces_remote),
            static_cast<long long>(x.steal_backs), static_cast<long long>(x.requests),
            static_cast<long long>(x.refusals), static_cast<long long>(x.messages),
            static_cast<long long>(x.remote_asks), static_cast<long long>(x.remote_refusals), x.work_time,
            x.idle_time, x.wait_time, x.median_remote_steal(), static_cast<long long>(x.unwindings), x.unwound_frames,
            static_cast<long long>(x.events), wall);
        std::fflush(stdout);
      }
  return 0;
}
