#!/usr/bin/env python3
"""Two builds of the runtime side by side on 2 processes x 1 worker.

1. Steal round trip between processes (mpi-steal-latency 27 200, as
   mpi_bench.py runs it), the two builds' runs interleaved: steals, median,
   p10, p90, p99.
2. fib(35), n-queens(13), UTS T1 and T3: 1 x 1, 1 x 2 (one process, no MPI)
   and 2 x 1 (processes x workers) from each build, interleaved round by
   round: each layout's median time per build, new / old paired round by
   round (median and range) and each build's speedup over its own 1 x 1.
3. With --old-driver and --new-driver (each build's tascell++): the
   four-piece endgame on distributed tables (lang-examples/retro.tcpp KQKR,
   as bench/tables/retro_bench.py runs it) on 2 x 1 and 1 x 2, both builds
   interleaved: the analysis's time, new / old.

With --only PROBLEM (e.g. "UTS T1"): only that problem's rows of 2, no
steal latency and no KQKR, for a closer look at one row.

usage: compare_builds.py --old DIR --new DIR [--reps 4] [--old-driver PATH --new-driver PATH]
                         [--only PROBLEM]
   (DIR: a directory holding mpi-steal-latency, fib-tascell, nqueens-tascell
    and uts-tascell, e.g. build/release/bench and a copy of it made before a
    change)
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tables"))
from mpi_bench import ENV, MPIRUN, latency_samples, latency_table, run, times  # noqa: E402
import retro_bench  # noqa: E402

SPEEDUP_RUN = MPIRUN + ["-np", "2", "-x", "TASCELL_WORKERS=1"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--reps", type=int, default=4)
    ap.add_argument("--old-driver", help="the old build's tascell++ (for KQKR)")
    ap.add_argument("--new-driver", help="the new build's tascell++ (for KQKR)")
    ap.add_argument("--only", help='one problem of part 2 only, e.g. "UTS T1"')
    a = ap.parse_args()
    builds = {"old": a.old, "new": a.new}
    problems = (("fib(35)", "fib-tascell", "35"), ("n-queens(13)", "nqueens-tascell", "13"),
                ("UTS T1", "uts-tascell", "T1"), ("UTS T3", "uts-tascell", "T3"))
    if a.only:
        problems = tuple(p for p in problems if p[0] == a.only)
        if not problems:
            sys.exit("compare_builds.py: --only takes one of fib(35), n-queens(13), UTS T1, UTS T3")
    else:
        out = []
        latency_table("build", latency_samples(a.reps, {k: (d, []) for k, d in builds.items()}), out)
        print("\n".join(out))
        print()
    print("| problem | layout | old (s) | new (s) | new / old, each round | speedup old | speedup new |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, binary, arg in problems:
        layouts = ("1 x 1", "1 x 2", "2 x 1")
        got = {(l, k): [] for l in layouts for k in builds}
        for _ in range(a.reps):
            for k, d in builds.items():
                path = os.path.join(d, binary)
                for w in ("1", "2"):
                    got[("1 x " + w, k)].append(statistics.median(times(run([path, arg, "3"], dict(ENV, TASCELL_WORKERS=w)))))
                got[("2 x 1", k)].append(statistics.median(times(run(SPEEDUP_RUN + [path, arg, "3"], ENV))))
        med = {key: statistics.median(v) for key, v in got.items()}
        for l in layouts:
            ratios = [n / o for n, o in zip(got[(l, "new")], got[(l, "old")])]
            speed = {k: med[("1 x 1", k)] / med[(l, k)] for k in builds}
            print("| %s | %s | %.4f | %.4f | %.3f (%.3f-%.3f) | %.2f | %.2f |" %
                  (name, l, med[(l, "old")], med[(l, "new")], statistics.median(ratios), min(ratios), max(ratios),
                   speed["old"], speed["new"]))
    if a.old_driver and a.new_driver and not a.only:
        kqkr(a)


def kqkr(a):
    retro = os.path.join(retro_bench.ROOT, "lang-examples", "retro.tcpp")
    with tempfile.TemporaryDirectory() as tmp:
        binaries = {}
        for k, driver in (("old", a.old_driver), ("new", a.new_driver)):
            binaries[k] = os.path.join(tmp, "retro-" + k)
            subprocess.run([driver, "-O2", retro, "-o", binaries[k]], check=True)
        print()
        print("| KQKR analysis | old (s) | new (s) | new / old, each round |")
        print("|---|---:|---:|---:|")
        for layout in ((2, 1), (1, 2)):
            got = {"old": [], "new": []}
            ratios = []
            for _ in range(a.reps):
                for k in ("old", "new"):
                    got[k].append(retro_bench.run(binaries[k], "KQKR", *layout)[0])
                ratios.append(got["new"][-1] / got["old"][-1])
            print("| %d x %d | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) |" %
                  (layout[0], layout[1], statistics.median(got["old"]), min(got["old"]), max(got["old"]),
                   statistics.median(got["new"]), min(got["new"]), max(got["new"]),
                   statistics.median(ratios), min(ratios), max(ratios)))


if __name__ == "__main__":
    main()
