#!/usr/bin/env python3
"""Run the benchmark variants side by side and tabulate median times.

The machine is assumed noisy and shared, so runs are INTERLEAVED: for each
problem, every (variant, workers) configuration runs once per round, round-robin,
for --reps rounds; each configuration is summarised by its median.

Every run is one process: `<build-dir>/<problem>-<variant> N 1` with env
TASCELL_WORKERS=<workers>. It must exit 0 and print exactly one line
`result=<answer> seconds=<s>`. The answer is checked against the known answers
in bench/<problem>/<problem>-config.hpp (when N has one) and, in any case,
against the other variants of the same problem. Any failure is reported and
makes this script exit 1 (after printing the table). For uts, N is the tree's
number (1, 3, 5 for T1, T3, T5; bench/uts/uts-config.hpp) and the answer is its
node count.

Columns:
  median s   median wall time of the computation (as printed by the program)
  min s / max s  over the --reps runs (to show the noise)
  vs seq     median / median of seq
  ser.ovh    serial overhead: (variant at 1 worker) / seq   (on the 1-worker row)
  speedup    (variant at 1 worker) / (variant at this many workers)

Example:
  python3 bench/run_matrix.py --build-dir build/bench --problems fib:35,nqueens:13 --reps 5
  python3 bench/run_matrix.py --build-dir build/bench --markdown   # for docs/performance.md

Standard library only.
"""

import argparse
import datetime
import os
import platform
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

DEFAULT_PROBLEMS = "fib:35,nqueens:13,comp:30000,grav:250,lu:512,uts:1,uts:3,uts:5,pen:12"
DEFAULT_VARIANTS = "seq,tascell,omp,tbb"
LINE_RE = re.compile(r"^result=(-?\d+) seconds=(\d+(?:\.\d+)?)$")

# Fallback if a config header cannot be read; the headers are the source of truth.
FALLBACK_KNOWN = {
    "fib": {30: 832040, 35: 9227465, 40: 102334155},
    "nqueens": {8: 92, 10: 724, 12: 14200, 13: 73712, 14: 365596},
    "comp": {30000: 299996458},
    "grav": {250: 597663356},
    "lu": {512: 3194422545},
    "uts": {1: 4130071, 3: 4112897, 5: 4147582},  # N = tree number (T1, T3, T5): node count
    "pen": {12: 9356},
}


def known_answers(problem):
    """Known answers from bench/<problem>/<problem>-config.hpp (known_answers[] = {{n, a, ...}, ...};):
    the first two numbers of every entry (uts' entries go on with depth and leaves)."""
    path = os.path.join(HERE, problem, problem + "-config.hpp")
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return dict(FALLBACK_KNOWN.get(problem, {}))
    m = re.search(r"known_answers\[\]\s*=\s*\{(.*?)\};", text, re.S)
    if not m:
        return dict(FALLBACK_KNOWN.get(problem, {}))
    return {int(n): int(a) for n, a in re.findall(r"\{\s*(\d+)\s*,\s*(-?\d+)\s*[,}]", m.group(1))}


def parse_problems(spec):
    out = []
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        if ":" not in item:
            raise argparse.ArgumentTypeError("problem must look like name:N, got %r" % item)
        name, n = item.split(":", 1)
        if not re.fullmatch(r"[A-Za-z0-9_]+", name) or not n.isdigit():
            raise argparse.ArgumentTypeError("bad problem spec %r" % item)
        out.append((name, int(n)))
    if not out:
        raise argparse.ArgumentTypeError("no problems given")
    return out


def parse_int_list(spec):
    try:
        vals = [int(x) for x in spec.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("expected comma-separated integers, got %r" % spec)
    if not vals or any(v < 1 for v in vals):
        raise argparse.ArgumentTypeError("worker counts must be positive integers")
    return list(dict.fromkeys(vals))


def find_binary(build_dir, name):
    """Binaries live in <build>/bench when --build-dir is the top-level build dir."""
    for d in (build_dir, os.path.join(build_dir, "bench")):
        p = os.path.join(d, name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


def run_once(binary, n, workers, timeout):
    """Returns (seconds, result, error). error is None on success."""
    env = dict(os.environ)
    env["TASCELL_WORKERS"] = str(workers)
    try:
        p = subprocess.run([binary, str(n), "1"], env=env, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, "timed out after %gs" % timeout
    except OSError as e:
        return None, None, "could not run: %s" % e
    lines = [l for l in p.stdout.splitlines() if l.strip()]
    err_tail = p.stderr.strip().splitlines()[-3:]
    if p.returncode != 0:
        return None, None, "exit status %d; stderr: %s" % (p.returncode, " | ".join(err_tail))
    if len(lines) != 1:
        return None, None, "expected exactly 1 output line, got %d: %r" % (len(lines), lines[:3])
    m = LINE_RE.match(lines[0].strip())
    if not m:
        return None, None, "unparseable output line %r" % lines[0]
    return float(m.group(2)), int(m.group(1)), None


def fmt_time(t):
    return "-" if t is None else "%.6f" % t


def fmt_ratio(r):
    return "" if r is None else "%.2f" % r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--build-dir", default=os.path.join(os.getcwd(), "build", "bench"),
                    help="directory holding the binaries (or its parent); default ./build/bench")
    ap.add_argument("--problems", type=parse_problems, default=parse_problems(DEFAULT_PROBLEMS),
                    help="comma-separated name:N (default %s)" % DEFAULT_PROBLEMS)
    ap.add_argument("--reps", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--workers", type=parse_int_list, default=[1, 2],
                    help="comma-separated worker counts (default 1,2); seq runs once per round")
    ap.add_argument("--variants", default=DEFAULT_VARIANTS,
                    help="comma-separated (default %s); missing binaries are skipped" % DEFAULT_VARIANTS)
    ap.add_argument("--timeout", type=float, default=600.0, help="per-run timeout in seconds (default 600)")
    ap.add_argument("--markdown", action="store_true", help="print Markdown tables")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = ap.parse_args()
    if args.reps < 1:
        ap.error("--reps must be >= 1")
    variants = list(dict.fromkeys(v.strip() for v in args.variants.split(",") if v.strip()))
    build_dir = os.path.abspath(args.build_dir)

    def progress(msg):
        if not args.quiet:
            print(msg, file=sys.stderr, flush=True)

    failures = []
    notes = []
    tables = []  # (title, header, rows)

    for problem, n in args.problems:
        known = known_answers(problem)
        expected = known.get(n)
        configs = []  # (variant, workers, binary)
        for v in variants:
            name = "%s-%s" % (problem, v)
            b = find_binary(build_dir, name)
            if b is None:
                notes.append("skipped %s: no binary %s in %s" % (name, name, build_dir))
                progress("note: skipping %s (no binary in %s)" % (name, build_dir))
                continue
            for w in ([1] if v == "seq" else args.workers):
                configs.append((v, w, b))
        if not configs:
            failures.append("%s: no binaries found in %s" % (problem, build_dir))
            continue

        times = {(v, w): [] for v, w, _ in configs}
        results = {}  # answer -> list of (variant, workers)
        for r in range(args.reps):
            for v, w, b in configs:
                secs, res, err = run_once(b, n, w, args.timeout)
                tag = "%s-%s N=%d workers=%d round %d/%d" % (problem, v, n, w, r + 1, args.reps)
                if err is None and expected is not None and res != expected:
                    err = "wrong answer %d (expected %d)" % (res, expected)
                if err is not None:
                    failures.append("%s: %s" % (tag, err))
                    progress("FAIL %s: %s" % (tag, err))
                    continue
                results.setdefault(res, []).append((v, w))
                times[(v, w)].append(secs)
                progress("%-45s %.6f s" % (tag, secs))
        if len(results) > 1:
            detail = "; ".join("%d from %s" % (a, sorted(set(x[0] for x in who)))
                               for a, who in results.items())
            failures.append("%s N=%d: variants disagree: %s" % (problem, n, detail))

        med = {k: (statistics.median(t) if t else None) for k, t in times.items()}
        seq = med.get(("seq", 1))
        rows = []
        for v, w, _ in configs:
            m = med[(v, w)]
            t = times[(v, w)]
            one = med.get((v, 1))
            vs_seq = m / seq if (m is not None and seq) else None
            ser = (one / seq) if (v != "seq" and w == 1 and one is not None and seq) else None
            spd = (one / m) if (v != "seq" and w != 1 and one is not None and m) else None
            rows.append([
                v,
                "-" if v == "seq" else str(w),
                fmt_time(m),
                fmt_time(min(t) if t else None),
                fmt_time(max(t) if t else None),
                "%d/%d" % (len(t), args.reps),
                fmt_ratio(vs_seq),
                fmt_ratio(ser),
                fmt_ratio(spd),
            ])
        ans = ("answer %d, checked" % expected) if expected is not None else "answer not known, cross-checked"
        title = "%s(%d): median of %d interleaved runs; %s" % (problem, n, args.reps, ans)
        header = ["variant", "workers", "median s", "min s", "max s", "ok runs",
                  "vs seq", "ser.ovh (1w/seq)", "speedup (1w/this)"]
        tables.append((title, header, rows))

    # ---- output ----
    try:
        load = "%.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        load = "?"
    info = "%s; %s; %d CPUs; load avg %s; %s" % (
        datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), platform.node(), os.cpu_count() or 0,
        load, "workers " + ",".join(map(str, args.workers)))

    if args.markdown:
        print("_%s_" % info)
        print()
        for title, header, rows in tables:
            print("**%s**" % title)
            print()
            print("| " + " | ".join(header) + " |")
            print("|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|")
            for row in rows:
                print("| " + " | ".join(c if c else " " for c in row) + " |")
            print()
    else:
        print(info)
        for title, header, rows in tables:
            print()
            print(title)
            widths = [max(len(header[i]), *(len(r[i]) for r in rows)) for i in range(len(header))]
            def line(cells):
                return "  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i])
                                 for i, c in enumerate(cells)).rstrip()
            print(line(header))
            print(line(["-" * w for w in widths]))
            for row in rows:
                print(line(row))

    for note in notes:
        print(("- note: " if args.markdown else "note: ") + note)
    if failures:
        print(file=sys.stderr)
        print("%d FAILURE(S):" % len(failures), file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
