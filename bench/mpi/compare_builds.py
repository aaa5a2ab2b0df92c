#!/usr/bin/env python3
"""Two builds of the runtime side by side on 2 processes x 1 worker.

1. Steal round trip between processes (mpi-steal-latency 27 200, as
   mpi_bench.py runs it), the two builds' runs interleaved: steals, median,
   p10, p90, p99.
2. fib(35), n-queens(13), UTS T1: 1 worker and 1 process x 2 workers from
   the old build (one process, no MPI), 2 processes x 1 worker from each
   build, interleaved; (2x1 speedup) / (1x2 speedup) for each build.

usage: compare_builds.py --old DIR --new DIR [--reps 4]
   (DIR: a directory holding mpi-steal-latency, fib-tascell, nqueens-tascell
    and uts-tascell, e.g. build/release/bench and a copy of it made before a
    change)
"""
import argparse
import os
import re
import statistics
import subprocess

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
MPIRUN = ["mpirun", "--oversubscribe", "--tag-output", "-np", "2", "-x", "TASCELL_WORKERS=1"]


def run(cmd, env=ENV):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    if p.returncode != 0:
        raise SystemExit("FAILED (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr))
    return p.stdout


def pct(xs, q):
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def rank0_times(text):
    per_rank = {}
    for line in text.splitlines():
        m = re.search(r"^(?:\[\d+,(\d+)\]<stdout>:)?result=\S+ seconds=([0-9.]+)", line)
        if m:
            per_rank.setdefault(m.group(1) or "0", []).append(float(m.group(2)))
    return per_rank.get("0", [])[1:]  # the first call includes start-up


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--reps", type=int, default=4)
    a = ap.parse_args()
    builds = {"old": a.old, "new": a.new}

    lat = {k: [] for k in builds}
    for _ in range(a.reps):
        for k, d in builds.items():
            for line in run(MPIRUN + [os.path.join(d, "mpi-steal-latency"), "27", "200"]).splitlines():
                m = re.search(r"steal_ns \d+((?: \d+)*)$", line)
                if m:
                    lat[k] += [int(x) / 1000.0 for x in m.group(1).split()]
    print("| build | steals | median (us) | p10 | p90 | p99 |")
    print("|---|---:|---:|---:|---:|---:|")
    for k, xs in lat.items():
        xs.sort()
        print("| %s | %d | %.1f | %.1f | %.1f | %.1f |" % (k, len(xs), statistics.median(xs), pct(xs, .1),
                                                         pct(xs, .9), pct(xs, .99)))
    print()
    print("| problem | 1 worker (s) | 1 x 2 (s) | 2 x 1 old (s) | 2 x 1 new (s) | 2x1 / 1x2 old | 2x1 / 1x2 new |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, binary, arg in (("fib(35)", "fib-tascell", "35"), ("n-queens(13)", "nqueens-tascell", "13"),
                              ("UTS T1", "uts-tascell", "T1")):
        got = {"1x1": [], "1x2": [], "old": [], "new": []}
        for _ in range(a.reps):
            for w in ("1", "2"):
                got["1x" + w] += rank0_times(run([os.path.join(a.old, binary), arg, "3"],
                                                 dict(ENV, TASCELL_WORKERS=w)))
            for k, d in builds.items():
                got[k] += rank0_times(run(MPIRUN + [os.path.join(d, binary), arg, "3"]))
        med = {k: statistics.median(v) for k, v in got.items()}
        s12 = med["1x1"] / med["1x2"]
        print("| %s | %.4f | %.4f | %.4f | %.4f | %.2f | %.2f |" %
              (name, med["1x1"], med["1x2"], med["old"], med["new"], med["1x1"] / med["old"] / s12,
               med["1x1"] / med["new"] / s12))


if __name__ == "__main__":
    main()
