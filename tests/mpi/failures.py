#!/usr/bin/env python3
"""Failures under mpirun end every process, with a message naming the rank
and the cause, within seconds; never a hang.

usage: failures.py MPIEXEC PROGRAM CASE
  CASE: killed      process 1 of 3 dies (SIGKILL) in the middle of a run
        garbage     process 1 sends process 0 bytes that are not a message
        truncated   process 1 sends process 0 a message cut short
        binaries    process 1 runs a different binary than process 0
        unsendable  a piece bound for another process whose input cannot
                    be serialized (on one process the program is right)
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

LIMIT = 60  # seconds: far above what any case takes; a hang fails here


def descendants(pid):
    """The processes under pid (its children, theirs, ...), from /proc."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            tasks = os.listdir("/proc/%d/task" % p)
        except OSError:
            continue
        for t in tasks:
            try:
                with open("/proc/%d/task/%s/children" % (p, t)) as f:
                    kids = [int(k) for k in f.read().split()]
            except OSError:
                kids = []
            out += kids
            todo += kids
    return out


def run(cmd):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               TASCELL_WORKERS="1")
    start = time.time()
    # mpirun in a process group of its own: a hang ends it and what it
    # started (by PID), nothing else on the machine.
    q = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         start_new_session=True)
    try:
        out, err = q.communicate(timeout=LIMIT)
    except subprocess.TimeoutExpired:
        for pid in descendants(q.pid) + [q.pid]:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            os.killpg(q.pid, signal.SIGKILL)
        except OSError:
            pass
        q.communicate()
        raise SystemExit("FAILED: no exit within %d s (a hang): %s" % (LIMIT, " ".join(cmd)))
    return subprocess.CompletedProcess(cmd, q.returncode, out, err), time.time() - start


def expect(p, seconds, *needles):
    out = p.stdout + p.stderr
    if p.returncode == 0:
        raise SystemExit("FAILED: exit status 0 after a failure\n" + out)
    for n in needles:
        if n not in out:
            raise SystemExit("FAILED: the output does not say %r\n%s" % (n, out))
    print("ok: exit status %d after %.1f s; the output says %s" %
          (p.returncode, seconds, " / ".join(repr(n) for n in needles)))


def main():
    mpiexec, program, case = sys.argv[1:4]
    base = [mpiexec, "--oversubscribe"]
    # Long enough that the failure comes in the middle of the work.
    work = ["fib", "--repeat", "400"]
    if case == "killed":
        p, s = run(base + ["-np", "3", program] + work + ["--die", "1"])
        expect(p, s, "rank 1", "signal 9")
    elif case in ("garbage", "truncated"):
        p, s = run(base + ["-np", "2", program] + work + ["--corrupt", case])
        cause = "bad magic number" if case == "garbage" else "truncated message"
        expect(p, s, "tascell: rank 0: malformed message from rank 1", cause)
    elif case == "binaries":
        with tempfile.TemporaryDirectory() as tmp:
            other = os.path.join(tmp, "other-binary")
            shutil.copy(program, other)
            with open(other, "ab") as f:
                f.write(b"a different build")  # still runs; different bytes
            p, s = run(base + ["-np", "1", program, "fib", "--repeat", "1", ":",
                               "-np", "1", other, "fib", "--repeat", "1"])
            expect(p, s, "rank 1 runs a different binary than rank 0")
    elif case == "unsendable":
        one = subprocess.run([program, "unsendable", "--repeat", "3"], capture_output=True, text=True,
                             env=dict(os.environ, TASCELL_WORKERS="2"), timeout=LIMIT)
        if one.returncode != 0 or "all right" not in one.stdout:
            raise SystemExit("FAILED: unsendable on one process\n" + one.stdout + one.stderr)
        # Through the thief's mailbox (the default between processes of one
        # machine) and by MPI.
        for requests in ("shared", "mpi"):
            p, s = run(base + ["-np", "2", "-x", "TASCELL_NODE_REQUESTS=" + requests, program, "unsendable",
                               "--repeat", "400"])
            expect(p, s, "tascell: rank 0: cannot send the inputs of a piece of dowork",
                   "an unsendable input cannot travel")
    else:
        raise SystemExit("unknown case " + case)


if __name__ == "__main__":
    main()
