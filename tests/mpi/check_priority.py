#!/usr/bin/env python3
"""The message thread's priority (TASCELL_MSG_PRIORITY, network.cpp).

1. auto: real-time when this system lets the user have it (probed here with
   Python's os.sched_setscheduler), normal otherwise; the statistics line
   of every rank says which, and the answers are right either way.
2. Without the right to real-time priority (root: its CAP_SYS_NICE dropped
   with setpriv; others: their real-time priority limit lowered to 0 with
   prlimit, or as it is when it is 0 already):
   - auto runs at normal priority, with right answers;
   - realtime stops every process within seconds with a message that names
     the rank, the setting and the cause.

usage: check_priority.py MPIEXEC PROGRAM
"""
import os
import re
import subprocess
import sys
import time

LIMIT = 120  # seconds: far above what any run takes; a hang fails here
STATS = re.compile(r"tascell stats: rank (\d+) of \d+: .*; message thread at (real-time|normal) priority")


def realtime_allowed():
    probe = "import os; os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))"
    return subprocess.run([sys.executable, "-c", probe], capture_output=True).returncode == 0


def run(cmd, priority):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               TASCELL_WORKERS="1", TASCELL_STATS="1", TASCELL_MSG_PRIORITY=priority)
    start = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=LIMIT)
    except subprocess.TimeoutExpired:
        raise SystemExit("FAILED: no exit within %d s (a hang): %s" % (LIMIT, " ".join(cmd)))
    return p, time.time() - start


def expect_priority(p, want, what):
    out = p.stdout + p.stderr
    if p.returncode != 0 or "WRONG" in out:
        raise SystemExit("FAILED: %s: exit status %d\n%s" % (what, p.returncode, out))
    ranks = {int(m.group(1)): m.group(2) for m in STATS.finditer(out)}
    if sorted(ranks) != [0, 1] or set(ranks.values()) != {want}:
        raise SystemExit("FAILED: %s: expected every rank at %s priority, the statistics say %s\n%s" %
                         (what, want, ranks, out))
    print("ok: %s: both ranks at %s priority, right answers" % (what, want))


def main():
    mpiexec, program = sys.argv[1:3]
    mpi = [mpiexec, "--oversubscribe", "-np", "2", "-x", "TASCELL_WORKERS", "-x", "TASCELL_STATS",
           "-x", "TASCELL_MSG_PRIORITY"]
    work = [program, "fib", "nqueens", "--repeat", "3"]

    allowed = realtime_allowed()
    p, _ = run(mpi + work, "auto")
    expect_priority(p, "real-time" if allowed else "normal", "auto, real-time %s" %
                    ("allowed" if allowed else "not allowed"))

    # Without the right to real-time priority.
    if not allowed:
        unprivileged = []
    elif os.geteuid() == 0:
        unprivileged = ["setpriv", "--bounding-set=-sys_nice", "--inh-caps=-sys_nice"]
    else:
        unprivileged = ["prlimit", "--rtprio=0"]  # a real-time priority limit (ulimit -r) lowered to 0
    p, _ = run(unprivileged + mpi + work, "auto")
    expect_priority(p, "normal", "auto without the right")

    p, seconds = run(unprivileged + mpi + work, "realtime")
    out = p.stdout + p.stderr
    if p.returncode == 0:
        raise SystemExit("FAILED: TASCELL_MSG_PRIORITY=realtime ran without the right to it\n" + out)
    for needle in ("tascell: rank ", "TASCELL_MSG_PRIORITY=realtime", "Operation not permitted"):
        if needle not in out:
            raise SystemExit("FAILED: the output does not say %r\n%s" % (needle, out))
    print("ok: realtime without the right: exit status %d after %.1f s, naming the rank, the setting "
          "and the cause" % (p.returncode, seconds))


if __name__ == "__main__":
    main()
