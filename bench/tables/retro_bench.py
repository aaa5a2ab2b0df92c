#!/usr/bin/env python3
"""Distributed tables on the four-piece endgame (lang-examples/retro.tcpp
KQKR): the analysis on 1 x 1, 2 processes x 1 worker and 1 x 2, the
layouts interleaved in every round (the machine is shared and noisy),
beside the sequential solver over plain arrays (tests/endgames, the same
algorithm, built by the same driver with the same flags), and per
process: the bytes of table entries it holds, its peak memory, and the
updates it sent per batch.

usage: retro_bench.py [--tascellxx PATH] [--reps N] [--endgame KQKR]
Prints one line per run and a summary: the median and range of each
layout's time, its speedup over 1 x 1 (each round's ratio, then their
median and range), and the figures per process.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
LAYOUTS = [(1, 1), (2, 1), (1, 2)]


def run(binary, endgame, procs, workers):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               TASCELL_WORKERS=str(workers), TASCELL_STATS="1")
    # Open MPI binds a run of 1 or 2 processes to one core each (what a user
    # gets, kept for one worker a process); --bind-to none for several
    # workers, which one core would leave without a core of their own.
    bind = ["--bind-to", "none"] if workers > 1 else []
    cmd = ["mpirun", "--oversubscribe", *bind, "-np", str(procs), "-x", "TASCELL_WORKERS", "-x", "TASCELL_STATS",
           binary, "--figures", endgame]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1200)
    out = r.stdout + r.stderr
    if r.returncode != 0 or "agrees" not in out:
        sys.exit(f"{procs} x {workers}: failed (exit {r.returncode})\n{out[-3000:]}")
    fig = [m for m in re.finditer(r"retro figures: (\w+) rank (\d+) of (\d+): analysis ([0-9.]+) s, table entries "
                                  r"here (\d+) bytes of (\d+), peak memory (-?\d+) KiB", out) if m.group(1) == endgame]
    seconds = max(float(m.group(4)) for m in fig)
    held = {int(m.group(2)): (int(m.group(5)), int(m.group(6)), int(m.group(7))) for m in fig}
    # The last root call's table figures (the endgame's analysis), per process.
    batches = re.findall(r"tables: (\d+) updates sent to other processes in (\d+) batches", out)
    return seconds, held, [(int(u), int(b)) for u, b in batches[-procs:]] if procs > 1 else []


def run_plain(binary, endgame):
    """The sequential push solver over plain arrays (tests/endgames), the
    same algorithm, started like 1 x 1 (mpirun -np 1: bound to a core)."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    r = subprocess.run(["mpirun", "-np", "1", binary, "--no-pull", endgame], capture_output=True, text=True, env=env,
                       timeout=1200)
    m = re.search(endgame + r" \(DTM\): .*push ([0-9.]+) s", r.stdout)
    if r.returncode != 0 or not m:
        sys.exit(f"plain solver: failed (exit {r.returncode})\n{(r.stdout + r.stderr)[-3000:]}")
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tascellxx", default=os.path.join(ROOT, "build", "release", "compiler", "driver", "tascell++"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--endgame", default="KQKR")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "retro")
        subprocess.run([a.tascellxx, "-O2", os.path.join(ROOT, "lang-examples", "retro.tcpp"), "-o", binary],
                       check=True)
        # The plain-array solver, built by the same driver with the same flags.
        plain = os.path.join(tmp, "solve_endgames")
        subprocess.run([a.tascellxx, "-O2", "-I", os.path.join(ROOT, "lang-examples"),
                        os.path.join(ROOT, "tests", "endgames", "solve_endgames.cpp"), "-o", plain], check=True)
        plain_times, over_plain = [], []
        times = {l: [] for l in LAYOUTS}
        ratios = {l: [] for l in LAYOUTS}
        held, per_batch = {}, {}
        for rnd in range(a.reps):
            base = None
            p = run_plain(plain, a.endgame)
            plain_times.append(p)
            print(f"round {rnd + 1}: plain arrays, sequential: push {p:.2f} s", flush=True)
            for l in LAYOUTS:
                s, h, b = run(binary, a.endgame, *l)
                times[l].append(s)
                if l == (1, 1):
                    base = s
                    over_plain.append(s / p)
                ratios[l].append(base / s)
                held[l] = h
                per_batch.setdefault(l, []).extend(u / max(n, 1) for u, n in b)
                print(f"round {rnd + 1}: {l[0]} x {l[1]}: analysis {s:.2f} s, speedup {base / s:.2f}", flush=True)
        print(f"\n{a.endgame}, {a.reps} rounds (layouts interleaved):")
        print(f"  plain arrays: {statistics.median(plain_times):.2f} s ({min(plain_times):.2f}-{max(plain_times):.2f}); "
              f"1 x 1 on tables / plain, each round: {statistics.median(over_plain):.2f} "
              f"({min(over_plain):.2f}-{max(over_plain):.2f})")
        for l in LAYOUTS:
            t, r = times[l], ratios[l]
            line = (f"  {l[0]} x {l[1]}: {statistics.median(t):.2f} s ({min(t):.2f}-{max(t):.2f}), "
                    f"speedup {statistics.median(r):.2f} ({min(r):.2f}-{max(r):.2f})")
            if per_batch.get(l):
                line += f", updates per batch {min(per_batch[l]):.0f}-{max(per_batch[l]):.0f}"
            print(line)
            for rank, (here, whole, peak) in sorted(held[l].items()):
                print(f"      rank {rank}: table entries {here / 2**20:.1f} MiB of {whole / 2**20:.1f} MiB "
                      f"({here / whole:.2f}), peak memory {peak / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
