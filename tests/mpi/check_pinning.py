#!/usr/bin/env python3
"""The pinning rule for several processes on one machine (runtime.cpp):
each process pins its workers to its own share of the CPUs it may use, in
the order of its rank on the machine, and nobody pins when the shares do
not fit (the OS spreads the threads better then).

Runs `mpi_programs pinning` under mpirun with P processes x W workers, for
every (P, W) given, and checks what each process reports against the rule
computed from this machine's CPUs (the CPUs this script may use).

A config P:W:bound asks mpirun to bind each process to a core of its own
(--bind-to core): each must then pin within its own CPUs, all different.

usage: check_pinning.py MPIEXEC PROGRAM P:W[:bound] [...]
"""
import os
import re
import subprocess
import sys

LINE = re.compile(r"^pinning: rank (\d+) local (\d+) of (\d+) workers (\d+) cpus \[([\d,]*)\]$")


def main():
    mpiexec, prog, configs = sys.argv[1], sys.argv[2], sys.argv[3:]
    cpus = sorted(os.sched_getaffinity(0))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", TASCELL_PIN="1")
    for config in configs:
        parts = config.split(":")
        procs, workers = int(parts[0]), int(parts[1])
        bound = parts[2:] == ["bound"]
        env["TASCELL_WORKERS"] = str(workers)
        # --bind-to none: every process sees all CPUs; the runtime splits them.
        binding = ["--bind-to", "core"] if bound else ["--oversubscribe", "--bind-to", "none"]
        p = subprocess.run([mpiexec] + binding + ["-np", str(procs), "-x",
                            "TASCELL_WORKERS", "-x", "TASCELL_PIN", prog, "pinning"],
                           capture_output=True, text=True, env=env, timeout=120)
        if p.returncode != 0:
            sys.exit("FAILED: %d x %d: the program failed\n%s%s" % (procs, workers, p.stdout, p.stderr))
        seen = {}
        for line in p.stdout.splitlines():
            m = LINE.match(line.strip())
            if m:
                rank, local, size, w = map(int, m.group(1, 2, 3, 4))
                got = [int(c) for c in m.group(5).split(",") if c]
                seen[rank] = (local, size, got)
        if sorted(seen) != list(range(procs)):
            sys.exit("FAILED: %d x %d: reports from ranks %s\n%s" % (procs, workers, sorted(seen), p.stdout))
        pinned = []
        for rank, (local, size, got) in sorted(seen.items()):
            if size != procs:
                sys.exit("FAILED: rank %d sees %d processes on this machine, not %d" % (rank, size, procs))
            want = [got[0]] if bound and len(got) == 1 else rule(cpus, procs, workers, local)
            if got != want:
                sys.exit("FAILED: %d processes x %d workers on CPUs %s: rank %d (local %d) pins to %s, the rule "
                         "says %s" % (procs, workers, cpus, rank, local, got, want))
            pinned += got
        if len(pinned) != len(set(pinned)):
            sys.exit("FAILED: %d x %d: two workers pinned to one CPU: %s" % (procs, workers, pinned))
        print("%d processes x %d workers on CPUs %s: %s" %
              (procs, workers, cpus, "; ".join("rank %d -> %s" % (r, seen[r][2] or "not pinned")
                                              for r in sorted(seen))))


def rule(cpus, procs, workers, local):
    """runtime.cpp, for processes that all see the same CPUs: with several,
    each takes the share at local*workers if all shares fit, else nobody
    pins; nobody pins when one share does not fit."""
    if procs > 1:
        cpus = cpus[workers * local:] if len(cpus) >= workers * procs else []
    if workers > len(cpus):
        return []
    return cpus[:workers]


if __name__ == "__main__":
    main()
