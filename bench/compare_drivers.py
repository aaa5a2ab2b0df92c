#!/usr/bin/env python3
"""Two builds of tascell++ side by side: 1-worker time and 2-worker speedup.

A change to what the translator emits or to the runtime must leave the
2-worker speedups as they were, or better. This builds each problem's
translated program (bench/<problem>/<problem>-tcpp.tcpp) with two
tascell++ drivers, A (before the change) and B (after), at one -O level,
and runs them paired: in each round, A and B on 1 worker and on 2 workers
(the order rotating from round to round). It reports per problem the
medians of:

  A 1w/2w, B 1w/2w   each build's speedup on 2 workers (per round)
  B/A 1w, B/A 2w     B's time over A's, on 1 and on 2 workers

each with a 95% bootstrap interval (paired.py). Times are the program's
own for its second computation (the first takes the start-up), as
run_matrix.py reports them; every answer is checked against the known
answer.

  python3 bench/compare_drivers.py --a /tmp/old/build/release/compiler/driver/tascell++ \\
      --b build/release/compiler/driver/tascell++ --problems fib:40,nqueens:13,pen:12,lu:512 --reps 8

Standard library only.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import layouts  # noqa: E402  (building a translated program, running one)
import paired  # noqa: E402  (median_interval)
import run_matrix  # noqa: E402  (problems, known answers)


def build(problem, driver, opt, tag, tmp):
    dest = os.path.join(tmp, "%s-tcpp.%s" % (problem, tag))
    cmd = [driver, "-" + opt, "-I", HERE, os.path.join(HERE, problem, problem + "-tcpp.tcpp"), "-o", dest]
    run_matrix.run_checked_cmd(cmd + layouts.EXTRA_LIBS.get(problem, []), "building %s" % os.path.basename(dest))
    return dest


def timed(binary, n, workers, known, timeout):
    """The program's own seconds for its second computation on `workers` workers."""
    _, own, answers = layouts.run(binary, n, 2, timeout, workers)
    for ans in answers:
        if known is not None and ans != known:
            raise SystemExit("compare_drivers: %s %d on %d workers: answer %d, expected %d" %
                             (binary, n, workers, ans, known))
    return own


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--a", required=True, help="tascell++ of build A (before)")
    ap.add_argument("--b", required=True, help="tascell++ of build B (after)")
    ap.add_argument("--problems", default="fib:40,nqueens:13,pen:12,lu:512")
    ap.add_argument("--opt", default="O2")
    ap.add_argument("--reps", type=int, default=8)
    ap.add_argument("--timeout", type=float, default=600)
    a = ap.parse_args()
    for d in (a.a, a.b):
        if not os.access(d, os.X_OK):
            raise SystemExit("compare_drivers: no tascell++ at %s" % d)
    if a.reps < 1:
        raise SystemExit("compare_drivers: --reps must be at least 1")
    rng = random.Random(paired.SEED)
    rows = []
    with tempfile.TemporaryDirectory(prefix="tascell-compare-") as tmp:
        for problem, n in run_matrix.parse_problems(a.problems):
            known = run_matrix.known_answers(problem).get(n)
            bins = {"A": build(problem, a.a, a.opt, "A", tmp), "B": build(problem, a.b, a.opt, "B", tmp)}
            configs = [(v, w) for v in ("A", "B") for w in (1, 2)]
            t = {c: [] for c in configs}
            for r in range(a.reps):
                order = configs[r % len(configs):] + configs[:r % len(configs)]
                for v, w in order:
                    t[(v, w)].append(timed(bins[v], n, w, known, a.timeout))
                print("%s(%d) round %d: %s" % (problem, n, r + 1,
                                               "  ".join("%s %dw %.3f s" % (v, w, t[(v, w)][-1]) for v, w in configs)),
                      flush=True)

            def ratio(x, y):
                return paired.median_interval([p / q for p, q in zip(t[x], t[y])], rng)

            rows.append((run_matrix.problem_title(problem, n), statistics.median(t[("A", 1)]),
                         ratio(("A", 1), ("A", 2)), ratio(("B", 1), ("B", 2)),
                         ratio(("B", 1), ("A", 1)), ratio(("B", 2), ("A", 2))))
    print()
    print("| problem | A 1w s | A 1w/2w | B 1w/2w | B/A 1w | B/A 2w |")
    print("|---|---:|---|---|---|---|")
    for title, a1, *cells in rows:
        print("| %s | %.3f | %s |" % (title, a1, " | ".join("%.2f (%.2f-%.2f)" % c for c in cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
