#!/usr/bin/env python3
"""Requests between processes on one machine (TASCELL_NODE_REQUESTS,
runtime/src/net/shared_requests.hpp).

1. shared (the default): every rank's statistics line says that requests on
   this machine go through shared memory, the processes post requests that
   way (their count over all root calls is above 0: fib on 2 and 3
   processes cannot finish without stealing between them), and the answers
   are right.
2. mpi: no rank says so, every rank posts 0 requests that way, and the
   answers are right.
   Pieces come back through the thief's mailbox and their results through
   the victim's ring (some of each).
3. Settings that differ between the processes of the machine (rank 0 mpi,
   rank 1 shared): they agree on MPI instead of waiting for each other,
   rank 1 says why, and the answers are right.

usage: check_node_requests.py MPIEXEC PROGRAM
"""
import os
import re
import subprocess
import sys

LIMIT = 120  # seconds: far above what any run takes; a hang fails here
LINE = re.compile(r"tascell stats: rank (\d+) of (\d+): .*, (\d+) requests posted through shared memory([^\n]*)")
BY_WORKERS = re.compile(r"^ \((\d+) by idle workers\), (\d+) pieces put in thieves' mailboxes, (\d+) results put in "
                        r"victims' rings")


def run(mpiexec, program, np_, workers, path):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               TASCELL_WORKERS=str(workers), TASCELL_STATS="1", TASCELL_NODE_REQUESTS=path)
    cmd = [mpiexec, "--oversubscribe", "-np", str(np_), "-x", "TASCELL_WORKERS", "-x", "TASCELL_STATS",
           "-x", "TASCELL_NODE_REQUESTS", program, "fib", "nqueens", "--repeat", "5"]
    what = "%d processes x %d workers, TASCELL_NODE_REQUESTS=%s" % (np_, workers, path)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=LIMIT)
    except subprocess.TimeoutExpired:
        raise SystemExit("FAILED: %s: no exit within %d s (a hang)" % (what, LIMIT))
    out = p.stdout + p.stderr
    if p.returncode != 0 or "WRONG" in out:
        raise SystemExit("FAILED: %s: exit status %d\n%s" % (what, p.returncode, out))
    posted, shared, by_workers, mailed, results = {}, {}, {}, {}, {}
    for m in LINE.finditer(out):
        rank = int(m.group(1))
        posted[rank] = posted.get(rank, 0) + int(m.group(3))
        shared.setdefault(rank, set()).add("through shared memory" in m.group(4))
        w = BY_WORKERS.match(m.group(4))
        if not w:
            raise SystemExit("FAILED: %s: no count of requests posted by idle workers in\n%s" % (what, m.group(0)))
        by_workers[rank] = by_workers.get(rank, 0) + int(w.group(1))
        mailed[rank] = mailed.get(rank, 0) + int(w.group(2))
        results[rank] = results.get(rank, 0) + int(w.group(3))
        if int(w.group(1)) > int(m.group(3)):
            raise SystemExit("FAILED: %s: more requests posted by workers than posted at all\n%s" % (what, m.group(0)))
    if sorted(posted) != list(range(np_)):
        raise SystemExit("FAILED: %s: statistics lines from ranks %s\n%s" % (what, sorted(posted), out))
    return what, posted, shared, by_workers, mailed, results, out


def mixed(mpiexec, program):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    app = ["-x", "TASCELL_WORKERS=1", "-x", "TASCELL_STATS=1"]
    cmd = ([mpiexec, "--oversubscribe", "-np", "1"] + app + ["-x", "TASCELL_NODE_REQUESTS=mpi", program, "fib",
                                                            "--repeat", "3", ":", "-np", "1"] +
           app + ["-x", "TASCELL_NODE_REQUESTS=shared", program, "fib", "--repeat", "3"])
    what = "rank 0 TASCELL_NODE_REQUESTS=mpi, rank 1 shared"
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=LIMIT)
    except subprocess.TimeoutExpired:
        raise SystemExit("FAILED: %s: no exit within %d s (a hang)" % (what, LIMIT))
    out = p.stdout + p.stderr
    if p.returncode != 0 or "WRONG" in out or "all right" not in out:
        raise SystemExit("FAILED: %s: exit status %d\n%s" % (what, p.returncode, out))
    if "rank 1: requests from this machine go by MPI: not every process" not in out:
        raise SystemExit("FAILED: %s: rank 1 does not say why its requests go by MPI\n%s" % (what, out))
    if any(int(m.group(3)) for m in LINE.finditer(out)) or "; requests on this machine through shared memory" in out:
        raise SystemExit("FAILED: %s: a rank posted through shared memory\n%s" % (what, out))
    print("ok: %s: both by MPI, rank 1 says why, right answers" % what)


def main():
    mpiexec, program = sys.argv[1:3]
    mixed(mpiexec, program)
    for np_, workers in [(2, 1), (3, 2)]:
        what, posted, shared, by_workers, mailed, results, out = run(mpiexec, program, np_, workers, "shared")
        if any(s != {True} for s in shared.values()) or sum(posted.values()) == 0:
            raise SystemExit("FAILED: %s: expected every rank to use shared memory and some requests posted "
                             "that way; posted %s, says shared memory %s\n%s" % (what, posted, shared, out))
        # An idle worker posts its process's request itself when its message
        # thread has armed one and is asleep: over 5 root calls of each
        # program that happens (a run where every request was posted by an
        # awake message thread would mean the workers never post).
        if sum(by_workers.values()) == 0:
            raise SystemExit("FAILED: %s: no request was posted by an idle worker itself; posted %s\n%s" %
                             (what, posted, out))
        # A piece answering a posted request goes back through the thief's
        # mailbox (shared_requests.hpp) unless the mailbox is busy or the
        # piece too large: some do in 5 root calls of each program.
        if sum(mailed.values()) == 0:
            raise SystemExit("FAILED: %s: no piece went through a thief's mailbox; posted %s\n%s" % (what, posted, out))
        # Its result goes back through the victim's ring unless the ring is
        # full or the piece was stopped, cancelled or failed.
        if sum(results.values()) == 0:
            raise SystemExit("FAILED: %s: no result went through a victim's ring; mailed %s\n%s" % (what, mailed, out))
        print("ok: %s: %d requests posted through shared memory (by rank: %s; by idle workers: %s), "
              "%d pieces through mailboxes (by rank: %s), %d results through rings (by rank: %s), right answers" %
              (what, sum(posted.values()), posted, by_workers, sum(mailed.values()), mailed, sum(results.values()),
               results))
        what, posted, shared, by_workers, mailed, results, out = run(mpiexec, program, np_, workers, "mpi")
        if (any(s != {False} for s in shared.values()) or sum(posted.values()) != 0 or sum(by_workers.values())
                or sum(mailed.values()) or sum(results.values())):
            raise SystemExit("FAILED: %s: expected no rank to use shared memory; posted %s, mailed %s, says "
                             "shared memory %s\n%s" % (what, posted, mailed, shared, out))
        print("ok: %s: every request by MPI, right answers" % what)


if __name__ == "__main__":
    main()
