#!/usr/bin/env python3
"""The benchmark matrix: every variant side by side, interleaved, repeated, medians.

One command configures, builds and runs everything (from a fresh clone, after
scripts/install-deps.sh):

  python3 bench/run_matrix.py --build                 # build/matrix, all problems, 5 rounds
  python3 bench/run_matrix.py --build --reps 3 --markdown

Without --build it runs the binaries of an existing build (--build-dir, the
top-level build directory or its bench/ subdirectory).

The machine is assumed noisy and shared, so runs are INTERLEAVED: for each
problem, every configuration runs once per round, round-robin (the order
rotates from round to round), for --reps rounds; each configuration is
summarised by its median.

Variants (binaries <problem>-<variant>, all compiled with the same compiler
and flags: C++20, -O3):
  seq        the sequential program (the Tascell++ program with the markers erased)
  tcpp       Tascell++: the .tcpp program translated by tascellc (the main row)
  tascell    Tascell++: the hand-written program on the runtime API (secondary row)
  omp        OpenMP tasks, GCC's libgomp
  omp-llvm   the same OpenMP object code linked against LLVM's libomp
  tbb        oneTBB
  (seq-noinline: fib only, the sequential fib kept from inlining itself)
Configurations: seq once; every other variant with each --workers count
(env TASCELL_WORKERS; the peers read it too); the --proc-variants also as
--procs processes x 1 worker under `mpirun --oversubscribe`.

Placements (--placements K, K = 2 or 4): where the linker puts a
program's code moves its time by itself (docs/performance.md, "where the
code lands": n-queens by 10% when its code moved 16 bytes). With K > 1
every binary is linked again K-1 times with its code moved by 16, 32 and
48 bytes (a padding object linked first; the build's own link command, so
it needs a Ninja build), and round r runs placement r mod K of every
binary, so each median spans the placements; a table gives each
configuration's median at each placement and how far apart they are.
Binaries this cannot relink (the clang-built omp-llvm) run as built, with
a note.

Every run is one process (or one mpirun): `<binary> N R` with R = 1 + --warmup.
The program runs the computation R times in the process and prints one line
`result=<answer> seconds=<s>` per run (under mpirun: every process does); the
time of the last run is the sample, so the start-up of threads (and of MPI)
falls into the warm-up runs. It must exit 0. EVERY answer printed (every run,
every process) is checked against the known answer in
bench/<problem>/<problem>-config.hpp (when N has one) and against the other
variants; the programs also check themselves (e.g. L*U against the matrix,
the force against the sequential sum) and exit 1 when wrong. Any failure is
reported and makes this script exit 1 (after printing the tables). For uts,
N is the tree's number (1, 3, 5 for T1, T3, T5) and the answer its node count.

Tables:
  ratios     per problem: ovh = (1 worker) / seq, the serial overhead;
             x2w = (1 worker) / (2 workers), the speedup; x2p = (1 worker) /
             (2 processes x 1 worker); for every variant
  vs seq     per problem: (2 workers) / seq and (2 processes) / seq: who is fastest
  medians    the absolute median times (s), as context
  details    per problem: median, min, max of every configuration

Standard library only.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import ninja_commands  # noqa: E402

DEFAULT_PROBLEMS = "fib:35,nqueens:13,pen:12,comp:30000,grav:250,lu:512,uts:1,uts:3"
DEFAULT_VARIANTS = "seq,tcpp,tascell,omp,omp-llvm,tbb"
DEFAULT_PROC_VARIANTS = "tcpp,tascell"
LINE_RE = re.compile(r"^(?:\[\d+,(\d+)\]<stdout>:\s?)?result=(-?\d+) seconds=(\d+(?:\.\d+)?)\s*$")

LABELS = {
    "seq": "sequential",
    "seq-noinline": "sequential, fib kept from inlining itself",
    "tcpp": "Tascell++, translated from .tcpp",
    "tascell": "Tascell++, hand-written on the runtime API",
    "omp": "OpenMP tasks, GCC libgomp",
    "omp-llvm": "OpenMP tasks, GCC's object code linked against LLVM libomp (see the notes)",
    "tbb": "oneTBB",
}

PROBLEM_NAMES = {"fib": "Fib", "nqueens": "Nq", "pen": "Pen", "comp": "Comp", "grav": "Grav", "lu": "LU",
                 "uts": "UTS", "align": "Align", "matmul": "Matmul"}

# Configurations that cannot run as they are written, with the reason (shown
# as a note). (Empty: lu-tascell computed and checked its answer in every
# process until it returned it from the root call, as lu-tcpp does.)
PROC_SKIP = {}

# Fallback if a config header cannot be read; the headers are the source of truth.
FALLBACK_KNOWN = {
    "fib": {30: 832040, 35: 9227465, 40: 102334155},
    "nqueens": {8: 92, 10: 724, 12: 14200, 13: 73712, 14: 365596},
    "comp": {30000: 299996458},
    "grav": {250: 597663356},
    "lu": {512: 3194422545},
    "uts": {1: 4130071, 3: 4112897, 5: 4147582},  # N = tree number (T1, T3, T5): node count
    "pen": {12: 9356},
    "align": {100: -1379864},
    "matmul": {1024: 1214012571711535922},
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


def parse_names(spec):
    return list(dict.fromkeys(v.strip() for v in spec.split(",") if v.strip()))


def problem_title(problem, n):
    if problem == "uts":
        return "UTS T%d" % n
    return "%s(%d)" % (PROBLEM_NAMES.get(problem, problem), n)


def find_binary(build_dir, name):
    """Binaries live in <build>/bench when --build-dir is the top-level build dir."""
    for d in (build_dir, os.path.join(build_dir, "bench")):
        p = os.path.join(d, name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


# ---------------------------------------------------------------- building

def run_checked_cmd(cmd, what):
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    p = subprocess.run(cmd, stdout=sys.stderr)  # stdout is for the tables
    if p.returncode != 0:
        raise SystemExit("run_matrix: %s failed (exit %d)" % (what, p.returncode))


def build(build_dir, problems, variants, jobs, cmake_args):
    """Configures (if needed) and builds exactly the binaries the run needs."""
    cmd = ["cmake", "-S", ROOT, "-B", build_dir]
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        # A new build directory; an existing one keeps its settings.
        cmd += ["-DCMAKE_BUILD_TYPE=Release", "-DTASCELL_BUILD_TESTS=OFF", "-DTASCELL_BUILD_BENCH=ON"]
        if shutil.which("ninja"):
            cmd += ["-G", "Ninja"]
    run_checked_cmd(cmd + list(cmake_args), "configuring")
    p = subprocess.run(["cmake", "--build", build_dir, "--target", "help"], capture_output=True, text=True)
    known = set()
    for line in p.stdout.splitlines():
        m = re.match(r"^(?:\.\.\. )?([A-Za-z0-9_.+-]+)(?::|\s*$)", line.strip())
        if m:
            known.add(m.group(1))
    wanted, missing = [], []
    for problem in dict.fromkeys(p for p, _ in problems):
        for v in variants:
            t = "%s-%s" % (problem, v)
            (wanted if t in known else missing).append(t)
    for t in missing:
        print("run_matrix: the build has no target %s (skipped; see cmake's messages above)" % t,
              file=sys.stderr)
    if wanted:
        run_checked_cmd(["cmake", "--build", build_dir, "--parallel", str(jobs), "--target"] + wanted,
                        "building")


# ---------------------------------------------------------------- running

def run_once(binary, n, workers, procs, runs, timeout):
    """One process (procs == 1) or one mpirun (procs > 1). Returns (seconds, answers, error):
    seconds of the last run in process 0, every answer printed (by every process)."""
    env = dict(os.environ)
    env["TASCELL_WORKERS"] = str(workers)
    if procs == 1:
        cmd = [binary, str(n), str(runs)]
    else:
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
        cmd = ["mpirun", "--oversubscribe", "--tag-output", "-np", str(procs),
               "-x", "TASCELL_WORKERS=%d" % workers, binary, str(n), str(runs)]
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, "timed out after %gs" % timeout
    except OSError as e:
        return None, None, "could not run: %s" % e
    err_lines = p.stderr.strip().splitlines()
    tagged = [l for l in err_lines if "<stderr>:" in l]  # the programs' own messages under mpirun
    err_tail = tagged[:3] if tagged else err_lines[-3:]
    if p.returncode != 0:
        return None, None, "exit status %d; stderr: %s" % (p.returncode, " | ".join(err_tail))
    per_rank = {}
    for line in p.stdout.splitlines():
        if not line.strip():
            continue
        m = LINE_RE.match(line.strip())
        if not m:
            return None, None, "unexpected output line %r" % line
        rank = int(m.group(1)) if m.group(1) is not None else 0
        per_rank.setdefault(rank, []).append((int(m.group(2)), float(m.group(3))))
    if sorted(per_rank) != list(range(procs)):
        return None, None, "expected lines from %d process(es), got ranks %s" % (procs, sorted(per_rank))
    for rank, lines in per_rank.items():
        if len(lines) != runs:
            return None, None, "process %d printed %d result lines, expected %d" % (rank, len(lines), runs)
    answers = [a for lines in per_rank.values() for a, _ in lines]
    return per_rank[0][-1][1], answers, None


def ninja_root(build_dir):
    """The directory holding build.ninja: the build dir or its parent (bench/)."""
    for d in (build_dir, os.path.dirname(build_dir)):
        if os.path.isfile(os.path.join(d, "build.ninja")):
            return d
    return None


PAD_ASM = """\t.section .text.unlikely,"ax",@progbits
\t.balign 16
tascell_placement_pad_%d:
\t.skip %d
\t.section .note.GNU-stack,"",@progbits
"""


def placements(binary, root, k, tmp):
    """The binary and k-1 copies of it with its code moved 16, 32, 48 bytes
    further (its link command from Ninja with a padding object first), or
    None when it cannot be relinked."""
    name = os.path.basename(binary)
    args = ninja_commands.link_args(root, os.path.relpath(binary, root))
    if args is None:
        return None  # not linked by a command of its own (e.g. a custom command)
    out = [binary]
    for j in range(1, k):
        pad_s = os.path.join(tmp, "pad%d.s" % j)
        pad_o = os.path.join(tmp, "pad%d.o" % j)
        if not os.path.exists(pad_o):
            with open(pad_s, "w") as f:
                f.write(PAD_ASM % (j, 16 * j))
            run_checked_cmd(["as", pad_s, "-o", pad_o], "assembling a padding object")
        dest = os.path.join(tmp, "%s.placed%d" % (name, 16 * j))
        a = list(args)
        a[a.index("-o") + 1] = dest
        a.insert(1, pad_o)
        q = subprocess.run(a, cwd=root, capture_output=True, text=True)
        if q.returncode != 0:
            raise SystemExit("run_matrix: relinking %s failed:\n%s" % (name, q.stderr))
        # The padding must have moved the program's code, main included, by
        # exactly its size (else every "placement" would be the same one);
        # a translated program's functions start on 64-byte lines
        # (tascell_add_executable), so its code moves by whole lines.
        moved = symbol_address(dest, "main") - symbol_address(binary, "main")
        if moved != 16 * j and not (name.endswith("-tcpp") and moved % 64 == 0):
            raise SystemExit("run_matrix: %s: a padding of %d bytes moved main by %d bytes" % (name, 16 * j, moved))
        out.append(dest)
    return out


def symbol_address(binary, symbol):
    out = subprocess.run(["nm", binary], capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[2] == symbol:
            return int(f[0], 16)
    raise SystemExit("run_matrix: no symbol %s in %s (nm)" % (symbol, binary))


def omp_runtime(binary):
    """The OpenMP runtime a binary loads, by ldd: 'libgomp', 'libomp', both or neither."""
    try:
        out = subprocess.run(["ldd", binary], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    libs = [l.split()[0] for l in out.splitlines() if l.strip()]
    gomp = [l for l in libs if l.startswith("libgomp")]
    omp = [l for l in libs if l.startswith("libomp")]
    return ",".join(gomp + omp) or "none"


def built_by_clang(binary):
    """True if the binary's .comment names clang (e.g. an omp-llvm built by clang++ -fopenmp=libomp)."""
    try:
        with open(binary, "rb") as f:
            return b"clang version" in f.read()
    except OSError:
        return False


def fmt_time(t):
    return "-" if t is None else "%.6f" % t


def fmt_short(t):
    if t is None:
        return "-"
    return "%.4f" % t if t < 10 else "%.2f" % t


def fmt_ratio(r):
    return "-" if r is None else "%.2f" % r


def config_label(w, procs):
    return "%dp x %dw" % (procs, w) if procs > 1 else "%dw" % w


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--build", action="store_true",
                    help="configure and build the binaries first (a new build dir: Release, tests off, Ninja "
                         "if found; default build dir <repo>/build/matrix)")
    ap.add_argument("--build-dir", default=None,
                    help="directory holding the binaries (or its parent); default ./build/bench, "
                         "or <repo>/build/matrix with --build")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="build jobs (default: every CPU)")
    ap.add_argument("--cmake-arg", action="append", default=[],
                    help="extra argument for cmake's configure step (repeatable)")
    ap.add_argument("--problems", type=parse_problems, default=parse_problems(DEFAULT_PROBLEMS),
                    help="comma-separated name:N (default %s)" % DEFAULT_PROBLEMS)
    ap.add_argument("--reps", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--warmup", type=int, default=1,
                    help="untimed runs before the timed one in each process (default 1; answers still checked)")
    ap.add_argument("--workers", type=parse_int_list, default=[1, 2],
                    help="comma-separated worker counts (default 1,2); seq runs once per round")
    ap.add_argument("--variants", default=DEFAULT_VARIANTS,
                    help="comma-separated (default %s); missing binaries are skipped" % DEFAULT_VARIANTS)
    ap.add_argument("--procs", type=int, default=2, help="processes for the mpirun rows (default 2; 1: none)")
    ap.add_argument("--proc-variants", default=DEFAULT_PROC_VARIANTS,
                    help="variants also run as --procs processes x 1 worker (default %s)" % DEFAULT_PROC_VARIANTS)
    ap.add_argument("--timeout", type=float, default=600.0, help="per-run timeout in seconds (default 600)")
    ap.add_argument("--markdown", action="store_true", help="print Markdown tables")
    ap.add_argument("--no-details", action="store_true", help="leave out the per-problem tables")
    ap.add_argument("--json", metavar="FILE", help="also write every sample (and the tables' inputs) to FILE")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    ap.add_argument("--placements", type=int, default=1, choices=[1, 2, 4],
                    help="run every binary at this many placements of its code, round r at r mod K "
                         "(default 1: as built; see above)")
    args = ap.parse_args()
    if args.reps < 1:
        ap.error("--reps must be >= 1")
    if args.warmup < 0:
        ap.error("--warmup must be >= 0")
    variants = parse_names(args.variants)
    proc_variants = [v for v in parse_names(args.proc_variants) if v in variants] if args.procs > 1 else []
    if args.build_dir is None:
        args.build_dir = os.path.join(ROOT, "build", "matrix") if args.build else \
            os.path.join(os.getcwd(), "build", "bench")
    build_dir = os.path.abspath(args.build_dir)
    runs = 1 + args.warmup

    def progress(msg):
        if not args.quiet:
            print(msg, file=sys.stderr, flush=True)

    if args.build:
        build(build_dir, args.problems, variants, args.jobs, args.cmake_arg)

    failures = []
    notes = []
    if proc_variants and shutil.which("mpirun") is None:
        notes.append("no mpirun on PATH: no rows with %d processes" % args.procs)
        proc_variants = []

    try:
        load_start = "%.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        load_start = "?"
    started = datetime.datetime.now(datetime.timezone.utc)

    omp_libs = {}  # variant -> runtime library seen by ldd
    placed = {}  # binary -> its placements (the binary itself first)
    tmp = None
    if args.placements > 1:
        import tempfile
        tmp = tempfile.mkdtemp(prefix="tascell-placements-")
        root = ninja_root(build_dir)
        if root is None:
            raise SystemExit("run_matrix: --placements needs a Ninja build (no build.ninja in %s or its parent)"
                             % build_dir)
    results_by_problem = []  # (problem, n, configs, med, times, expected, rounds)
    placement_results = []  # (problem, n, configs, by_place)

    for problem, n in args.problems:
        known = known_answers(problem)
        expected = known.get(n)
        configs = []  # (variant, workers, procs, binary)
        for v in variants:
            name = "%s-%s" % (problem, v)
            b = find_binary(build_dir, name)
            if b is None:
                if not (v == "seq-noinline" and problem != "fib"):
                    notes.append("skipped %s: no binary %s in %s" % (name, name, build_dir))
                    progress("note: skipping %s (no binary in %s)" % (name, build_dir))
                continue
            if v.startswith("omp") and v not in omp_libs:
                lib = omp_runtime(b)
                omp_libs[v] = lib
                want = "libomp" if v == "omp-llvm" else "libgomp"
                other = "libgomp" if want == "libomp" else "libomp"
                if want not in lib or other in lib:
                    failures.append("%s loads %s, expected %s only (ldd)" % (name, lib, want))
            if v == "omp-llvm" and built_by_clang(b):
                notes.append("%s is compiled by clang++ -fopenmp=libomp, not by the compiler of the other "
                             "variants: GCC's code on libomp's GOMP_* layer gives wrong answers there "
                             "(bench/CMakeLists.txt, tascell_bench_omp_llvm_by_clang)" % name)
            if tmp is not None and b not in placed:
                placed[b] = placements(b, root, args.placements, tmp)
                if placed[b] is None:
                    notes.append("%s runs as built at every round: it could not be relinked at other "
                                 "placements" % name)
                    placed[b] = [b]
            for w in ([1] if v.startswith("seq") else args.workers):
                configs.append((v, w, 1, b))
            if v in proc_variants:
                if (problem, v) in PROC_SKIP:
                    notes.append(PROC_SKIP[(problem, v)])
                else:
                    configs.append((v, 1, args.procs, b))
        if not configs:
            failures.append("%s: no binaries found in %s" % (problem, build_dir))
            continue

        times = {(v, w, p): [] for v, w, p, _ in configs}
        rounds = {(v, w, p): [] for v, w, p, _ in configs}  # the round of every sample (bench/paired.py)
        by_place = {(v, w, p): {} for v, w, p, _ in configs}  # --placements: placement -> samples
        results = {}  # answer -> set of variants
        for r in range(args.reps):
            k = r % len(configs)
            for v, w, procs, b in configs[k:] + configs[:k]:
                at = placed.get(b, [b])
                secs, answers, err = run_once(at[r % len(at)], n, w, procs, runs, args.timeout)
                tag = "%s-%s N=%d %s round %d/%d" % (problem, v, n, config_label(w, procs), r + 1, args.reps)
                if err is None and expected is not None:
                    wrong = [a for a in answers if a != expected]
                    if wrong:
                        err = "wrong answer %d (expected %d)" % (wrong[0], expected)
                if err is not None:
                    failures.append("%s: %s" % (tag, err))
                    progress("FAIL %s: %s" % (tag, err))
                    continue
                for a in answers:
                    results.setdefault(a, set()).add(v)
                times[(v, w, procs)].append(secs)
                rounds[(v, w, procs)].append(r)
                by_place[(v, w, procs)].setdefault(r % len(at), []).append(secs)
                progress("%-50s %.6f s" % (tag, secs))
        if len(results) > 1:
            detail = "; ".join("%d from %s" % (a, sorted(who)) for a, who in results.items())
            failures.append("%s N=%d: variants disagree: %s" % (problem, n, detail))
        med = {key: (statistics.median(t) if t else None) for key, t in times.items()}
        results_by_problem.append((problem, n, configs, med, times, expected, rounds))
        placement_results.append((problem, n, configs, by_place))

    try:
        load_end = "%.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        load_end = "?"

    # ---- tables ----
    par_variants = [v for v in variants if not v.startswith("seq")]
    multi = [w for w in args.workers if w != 1]
    tables = []  # (title, header, rows)

    # ratios
    header = ["problem", "seq s"]
    for v in par_variants:
        header.append("%s ovh" % v)
        header += ["%s x%dw" % (v, w) for w in multi]
        if v in proc_variants:
            header.append("%s x%dp" % (v, args.procs))
    rows = []
    for problem, n, configs, med, _, _, _ in results_by_problem:
        seq = med.get(("seq", 1, 1))
        row = [problem_title(problem, n), fmt_short(seq)]
        for v in par_variants:
            one = med.get((v, 1, 1))
            row.append(fmt_ratio(one / seq if one and seq else None))
            for w in multi:
                m = med.get((v, w, 1))
                row.append(fmt_ratio(one / m if one and m else None))
            if v in proc_variants:
                m = med.get((v, 1, args.procs))
                row.append(fmt_ratio(one / m if one and m else None))
        rows.append(row)
    title = "Ratios: ovh = 1 worker / seq (serial overhead)"
    if multi:
        title += "; x%sw = 1 worker / that many workers (speedup)" % "/".join(map(str, multi))
    if proc_variants:
        title += "; x%dp = 1 worker / %d processes x 1 worker" % (args.procs, args.procs)
    tables.append((title, header, rows))

    # against seq, at the largest worker count
    wmax = max(args.workers)
    header = ["problem"]
    for v in par_variants:
        header.append("%s %dw" % (v, wmax))
        if v in proc_variants:
            header.append("%s %dp" % (v, args.procs))
    rows = []
    for problem, n, configs, med, _, _, _ in results_by_problem:
        seq = med.get(("seq", 1, 1))
        row = [problem_title(problem, n)]
        for v in par_variants:
            m = med.get((v, wmax, 1))
            row.append(fmt_ratio(m / seq if m and seq else None))
            if v in proc_variants:
                m = med.get((v, 1, args.procs))
                row.append(fmt_ratio(m / seq if m and seq else None))
        rows.append(row)
    tables.append(("Time / seq time with %d worker(s)%s: below 1 is faster than the sequential program" %
                   (wmax, (" (and %d processes x 1 worker)" % args.procs) if proc_variants else ""),
                   header, rows))

    # absolute medians
    header = ["problem"]
    keys = []
    for v in variants:
        ws = [1] if v.startswith("seq") else args.workers
        for w in ws:
            keys.append((v, w, 1))
            header.append(v if v.startswith("seq") else "%s %dw" % (v, w))
        if v in proc_variants:
            keys.append((v, 1, args.procs))
            header.append("%s %dp" % (v, args.procs))
    rows = []
    for problem, n, configs, med, _, _, _ in results_by_problem:
        rows.append([problem_title(problem, n)] + [fmt_short(med.get(k)) for k in keys])
    tables.append(("Median seconds", header, rows))

    # --placements: how far each binary's time moved with where its code lies
    if args.placements > 1:
        offsets = [16 * j for j in range(args.placements)]
        header = ["configuration"] + ["+%d" % o for o in offsets] + ["spread"]
        rows = []
        for problem, n, configs, by_place in placement_results:
            for v, w, procs, _ in configs:
                meds = [statistics.median(by_place[(v, w, procs)][j]) if by_place[(v, w, procs)].get(j) else None
                        for j in range(args.placements)]
                got = [m for m in meds if m is not None]
                spread = "%.1f%%" % (100 * (max(got) - min(got)) / min(got)) if len(got) > 1 else "-"
                rows.append(["%s %s %s" % (problem_title(problem, n), v, config_label(w, procs))] +
                            [fmt_short(m) for m in meds] + [spread])
        tables.append(("Median seconds at each placement of the code (its code moved by +N bytes) and how far "
                       "apart they are", header, rows))

    if not args.no_details:
        for problem, n, configs, med, times, expected, _ in results_by_problem:
            seq = med.get(("seq", 1, 1))
            rows = []
            for v, w, procs, _ in configs:
                m = med[(v, w, procs)]
                t = times[(v, w, procs)]
                one = med.get((v, 1, 1))
                base = not v.startswith("seq") and w == 1 and procs == 1
                rows.append([
                    v,
                    "-" if v.startswith("seq") else str(w),
                    str(procs),
                    fmt_time(m),
                    fmt_time(min(t) if t else None),
                    fmt_time(max(t) if t else None),
                    "%d/%d" % (len(t), args.reps),
                    fmt_ratio(m / seq if (m is not None and seq) else None),
                    fmt_ratio(one / seq) if (base and one and seq) else "",
                    fmt_ratio(one / m) if (not v.startswith("seq") and not base and one and m) else "",
                ])
            ans = ("answer %d, checked" % expected) if expected is not None else "answer not known, cross-checked"
            title = "%s: median of %d interleaved runs; %s" % (problem_title(problem, n), args.reps, ans)
            header = ["variant", "workers", "processes", "median s", "min s", "max s", "ok runs",
                      "vs seq", "ser.ovh (1w/seq)", "speedup (1w/this)"]
            tables.append((title, header, rows))

    # ---- output ----
    cxx = "?"
    try:
        cxx = subprocess.run(["c++", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        pass
    info = [
        "%s UTC; %s; %s; %d CPUs" % (started.strftime("%Y-%m-%d %H:%M"), platform.node(), platform.platform(),
                                     os.cpu_count() or 0),
        "load average (1, 5, 15 min) at the start %s, at the end %s" % (load_start, load_end),
        "%s; %d interleaved rounds, %d warm-up run(s) per process; workers %s; %s" % (
            cxx, args.reps, args.warmup, ",".join(map(str, args.workers)),
            ("%d processes x 1 worker (mpirun) for %s" % (args.procs, ",".join(proc_variants)))
            if proc_variants else "no multi-process rows"),
        ("placements of the code: %d (round r runs every binary with its code moved by 16 * (r mod %d) "
         "bytes)" % (args.placements, args.placements)) if args.placements > 1 else
        "placements of the code: as built",
        "OpenMP runtimes (ldd): " + (", ".join("%s: %s" % kv for kv in sorted(omp_libs.items())) or "-"),
        "variants: " + "; ".join("%s = %s" % (v, LABELS.get(v, v)) for v in variants),
    ]

    if args.markdown:
        for line in info:
            print("_%s_  " % line)
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
        for line in info:
            print(line)
        for title, header, rows in tables:
            print()
            print(title)
            widths = [max(len(header[i]), *(len(r[i]) for r in rows)) if rows else len(header[i])
                      for i in range(len(header))]

            def line(cells):
                return "  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i])
                                 for i, c in enumerate(cells)).rstrip()
            print(line(header))
            print(line(["-" * w for w in widths]))
            for row in rows:
                print(line(row))

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"info": info, "notes": list(dict.fromkeys(notes)), "failures": failures,
                       "runs": [{"problem": problem, "n": n, "expected": expected,
                                 "configs": [{"variant": v, "workers": w, "processes": p, "seconds": times[(v, w, p)],
                                              "rounds": rounds[(v, w, p)]}
                                             for v, w, p, _ in configs]}
                                for problem, n, configs, _, times, expected, rounds in results_by_problem]},
                      f, indent=1)

    for note in dict.fromkeys(notes):
        print(("- note: " if args.markdown else "note: ") + note)
    if tmp is not None:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(file=sys.stderr)
        print("%d FAILURE(S):" % len(failures), file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
