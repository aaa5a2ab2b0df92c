#!/usr/bin/env python3
"""Two builds of the runtime side by side on 2 processes x 1 worker.

1. Steal round trip between processes (mpi-steal-latency 27 200, as
   mpi_bench.py runs it), the two builds' runs interleaved: steals, median,
   p10, p90, p99.
2. fib(35), n-queens(13), UTS T1 and T3: 1 worker and 1 process x 2 workers from
   the old build (one process, no MPI), 2 processes x 1 worker from each
   build, interleaved; (2x1 speedup) / (1x2 speedup) for each build.

usage: compare_builds.py --old DIR --new DIR [--reps 4]
   (DIR: a directory holding mpi-steal-latency, fib-tascell, nqueens-tascell
    and uts-tascell, e.g. build/release/bench and a copy of it made before a
    change)
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpi_bench import ENV, MPIRUN, latency_samples, latency_table, run, times  # noqa: E402

SPEEDUP_RUN = MPIRUN + ["-np", "2", "-x", "TASCELL_WORKERS=1"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--reps", type=int, default=4)
    a = ap.parse_args()
    builds = {"old": a.old, "new": a.new}

    out = []
    latency_table("build", latency_samples(a.reps, {k: (d, []) for k, d in builds.items()}), out)
    print("\n".join(out))
    print()
    print("| problem | 1 worker (s) | 1 x 2 (s) | 2 x 1 old (s) | 2 x 1 new (s) | 2x1 / 1x2 old | 2x1 / 1x2 new |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, binary, arg in (("fib(35)", "fib-tascell", "35"), ("n-queens(13)", "nqueens-tascell", "13"),
                              ("UTS T1", "uts-tascell", "T1"), ("UTS T3", "uts-tascell", "T3")):
        got = {"1x1": [], "1x2": [], "old": [], "new": []}
        for _ in range(a.reps):
            for w in ("1", "2"):
                got["1x" + w] += times(run([os.path.join(a.old, binary), arg, "3"], dict(ENV, TASCELL_WORKERS=w)))
            for k, d in builds.items():
                got[k] += times(run(SPEEDUP_RUN + [os.path.join(d, binary), arg, "3"], ENV))
        med = {k: statistics.median(v) for k, v in got.items()}
        s12 = med["1x1"] / med["1x2"]
        print("| %s | %.4f | %.4f | %.4f | %.4f | %.2f | %.2f |" %
              (name, med["1x1"], med["1x2"], med["old"], med["new"], med["1x1"] / med["old"] / s12,
               med["1x1"] / med["new"] / s12))


if __name__ == "__main__":
    main()
