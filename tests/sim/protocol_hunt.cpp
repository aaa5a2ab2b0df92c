// Runs the protocol simulation (protocol_sim.hpp) for a range of seeds and
// says the first that fails, with how to replay it. Each seed also chooses
// the layout: 2-4 processes, 1-2 workers each, requests through shared
// memory or by message, the sum of a tree or a branch and bound with
// incumbents spread along lifelines, and from seed 192 on, in half the
// seeds, a distributed table every leaf updates. The test suite runs 10,000 seeds (sim.protocol);
// a hunt runs millions: protocol_hunt --from 1 --count 5000000.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "protocol_sim.hpp"

namespace {

tascell::sim::config layout(std::uint64_t seed, int depth) {
  tascell::sim::config c;
  c.seed = seed;
  c.processes = 2 + static_cast<int>(seed % 3);
  c.workers = 1 + static_cast<int>((seed / 3) % 2);
  c.shared = (seed / 6) % 4 != 3;  // one seed in four by message only
  // Three seeds in four: a worker's step holds its message thread's turn
  // one time in four (its try_take_turn fails); the fourth, never.
  c.turn_held = seed % 4 == 0 ? 0 : 4;
  c.incumbents = (seed / 24) % 2 == 1;  // half the seeds: branch and bound with lifeline incumbents
  c.throws = !c.incumbents && (seed / 48) % 2 == 1;  // a quarter: a leaf throws
  c.cancels = !c.incumbents && !c.throws && (seed / 96) % 2 == 1;  // an eighth: a search that cancels
  // A search's cancel() crosses processes only when the leaf's loop is a
  // piece's own point: wide, shallow trees give such pieces more often.
  if (c.cancels) c.branch = 4;
  c.depth = c.cancels ? std::max(2, depth - 3) : depth;
  // Half the seeds from 192 on: every leaf updates a distributed table
  // (seeds below keep the interleavings of the bugs they were found with).
  c.tables = (seed / 192) % 2 == 1;
  c.hashed = (seed / 384) % 2 == 1;
  c.batch_updates = 1 + static_cast<int>((seed / 7) % 4);
  // Half the seeds from 192 on, besides: a board.
  c.boards = seed >= 192 && (seed / 12) % 2 == 1;
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The protocol between processes under a simulated network, seed by seed"};
  std::uint64_t from = 1, count = 10000;
  int depth = 7, root_calls = 2, preempt = 8, turn_held = -1;
  std::uint64_t one = 0;
  app.add_option("--from", from, "the first seed");
  app.add_option("--count", count, "how many seeds");
  app.add_option("--seed", one, "replay this one seed only, saying what it does");
  app.add_option("--depth", depth, "the tree's depth (2 children a node)")->check(CLI::Range(2, 20));
  app.add_option("--root-calls", root_calls, "root calls per seed")->check(CLI::Range(1, 100));
  app.add_option("--preempt", preempt, "how often, out of 16, a worker claiming a request is preempted")
      ->check(CLI::Range(0, 16));
  app.add_option("--turn-held", turn_held,
                 "how often, out of 16, a worker's step runs while its message thread is in a turn "
                 "(default: 4 in three seeds of four, else 0)")
      ->check(CLI::Range(0, 16));
  CLI11_PARSE(app, argc, argv);
  if (one) {
    from = one;
    count = 1;
  }
  auto start = std::chrono::steady_clock::now();
  std::uint64_t steps = 0, remote = 0, batches = 0, stops = 0, cancels = 0, taken = 0, mailed = 0, early = 0, early_improved = 0,
                results = 0, results_here = 0, updates = 0, update_batches = 0, fences_deferred = 0, held_for_call = 0,
                locks_preempted = 0, table_seeds = 0, quiet_max = 0, board_writes = 0,
                board_seeds = 0, gives_while_stopping = 0, remote_steal_backs = 0, stop_delivery_max = 0;
  for (std::uint64_t s = from; s < from + count; ++s) {
    tascell::sim::config c = layout(s, depth);
    c.root_calls = root_calls;
    c.preempt_claims = preempt;
    if (turn_held >= 0) c.turn_held = turn_held;
    tascell::sim::outcome o = tascell::sim::run(c);
    steps += o.steps;
    remote += o.remote_pieces;
    mailed += o.mailed;
    results += o.results_mailed;
    results_here += o.results_here;
    early += o.early_incumbents;
    early_improved += o.early_improved;
    batches += o.batches;
    stops += o.remote_stops;
    cancels += o.remote_cancels;
    taken += o.remote_cancels_taken;
    gives_while_stopping += o.gives_while_stopping;
    remote_steal_backs += o.remote_steal_backs;
    updates += o.table_updates;
    update_batches += o.update_batches;
    fences_deferred += o.fences_deferred;
    held_for_call += o.held_for_call;
    locks_preempted += o.locks_preempted;
    quiet_max = std::max(quiet_max, o.quiet_max);
    stop_delivery_max = std::max(stop_delivery_max, o.stop_delivery_max);
    board_writes += o.board_writes;
    board_seeds += c.boards ? 1 : 0;
    table_seeds += c.tables ? 1 : 0;
    if (one)
      std::printf("seed %llu: %d processes x %d workers, %s: %llu steps, %llu batches, %llu pieces ran in "
                  "another process\n",
                  static_cast<unsigned long long>(s), c.processes, c.workers,
                  (std::string(c.shared ? "requests through shared memory" : "requests by message") +
                   (c.incumbents ? ", incumbents" : c.throws ? ", a leaf throws" : c.cancels ? ", a search that cancels" : "") +
                   (c.tables ? c.hashed ? ", a hashed table" : ", a block table" : "") + (c.boards ? ", a board" : ""))
                      .c_str(),
                  static_cast<unsigned long long>(o.steps), static_cast<unsigned long long>(o.batches),
                  static_cast<unsigned long long>(o.remote_pieces));
    if (!o.ok) {
      std::printf("seed %llu FAILED (%d processes x %d workers, %s): %s\nreplay: protocol_hunt --seed %llu "
                  "--depth %d --root-calls %d --preempt %d\n",
                  static_cast<unsigned long long>(s), c.processes, c.workers,
                  c.shared ? "shared memory" : "by message", o.failure.c_str(), static_cast<unsigned long long>(s),
                  depth, root_calls, preempt);
      return 1;
    }
    if ((s - from + 1) % 100000 == 0) {  // a long hunt says how far it got
      std::printf("%llu seeds passed so far (%llu to %llu)\n", static_cast<unsigned long long>(s - from + 1),
                  static_cast<unsigned long long>(from), static_cast<unsigned long long>(s));
      std::fflush(stdout);
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%llu seeds passed (%llu to %llu): %llu steps, %llu batches, %llu pieces ran in another process "
              "(%llu sent through the thief's mailbox, %llu results back through the victim's ring, %llu of "
              "them taken by a worker at its join), "
              "%llu of them stopped there, %llu steal-backs asked of another process, %llu pieces given while the giver was stopping others, %llu cancellations sent up (%llu cancelled a @dowork there), %llu "
              "incumbent improvements held for a root call not yet begun (%llu improved an incumbent then); "
              "%llu seeds with a table: %llu updates sent to other processes in %llu batches, %llu fences "
              "answered after the updates before them waited, %llu table messages held until their root call began at "
              "the receiver, %llu local updates preempted holding their lock; %llu seeds with a board: %llu writes published; at most %llu steps with no piece or iteration moving, at most %llu for a stop to reach its piece in another process; %.1f s\n",
              static_cast<unsigned long long>(count), static_cast<unsigned long long>(from),
              static_cast<unsigned long long>(from + count - 1), static_cast<unsigned long long>(steps),
              static_cast<unsigned long long>(batches), static_cast<unsigned long long>(remote),
              static_cast<unsigned long long>(mailed), static_cast<unsigned long long>(results),
              static_cast<unsigned long long>(results_here),
              static_cast<unsigned long long>(stops), static_cast<unsigned long long>(remote_steal_backs),
              static_cast<unsigned long long>(gives_while_stopping),
              static_cast<unsigned long long>(cancels), static_cast<unsigned long long>(taken),
              static_cast<unsigned long long>(early), static_cast<unsigned long long>(early_improved),
              static_cast<unsigned long long>(table_seeds), static_cast<unsigned long long>(updates),
              static_cast<unsigned long long>(update_batches), static_cast<unsigned long long>(fences_deferred),
              static_cast<unsigned long long>(held_for_call), static_cast<unsigned long long>(locks_preempted), static_cast<unsigned long long>(board_seeds),
              static_cast<unsigned long long>(board_writes), static_cast<unsigned long long>(quiet_max),
              static_cast<unsigned long long>(stop_delivery_max), secs);
  if (remote == 0) {
    std::printf("FAILED: no piece ever ran in another process\n");
    return 1;
  }
  // Improvements that reach a process before it has begun their root call
  // are held, not dropped (dropped, each process would prune less until the
  // call's end).
  if (count >= 2000 && early_improved == 0) {
    std::printf("FAILED: no incumbent improvement held for a root call not yet begun ever improved an incumbent\n");
    return 1;
  }
  if (count >= 2000 && mailed == 0) {
    std::printf("FAILED: no piece ever went through a thief's mailbox (requests through shared memory)\n");
    return 1;
  }
  if (count >= 2000 && (results == 0 || results_here == 0)) {
    std::printf("FAILED: no result came back through a victim's ring, or none was taken by a worker at its join\n");
    return 1;
  }
  if (count >= 2000 && (cancels == 0 || taken == 0)) {
    std::printf("FAILED: no cancellation was ever sent up to another process and taken there (the searches "
                "should)\n");
    return 1;
  }
  // The table protocol's waits: a fence behind updates that wait for a
  // sub-block's lock (several workers) or for the one worker to apply them.
  // And a message of a root call the receiver has not begun, held.
  if (count >= 2000 && (updates == 0 || fences_deferred == 0 || locks_preempted == 0 || held_for_call == 0)) {
    std::printf("FAILED: no table update was sent to another process, no fence waited for the updates before "
                "it, no local update was preempted holding its lock, or no table message waited for its root "
                "call to begin at the receiver\n");
    return 1;
  }
  if (count >= 2000 && stops == 0) {
    std::printf("FAILED: no piece was ever stopped in another process (the seeds whose leaf throws should)\n");
    return 1;
  }
  return 0;
}
