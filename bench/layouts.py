#!/usr/bin/env python3
"""The sequential path on every layout: 1 worker / sequential, per layout.

A binary's time moves with where its code lands (performance.md, "Where the
code lands"), so a serial overhead measured on one build is one draw. This
builds, for every problem and optimisation level, the sequential program
and the translated one (`tascell++`) at K layouts -- linked with a padding
object first, so that all their code, main included, lies 0, 16, 32, ...
bytes further (run_matrix.py's padding) -- and runs them paired: in each
round, for each layout, the sequential and the translated program one after
the other, the order of the layouts rotating from round to round. For each
layout it reports the median of the per-round ratios (translated on one
worker / sequential at the same layout) with a 95% bootstrap interval
(paired.py), for two timings:

  process   the whole process as a user times it (start to exit, one
            computation: `time ./pen-tcpp 12 1`)
  compute   the program's own time for its second computation (the first
            takes the start-up), as run_matrix.py reports it

and the worst layout of each problem against its target (issue 25: Fib
<= 1.5, the others <= 1.05).

  python3 bench/layouts.py --problems fib:35,nqueens:13,pen:12,uts:1,uts:3,comp:30000,grav:250 \\
      --opt O2,O3 --layouts 4 --reps 8 --json layouts.json

tascell++ compiles translated code with -falign-functions=64 (decisions.md,
"Translated code starts on a cache line"): the padding then moves the
translated program's functions by whole lines (main by 0 or 64 bytes) and
only the sequential program's code within them; the table's `tcpp s`
column shows the translated program's own time at each layout.
`--tcpp-flags="-falign-functions=16 -falign-loops=16"` builds it as before that choice, its
code moving with the padding too.

Every answer is checked against the problem's known answer. Standard
library only; needs `as`, `c++` and a built tascell++.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import paired  # noqa: E402  (median_interval)
import run_matrix  # noqa: E402  (problems, known answers, the padding, output lines)

TARGET = {"fib": 1.5}  # the others: 1.05
DEFAULT_PROBLEMS = "fib:35,nqueens:13,pen:12,uts:1,uts:3,comp:30000,grav:250"
EXTRA_LIBS = {"uts": ["-lcrypto"]}


def build_pair(problem, opt, layout, pad, tascellxx, tmp, tcpp_flags=()):
    """The sequential and the translated binary of a problem at -opt, linked
    with the padding object `pad` (None: as built) first."""
    out = {}
    src = {"seq": os.path.join(HERE, problem, problem + "-seq.cpp"),
           "tcpp": os.path.join(HERE, problem, problem + "-tcpp.tcpp")}
    for v, path in src.items():
        dest = os.path.join(tmp, "%s-%s.%s.L%d" % (problem, v, opt, layout))
        cc = [tascellxx] + list(tcpp_flags) if v == "tcpp" else ["c++", "-std=c++20"]
        cmd = cc + ["-" + opt, "-I", HERE] + ([pad] if pad else []) + [path, "-o", dest] + EXTRA_LIBS.get(problem, [])
        run_matrix.run_checked_cmd(cmd, "building %s" % os.path.basename(dest))
        out[v] = dest
    return out


def pad_object(tmp, bytes_):
    s = os.path.join(tmp, "pad%d.s" % bytes_)
    o = os.path.join(tmp, "pad%d.o" % bytes_)
    with open(s, "w") as f:
        f.write(run_matrix.PAD_ASM % (bytes_, bytes_))
    run_matrix.run_checked_cmd(["as", s, "-o", o], "assembling a padding object")
    return o


def run(binary, n, runs, timeout, workers=1):
    """(wall seconds of the whole process, the program's last reported seconds, answers)."""
    env = dict(os.environ, TASCELL_WORKERS=str(workers))
    t0 = time.perf_counter()
    p = subprocess.run([binary, str(n), str(runs)], env=env, capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit("layouts: %s %d %d: exit status %d: %s" % (binary, n, runs, p.returncode, p.stderr[-500:]))
    got = []
    for line in p.stdout.split("\n"):
        if line.strip():
            m = run_matrix.LINE_RE.match(line.strip())
            if not m:
                raise SystemExit("layouts: %s: unexpected output line %r" % (binary, line))
            got.append((int(m.group(2)), float(m.group(3))))
    if len(got) != runs:
        raise SystemExit("layouts: %s printed %d results, expected %d" % (binary, len(got), runs))
    return wall, got[-1][1], [a for a, _ in got]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--problems", default=DEFAULT_PROBLEMS, help="problem:N,... (default %(default)s)")
    ap.add_argument("--opt", default="O2,O3", help="optimisation levels, for both programs (default %(default)s)")
    ap.add_argument("--layouts", type=int, default=4, help="layouts: code moved by 0, 16, ... bytes (default 4)")
    ap.add_argument("--reps", type=int, default=8, help="rounds (default 8)")
    ap.add_argument("--tascellxx", default=os.path.join(ROOT, "build", "release", "compiler", "driver", "tascell++"))
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--tcpp-flags", default="", help="more flags for tascell++ (e.g. \"-falign-functions=16 -falign-loops=16\")")
    ap.add_argument("--json", help="write every sample here")
    a = ap.parse_args()
    if a.layouts < 1 or a.reps < 1:
        raise SystemExit("layouts: --layouts and --reps must be at least 1")
    problems = run_matrix.parse_problems(a.problems)
    opts = [o.strip() for o in a.opt.split(",") if o.strip()]
    for o in opts:
        if o not in ("O1", "O2", "O3", "Os"):
            raise SystemExit("layouts: --opt takes O1, O2, O3 or Os, not %r" % o)
    if not os.access(a.tascellxx, os.X_OK):
        raise SystemExit("layouts: no tascell++ at %s (build first, or --tascellxx)" % a.tascellxx)

    samples = {}  # (problem, n, opt, layout) -> {"process": [ratio...], "compute": [...], "seq": [s...]}
    with tempfile.TemporaryDirectory(prefix="tascell-layouts-") as tmp:
        pads = [None] + [pad_object(tmp, 16 * j) for j in range(1, a.layouts)]
        for problem, n in problems:
            known = run_matrix.known_answers(problem).get(n)
            for opt in opts:
                bins = [build_pair(problem, opt, j, pads[j], a.tascellxx, tmp, a.tcpp_flags.split())
                        for j in range(a.layouts)]
                # The padding must have moved main by exactly its size, or
                # (translated code aligned on 64-byte lines) by whole lines.
                for j in range(1, a.layouts):
                    for v in ("seq", "tcpp"):
                        moved = run_matrix.symbol_address(bins[j][v], "main") - run_matrix.symbol_address(bins[0][v], "main")
                        if moved != 16 * j and not (v == "tcpp" and moved % 64 == 0):
                            raise SystemExit("layouts: %s: %d bytes of padding moved main by %d" % (bins[j][v], 16 * j, moved))
                for r in range(a.reps):
                    order = list(range(a.layouts))
                    order = order[r % a.layouts:] + order[:r % a.layouts]
                    for j in order:
                        pair_ = ("seq", "tcpp") if r % 2 == 0 else ("tcpp", "seq")
                        got = {}
                        for v in pair_:
                            wall, _, answers = run(bins[j][v], n, 1, a.timeout)
                            _, own, answers2 = run(bins[j][v], n, 2, a.timeout)
                            for ans in answers + answers2:
                                if known is not None and ans != known:
                                    raise SystemExit("layouts: %s %d: answer %d, expected %d" % (bins[j][v], n, ans, known))
                            got[v] = (wall, own)
                        s = samples.setdefault((problem, n, opt, j), {"process": [], "compute": [], "seq": [], "tcpp": []})
                        s["process"].append(got["tcpp"][0] / got["seq"][0])
                        s["compute"].append(got["tcpp"][1] / got["seq"][1])
                        s["seq"].append(got["seq"][1])
                        s["tcpp"].append(got["tcpp"][1])
                        print("%s(%d) -%s layout +%d round %d: process %.4f compute %.4f (seq %.3f s)" %
                              (problem, n, opt, 16 * j, r + 1, s["process"][-1], s["compute"][-1], got["seq"][1]),
                              flush=True)

    rng = random.Random(paired.SEED)
    print()
    print("| problem | opt | layout | seq s | tcpp s | process: median | 95% interval | compute: median | 95% interval |")
    print("|---|---|---|---:|---:|---:|---|---:|---|")
    worst = {}
    for (problem, n, opt, j), s in sorted(samples.items()):
        pm, pl, ph = paired.median_interval(s["process"], rng)
        cm, cl, ch = paired.median_interval(s["compute"], rng)
        title = run_matrix.problem_title(problem, n)
        print("| %s | -%s | +%d | %.3f | %.3f | %.3f | %.3f-%.3f | %.3f | %.3f-%.3f |" %
              (title, opt, 16 * j, statistics.median(s["seq"]), statistics.median(s["tcpp"]), pm, pl, ph, cm, cl, ch))
        w = worst.setdefault((title, problem, opt), [0, 0])
        w[0], w[1] = max(w[0], pm), max(w[1], cm)
    print()
    for (title, problem, opt), (pm, cm) in sorted(worst.items()):
        t = TARGET.get(problem, 1.05)
        print("%-12s -%s worst layout: process %.3f, compute %.3f; target <= %.2f: %s" %
              (title, opt, pm, cm, t, "met" if max(pm, cm) <= t else "MISSED"))
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{"problem": p, "n": n, "opt": o, "offset": 16 * j, **s}
                       for (p, n, o, j), s in sorted(samples.items())], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
