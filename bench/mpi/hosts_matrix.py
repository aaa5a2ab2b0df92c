#!/usr/bin/env python3
"""1 process x 2 workers against 2 emulated hosts x 1 worker at each one-way
delay of the links between the hosts, with the scaling simulator's
prediction beside each measured cell.

    tests/hosts/emulated_hosts.sh exec 2 -- python3 bench/mpi/hosts_matrix.py --build-dir build/release \\
        [--reps 5] [--delays 0,5,20,100] [--problems fib,nqueens,T1,T3,KQKR] [--out matrix.json]

Each row (a problem at a delay) is measured in one run: its rounds
interleave 1 x 1, 1 x 2 and 2 hosts x 1 (TASCELL_NET_DELAY_US=d; each
host has one CPU of this machine, docs/cluster.md "Trying several machines
on one"), and an MPI ping-pong between the hosts (mpi-pingpong). A cell is
the median of the rounds' root calls (the first of each run dropped, as in
mpi_bench.py); for KQKR (lang-examples/retro.tcpp on distributed tables)
the analysis's time, the slowest rank's.

The prediction (bench/scaling, `scaling-sim`) for the fib, n-queens and UTS
rows: the seconds per node from the row's own 1 x 1 median; 1 x 2 as in
scaling.py's validation (this machine's figures, two cores); 2 hosts x 1
as two processes whose messages take the ping-pong's one way, plus the
delay, plus the emulation's own cost of a delayed batch (it is sent when
the sender's message thread wakes at its due time: --held-wake, per
message), and ring the receiver, who runs --ring-wake after a ring (the
runtime's TASCELL_REMOTE_WAKE=ring); each turn of a host's message thread
takes --thread-cpu from its worker (one CPU per host). The simulator has
no model of the tables: the KQKR row has no prediction.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scaling"))
sys.path.insert(0, HERE)
import mpi_bench  # noqa: E402  (ENV, MPIRUN, times, pingpong_samples)
import scaling  # noqa: E402  (THIS_MACHINE, LOCAL, run_sim, tree_nodes, poll_for)

ENV = mpi_bench.ENV
# name: (binary under the build directory, arguments, the simulator's tree, its extra options, kind)
PROBLEMS = {
    "fib": ("bench/fib-tascell", ["35", "3"], "fib:35", [], "fib"),
    "nqueens": ("bench/nqueens-tascell", ["13", "3"], "nqueens:13", ["--nq-all-exact"], "nqueens"),
    "T1": ("bench/uts-tascell", ["T1", "3"], "uts:T1", [], "uts"),
    "T3": ("bench/uts-tascell", ["T3", "3"], "uts:T3", [], "uts"),
    "KQKR": ("tests/examples/example-retro", ["--figures", "KQKR"], None, [], "tables"),
}


def run(cmd, env=ENV):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1200)
    if p.returncode != 0:
        raise SystemExit("FAILED (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout[-3000:], p.stderr[-3000:]))
    return p.stdout + p.stderr


def retro_seconds(text):
    fig = re.findall(r"retro figures: KQKR rank \d+ of \d+: analysis ([0-9.]+) s", text)
    if not fig or "agrees" not in text:
        raise SystemExit("retro printed no KQKR analysis, or its check did not agree:\n" + text[-3000:])
    return [max(float(x) for x in fig)]


def measure(build, name, layout, remote, delay):
    binary, args, _, _, kind = PROBLEMS[name]
    prog = os.path.join(build, binary)
    procs, workers = layout
    if remote is not None:
        out = run(mpi_bench.MPIRUN + remote + ["-np", str(procs), "-x", "TASCELL_WORKERS=%d" % workers, "-x",
                                               "TASCELL_NET_DELAY_US=%d" % delay, prog] + args)
    else:
        out = run([prog] + args, dict(ENV, TASCELL_WORKERS=str(workers)))
    return retro_seconds(out) if kind == "tables" else mpi_bench.times(out)


def predict(sim, name, t11, one_way, a):
    _, _, tree, extra, kind = PROBLEMS[name]
    nodes = scaling.tree_nodes(sim, tree, extra)
    cost = t11 / nodes
    params = dict(scaling.THIS_MACHINE, **scaling.LOCAL)
    params["--poll"] = scaling.poll_for(kind, cost)
    params["--cores"] = 2
    seeds = ["--seeds", str(a.seeds)]
    _, res = scaling.run_sim(sim, tree, cost, ["1x2"], ["loaded"], params, extra + seeds)
    p12 = statistics.median(r["seconds"] for r in res)
    hosts = dict(params, **{"--latency": one_way, "--ring-wake": a.ring_wake, "--thread-cpu": a.thread_cpu})
    _, res = scaling.run_sim(sim, tree, cost, ["2x1"], ["loaded"], hosts, extra + seeds + ["--rings"])
    p2h = statistics.median(r["seconds"] for r in res)
    return p12, p2h


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True, help="the build tree (its bench/ and tests/examples/)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--delays", default="0,5,20,100")
    ap.add_argument("--problems", default="fib,nqueens,T1,T3,KQKR")
    ap.add_argument("--seeds", type=int, default=5, help="simulator runs per cell (their median)")
    ap.add_argument("--ring-wake", type=float, default=30e-6,
                    help="s: a message thread woken by a ring to run again (see docs/performance.md)")
    ap.add_argument("--held-wake", type=float, default=20e-6,
                    help="s per message with a delay: the sender's message thread waking at the due time")
    ap.add_argument("--thread-cpu", type=float, default=25e-6,
                    help="s a host's worker loses per turn of its message thread (see docs/performance.md)")
    ap.add_argument("--out", help="write the rows as JSON here")
    a = ap.parse_args()
    text = os.environ.get("TASCELL_HOSTS_MPIRUN_ARGS")
    if not text:
        raise SystemExit("run under tests/hosts/emulated_hosts.sh exec 2 -- ... (TASCELL_HOSTS_MPIRUN_ARGS is not set)")
    remote = [x for x in text.split("\n") if x]
    sim = os.path.join(a.build_dir, "bench", "scaling-sim")
    rows = []
    for name in a.problems.split(","):
        for d in (int(x) for x in a.delays.split(",")):
            got = {"1x1": [], "1x2": [], "2h": []}
            ping = []
            for _ in range(a.reps):
                got["1x1"] += measure(a.build_dir, name, (1, 1), None, d)
                got["1x2"] += measure(a.build_dir, name, (1, 2), None, d)
                got["2h"] += measure(a.build_dir, name, (2, 1), remote, d)
                ping += mpi_bench.pingpong_samples(os.path.join(a.build_dir, "bench"), remote)
            med = {k: statistics.median(v) for k, v in got.items()}
            row = {"problem": name, "delay_us": d, "reps": a.reps, "seconds": med,
                   "pingpong_us": statistics.median(ping), "2h_over_1x2": med["1x2"] / med["2h"]}
            if PROBLEMS[name][2]:
                one_way = row["pingpong_us"] / 2 * 1e-6 + d * 1e-6 + (a.held_wake if d > 0 else 0)
                p12, p2h = predict(sim, name, med["1x1"], one_way, a)
                row.update(predicted={"1x2": p12, "2h": p2h}, one_way_s=one_way,
                           error={"1x2": (p12 - med["1x2"]) / med["1x2"], "2h": (p2h - med["2h"]) / med["2h"]})
            rows.append(row)
            print(json.dumps(row), flush=True)
    if a.out:
        json.dump({"rows": rows, "ring_wake": a.ring_wake, "held_wake": a.held_wake, "thread_cpu": a.thread_cpu},
                  open(a.out, "w"), indent=1)
    print("\n| problem | delay (us) | 1 x 1 (s) | 1 x 2 (s) | predicted | 2 hosts x 1 (s) | predicted | "
          "2 hosts x 1 / 1 x 2 (speed) | predicted |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        s, p = r["seconds"], r.get("predicted")
        cell = lambda k: "%.3f (%+.0f%%)" % (p[k], 100 * r["error"][k]) if p else "-"  # noqa: E731
        print("| %s | %d | %.3f | %.3f | %s | %.3f | %s | %.2f | %s |" % (
            r["problem"], r["delay_us"], s["1x1"], s["1x2"], cell("1x2"), s["2h"], cell("2h"), r["2h_over_1x2"],
            "%.2f" % (p["1x2"] / p["2h"]) if p else "-"))


if __name__ == "__main__":
    main()
