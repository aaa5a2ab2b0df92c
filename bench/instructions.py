#!/usr/bin/env python3
"""Serial overhead in instructions: every variant on one worker, counted by callgrind.

Times on this shared 2-core machine move by a few percent from run to run, so
a serial overhead of 1.00 against 1.01 cannot be told apart by the clock
(docs/performance.md). Instructions can: callgrind counts every instruction
the program executes, and the count of one root call is the same from run to
run. This script gives, for every problem and variant on one worker,

    instructions of one root call / instructions of one sequential root call

One root call's count is the count of `<binary> N R+1` minus that of
`<binary> N R` (R = 2 by default), so start-up, the inputs, the answer check
and the first call's warming (thread teams, arenas) cancel.

Instructions are not time. A loop whose time is bounded by a divider
(Grav's sqrt and division) or by a multiplier (Comp's % 3) runs at the same
speed with a few more instructions per iteration; a branch mispredicted or a
cache line shared costs time and no instructions. This is the noise-free
half of the comparison; run_matrix.py gives the clock's half.

  python3 bench/instructions.py --build-dir build/release/bench --markdown

Every run's answers are checked against the sequential program's (and the
known answer where bench/<problem>/<problem>-config.hpp has one). Needs
valgrind (scripts/install-deps.sh installs it). Standard library only.
"""

import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_matrix  # noqa: E402  (problem specs, known answers, binaries, output lines)

# Inputs small enough for callgrind (it runs a program about 50 times slower):
# each sequential root call takes 0.2-90 ms natively.
DEFAULT_PROBLEMS = "fib:27,nqueens:11,pen:4,comp:5000,grav:100,lu:256,uts:11,uts:13"
DEFAULT_VARIANTS = "seq,tcpp,tascell,omp,omp-llvm,tbb"
TOTAL_RE = re.compile(r"==\d+== (?:Collected|refs)\s*:\s*([\d,]+)")


def count(binary, n, runs, timeout):
    """(instructions of the whole process, answers printed) for `binary n runs` on one worker."""
    env = dict(os.environ, TASCELL_WORKERS="1", OMP_NUM_THREADS="1")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, str(n), str(runs)]
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError("timed out after %gs: %s" % (timeout, " ".join(cmd)))
    if p.returncode != 0:
        tail = " | ".join(p.stderr.strip().splitlines()[-3:])
        raise RuntimeError("exit status %d: %s: %s" % (p.returncode, " ".join(cmd), tail))
    totals = TOTAL_RE.findall(p.stderr)
    if not totals:
        raise RuntimeError("no instruction total in callgrind's output: %s" % " ".join(cmd))
    answers = []
    for line in p.stdout.splitlines():
        m = run_matrix.LINE_RE.match(line.strip())
        if m:
            answers.append(int(m.group(2)))
    if len(answers) != runs:
        raise RuntimeError("%s printed %d result lines, expected %d" % (" ".join(cmd), len(answers), runs))
    return int(totals[-1].replace(",", "")), answers


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--build-dir", default=os.path.join(run_matrix.ROOT, "build", "release", "bench"),
                    help="directory holding the binaries (or its parent); default build/release/bench")
    ap.add_argument("--problems", type=run_matrix.parse_problems, default=DEFAULT_PROBLEMS,
                    help="comma-separated name:N (default %s)" % DEFAULT_PROBLEMS)
    ap.add_argument("--variants", type=run_matrix.parse_names, default=DEFAULT_VARIANTS,
                    help="comma-separated; seq first is the baseline (default %s); missing binaries are "
                         "skipped" % DEFAULT_VARIANTS)
    ap.add_argument("--runs", type=int, default=2,
                    help="R: one root call = count(R+1 calls) - count(R calls) (default 2)")
    ap.add_argument("--timeout", type=float, default=900, help="per run, seconds (default 900)")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    if "seq" not in args.variants:
        ap.error("--variants must include seq: it is the baseline")
    variants = ["seq"] + [v for v in args.variants if v != "seq"]

    failures = []
    rows = []  # (title, {variant: instructions per root call})
    for problem, n in args.problems:
        known = run_matrix.known_answers(problem).get(n)
        per_call, expected = {}, known
        for v in variants:
            binary = run_matrix.find_binary(args.build_dir, "%s-%s" % (problem, v))
            if binary is None:
                if v == "seq":
                    failures.append("%s: no %s-seq binary in %s" % (problem, problem, args.build_dir))
                    break
                continue
            print("instructions: %s %d" % (os.path.basename(binary), n), file=sys.stderr, flush=True)
            try:
                lo, a_lo = count(binary, n, args.runs, args.timeout)
                hi, a_hi = count(binary, n, args.runs + 1, args.timeout)
            except RuntimeError as e:
                failures.append(str(e))
                continue
            if expected is None:
                expected = a_lo[0]  # the sequential program's answer, when none is known
            wrong = [a for a in a_lo + a_hi if a != expected]
            if wrong:
                failures.append("%s %d: answer %d, expected %d" % (os.path.basename(binary), n, wrong[0], expected))
                continue
            per_call[v] = hi - lo
        if "seq" in per_call:
            rows.append((run_matrix.problem_title(problem, n), per_call))

    shown = [v for v in variants if any(v in r for _, r in rows)]
    if args.markdown:
        print("**Instructions of one root call on one worker / those of the sequential program** "
              "(callgrind; in brackets: millions of instructions per root call)\n")
        print("| problem | " + " | ".join(shown) + " |")
        print("|---|" + "---:|" * len(shown))
        for title, r in rows:
            cells = ["%.3f (%.1f)" % (r[v] / r["seq"], r[v] / 1e6) if v in r else "-" for v in shown]
            print("| %s | %s |" % (title, " | ".join(cells)))
    else:
        print("%-12s" % "problem" + "".join("%18s" % v for v in shown))
        for title, r in rows:
            print("%-12s" % title + "".join(
                "%18s" % ("%.3f (%.1fM)" % (r[v] / r["seq"], r[v] / 1e6) if v in r else "-") for v in shown))
    for f in failures:
        print("FAILURE: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
