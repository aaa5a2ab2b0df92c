#!/usr/bin/env python3
"""The cost of tracing: fib(35) and n-queens(13), 1 and 2 workers, with and
without TASCELL_TRACE, runs interleaved; medians of every repetition after
each run's first.

usage: trace_cost.py --build-dir build/release/bench [--reps 5]
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    problems = [("fib", "35"), ("nqueens", "13")]
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(a.reps):
            for prog, arg in problems:
                for w in ("1", "2"):
                    for traced in (False, True):
                        env = dict(os.environ, TASCELL_WORKERS=w)
                        if traced:
                            env["TASCELL_TRACE"] = os.path.join(tmp, "t.json")
                        p = subprocess.run([os.path.join(a.build_dir, prog + "-tascell"), arg, "3"],
                                           capture_output=True, text=True, env=env, check=True)
                        ts = [float(x) for x in re.findall(r"seconds=([0-9.]+)", p.stdout)][1:]
                        res.setdefault((prog, w, traced), []).extend(ts)
    print("| program | workers | trace off (s) | trace on (s) | on / off |")
    print("|---|---|---|---|---|")
    for prog, arg in problems:
        for w in ("1", "2"):
            off = statistics.median(res[(prog, w, False)])
            on = statistics.median(res[(prog, w, True)])
            print("| %s(%s) | %s | %.4f | %.4f | %.2f |" % (prog, arg, w, off, on, on / off))


if __name__ == "__main__":
    main()
