#!/usr/bin/env python3
"""Per-iteration writes side by side with OpenMP `parallel for` (libgomp).

Builds, for each problem of bench/loops (stencil: a 1-D three-point
stencil over std::vector<double>; matrows: C = A * B by rows over vectors
of vectors), the sequential program (tascellc --serial, g++ -O2), the
Tascell++ program (tascell++ -O2) and the OpenMP one (g++ -O2 -fopenmp),
then runs them round by round, interleaved (seq, tcpp 1 and 2 workers, omp
1 and 2 threads; each round starting at the next of them), and prints the medians and each ratio's range over the
rounds, every ratio taken within one round. With --mpi (the default) it
then runs the Tascell++ program on 2 processes of 1 worker, checks its
answer against the sequential one, times it beside 1 worker (--mpi-reps
runs, each paired with a 1-worker run of the same build), and shows what
the pieces carried
(TASCELL_STATS=1): the pieces and results sent, the bytes of their inputs
and outputs, and the bytes of the elements a piece owns.

A loop's time moves with where its code lands (the stencil's sequential
loop takes 0.15 s at one offset in its cache line and 0.19 s at another),
so with --layouts K (default 4) every program is built K times, linked
with a padding object first (run_matrix.py's) that moves its code by 0,
16, 32, ... bytes, and each round runs every layout. The ratios are then
taken per layout within a round, and each line shows the median and range
over rounds and layouts (the per-layout medians are listed below it).
Translated code is aligned on 64-byte lines (tascell++'s
-falign-functions=64), so the padding moves the sequential and OpenMP
loops only.

usage: run_loops.py [--tascellxx P] [--tascellc P] [--reps N] [--layouts K]
                    [--no-mpi] [--mpi-reps N] [--problems stencil,matrows]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import run_matrix  # noqa: E402  (the padding object)
ARGS = {"stencil": ["500000", "400"], "matrows": ["1000"]}
# Bytes of the elements one iteration owns: a double; a row of n doubles
# (cereal writes a vector as its length and its elements).
OWNED_BYTES = {"stencil": lambda a: 8, "matrows": lambda a: 8 + 8 * int(a[0])}


def run(cmd, env=None, timeout=600):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    if p.returncode != 0:
        raise SystemExit("FAILED (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr[-3000:]))
    return p


def timed(cmd, env):
    answer, seconds = run(cmd, env).stdout.split()
    return answer, float(seconds)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tascellxx", default=os.path.join(ROOT, "build/release/compiler/driver/tascell++"))
    ap.add_argument("--tascellc", default=os.path.join(ROOT, "build/release/compiler/translator/tascellc"))
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--layouts", type=int, default=4)
    ap.add_argument("--no-mpi", action="store_true")
    ap.add_argument("--mpi-reps", type=int, default=3, help="2-process runs, each beside a 1-worker run")
    ap.add_argument("--problems", default="stencil,matrows")
    o = ap.parse_args()
    base = dict(os.environ)
    for k in ("TASCELL_WORKERS", "OMP_NUM_THREADS", "TASCELL_STATS"):
        base.pop(k, None)
    if o.layouts < 1 or o.reps < 1:
        raise SystemExit("run_loops: --layouts and --reps must be at least 1")
    with tempfile.TemporaryDirectory() as tmp:
        pads = [None]
        for j in range(1, o.layouts):
            pad_s, pad_o = os.path.join(tmp, "pad%d.s" % j), os.path.join(tmp, "pad%d.o" % j)
            with open(pad_s, "w") as f:
                f.write(run_matrix.PAD_ASM % (j, 16 * j))
            run(["as", pad_s, "-o", pad_o])
            pads.append(pad_o)
        for prob in o.problems.split(","):
            src = os.path.join(HERE, prob + ".tcpp")
            run([o.tascellc, "--serial", src, "-o", os.path.join(tmp, prob + "-seq.cpp")])
            variants = []  # (name, layout, command, environment)
            for j, pad in enumerate(pads):
                seq, tcpp, omp = (os.path.join(tmp, "%s-%s.L%d" % (prob, v, j)) for v in ("seq", "tcpp", "omp"))
                pre = [pad] if pad else []
                run(["g++", "-std=c++20", "-O2"] + pre + [os.path.join(tmp, prob + "-seq.cpp"), "-o", seq])
                run([o.tascellxx, "-O2"] + pre + [src, "-o", tcpp])
                run(["g++", "-std=c++20", "-O2", "-fopenmp"] + pre + [os.path.join(HERE, prob + "-omp.cpp"), "-o", omp])
                variants += [("seq", j, [seq], {}), ("tcpp 1w", j, [tcpp], {"TASCELL_WORKERS": "1"}),
                             ("tcpp 2w", j, [tcpp], {"TASCELL_WORKERS": "2"}),
                             ("omp 1t", j, [omp], {"OMP_NUM_THREADS": "1"}),
                             ("omp 2t", j, [omp], {"OMP_NUM_THREADS": "2"})]
            names = ["seq", "tcpp 1w", "tcpp 2w", "omp 1t", "omp 2t"]
            times = {(v[0], v[1]): [] for v in variants}
            answer = None
            for r in range(o.reps):
                # Each round starts at the next variant, so that none always
                # runs after the same one (a 2-thread run heats both cores).
                k = r % len(variants)
                for name, j, cmd, env in variants[k:] + variants[:k]:
                    a, t = timed(cmd + ARGS[prob], dict(base, **env))
                    if answer is None:
                        answer = a
                    elif a != answer:
                        raise SystemExit("FAILED: %s %s answered %s, seq %s" % (prob, name, a, answer))
                    times[(name, j)].append(t)
            args = ARGS[prob]
            print("%s %s (%d rounds x %d layouts, answer %s)" % (prob, " ".join(args), o.reps, o.layouts, answer))
            for name in names:
                ts = [t for j in range(o.layouts) for t in times[(name, j)]]
                per = " ".join("%.4f" % statistics.median(times[(name, j)]) for j in range(o.layouts))
                print("  %-8s median %.4f s  (%.4f-%.4f)  per layout %s" %
                      (name, statistics.median(ts), min(ts), max(ts), per))
            def ratio(label, num, den):
                per = [[n / d for n, d in zip(times[(num, j)], times[(den, j)])] for j in range(o.layouts)]
                rs = [x for p in per for x in p]
                meds = " ".join("%.3f" % statistics.median(p) for p in per)
                print("  %-26s median %.3f  (%.3f-%.3f)  per layout %s" %
                      (label, statistics.median(rs), min(rs), max(rs), meds))
            ratio("tcpp 1w / seq", "tcpp 1w", "seq")
            ratio("tcpp speedup 1w/2w", "tcpp 1w", "tcpp 2w")
            ratio("omp 1t / seq", "omp 1t", "seq")
            ratio("omp speedup 1t/2t", "omp 1t", "omp 2t")
            ratio("tcpp 2w / omp 2t", "tcpp 2w", "omp 2t")
            if o.no_mpi:
                continue
            env = dict(base, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
            # Each 2-process run beside a 1-worker run of the same build
            # (layout 0), the last one with TASCELL_STATS.
            mpi_times, one_times = [], []
            for r in range(o.mpi_reps):
                stats = ["-x", "TASCELL_STATS=1"] if r == o.mpi_reps - 1 else []
                p = run(["mpirun", "--oversubscribe", "-np", "2", "-x", "TASCELL_WORKERS=1"] + stats +
                        [os.path.join(tmp, "%s-tcpp.L0" % prob)] + args, env)
                got, t = p.stdout.split()[0], float(p.stdout.split()[1])
                if got != answer:
                    raise SystemExit("FAILED: %s on 2 processes answered %s, seq %s" % (prob, got, answer))
                mpi_times.append(t)
                one_times.append(timed([os.path.join(tmp, "%s-tcpp.L0" % prob)] + args,
                                       dict(base, TASCELL_WORKERS="1"))[1])
            ratios = [m / w for m, w in zip(mpi_times, one_times)]
            print("  2 processes x 1 worker: answer right; %.4f s (%.4f-%.4f), %.2f (%.2f-%.2f) times 1 worker "
                  "run beside it, over %d runs" % (statistics.median(mpi_times), min(mpi_times), max(mpi_times),
                                                   statistics.median(ratios), min(ratios), max(ratios), o.mpi_reps))
            for l in p.stderr.splitlines():
                m = re.search(r"rank (\d+) of.*?(\d+) pieces sent \((\d+) bytes of inputs\), (\d+) results sent "
                              r"\((\d+) bytes of outputs\)", l)
                if not m:
                    continue
                rank, pn, pb, rn, rb = (int(x) for x in m.groups())
                if pn == 0 and rn == 0:
                    continue  # the root call that starts the runtime (started())
                line = "  rank %d: %d pieces sent, %s; %d results sent, %s" % (
                    rank, pn, "%.0f bytes of inputs each" % (pb / pn) if pn else "-", rn,
                    "%.0f bytes of outputs each" % (rb / rn) if rn else "-")
                print(line)
            print("  (an iteration owns %d bytes; a result carries its piece's owned elements)" % OWNED_BYTES[prob](args))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
