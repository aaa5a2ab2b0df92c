#!/usr/bin/env python3
"""Paired ratios with confidence intervals, from a run_matrix.py --json file.

run_matrix.py compares medians taken over the whole run. When two variants
are within a percent or two of each other, the machine's drift (load from
other tenants rises and falls over minutes) can be larger than the
difference. Within one round, though, every configuration ran within a few
seconds of the others. This script pairs the samples by round:

    ratio_r = time of A in round r / time of B in round r

and gives, for every problem and worker count, the median of those ratios
and a 95% interval for that median (percentile bootstrap, 10,000 resamples,
a fixed seed, so the same file always gives the same interval). Below 1: A
is faster. An interval that contains 1 means the run cannot tell the two
apart.

  python3 bench/run_matrix.py --build-dir build/release/bench --problems comp:30000,grav:250 \\
      --variants seq,tcpp,omp --procs 1 --reps 30 --placements 4 --json pairs.json
  python3 bench/paired.py pairs.json --a tcpp --b omp,seq --markdown

Standard library only.
"""

import argparse
import json
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_matrix  # noqa: E402  (the problems' titles)

RESAMPLES = 10000
SEED = 20261125


def median_interval(ratios, rng):
    """The median of ratios and a 95% percentile-bootstrap interval for it."""
    meds = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(RESAMPLES))
    return statistics.median(ratios), meds[int(0.025 * RESAMPLES)], meds[int(0.975 * RESAMPLES) - 1]


def pair(a, b):
    """Per-round ratios a/b from two configs of the JSON file (rounds where both have a sample)."""
    if "rounds" not in a or "rounds" not in b:
        raise SystemExit("paired: the file has no rounds: write it with a run_matrix.py that records them")
    tb = dict(zip(b["rounds"], b["seconds"]))
    return [t / tb[r] for r, t in zip(a["rounds"], a["seconds"]) if r in tb]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("json", help="a file written by run_matrix.py --json")
    ap.add_argument("--a", default="tcpp", help="the variant in the numerator (default tcpp)")
    ap.add_argument("--b", default="seq,tascell,omp,omp-llvm,tbb",
                    help="comma-separated variants in the denominator (default: every other one in the file); "
                         "seq pairs with A on one worker")
    ap.add_argument("--speedup", action="store_true",
                    help="instead: A's speedups, A on 1 worker / A on each other layout, round by round")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()
    try:
        with open(args.json) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit("paired: cannot read %s: %s" % (args.json, e))
    others = [v for v in args.b.split(",") if v.strip() and v != args.a]

    rng = random.Random(SEED)
    rows = []
    for run in data.get("runs", []):
        title = run_matrix.problem_title(run["problem"], run["n"])
        cfg = {(c["variant"], c["workers"], c["processes"]): c for c in run["configs"]}
        for (v, w, p), a in sorted(cfg.items(), key=lambda kv: (kv[0][2], kv[0][1])):
            if v != args.a:
                continue
            where = "%dw" % w if p == 1 else "%dp" % p
            pairs = []  # (label, numerator, denominator)
            if args.speedup:
                one = cfg.get((v, 1, 1))
                if one is not None and (w, p) != (1, 1):
                    pairs.append(("%s 1w / %s %s" % (v, v, where), one, a))
            else:
                for other in others:
                    b = cfg.get((other, 1 if other.startswith("seq") else w, 1 if other.startswith("seq") else p))
                    if b is not None:
                        pairs.append(("%s %s / %s%s" % (v, where, other, "" if other.startswith("seq") else " " + where),
                                      a, b))
            for label, num, den in pairs:
                ratios = pair(num, den)
                if len(ratios) < 3:
                    continue
                med, lo, hi = median_interval(ratios, rng)
                verdict = "" if args.speedup else "faster" if hi < 1 else "slower" if lo > 1 else "cannot tell"
                rows.append((title, label, len(ratios), med, lo, hi, min(ratios), max(ratios), verdict))
    if not rows:
        if args.speedup:
            raise SystemExit("paired: no speedups of %s (1 worker and another layout) in %s" % (args.a, args.json))
        raise SystemExit("paired: no pairs of %s with %s in %s" % (args.a, ",".join(others), args.json))
    if args.markdown:
        print("| problem | ratio | rounds | median | 95%% interval | rounds' range | %s is |" % args.a)
        print("|---|---|---:|---:|---|---|---|")
        for t, what, k, med, lo, hi, rmin, rmax, verdict in rows:
            print("| %s | %s | %d | %.4f | %.4f-%.4f | %.2f-%.2f | %s |" % (t, what, k, med, lo, hi, rmin, rmax,
                                                                        verdict))
    else:
        for t, what, k, med, lo, hi, rmin, rmax, verdict in rows:
            print("%-12s %-26s %3d rounds  median %.4f  95%% %.4f-%.4f  range %.2f-%.2f  %s" % (
                t, what, k, med, lo, hi, rmin, rmax, verdict))
    return 0


if __name__ == "__main__":
    sys.exit(main())
