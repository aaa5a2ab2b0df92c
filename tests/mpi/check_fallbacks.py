#!/usr/bin/env python3
"""Pieces and results too large for shared memory go by MPI, beside small
ones that do not (mpi_programs bulky; shared_requests.hpp).

Between processes of one machine, a piece answering a posted request goes
through the thief's mailbox (16 KiB) and a result (of any piece) through
the victim's ring (entries of 252 bytes); what does not fit goes by MPI
instead (victim_mail::mail_piece, received_pieces::mail_result). `bulky`
sends pieces of every size, from 64 bytes to hundreds of KiB, and results
of every size (a third of its runs with results too large for any ring
entry). On each layout every answer must be right, and the runs'
TASCELL_STATS lines must show all four paths taken: pieces mailed and
pieces sent by MPI, results put in rings and results sent by MPI.

usage: check_fallbacks.py MPIEXEC MPI_PROGRAMS
"""
import os
import re
import signal
import subprocess
import sys

LAYOUTS = [(2, 1), (3, 1), (2, 2)]
STATS = re.compile(r"tascell stats: rank (\d+) of \d+: .*?, (\d+) pieces put in thieves' mailboxes, (\d+) results put "
                   r"in victims' rings, (\d+) pieces sent \(\d+ bytes of inputs\), (\d+) results sent")


def main():
    mpiexec, program = sys.argv[1:3]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    failed = []
    for procs, workers in LAYOUTS:
        what = "%d x %d" % (procs, workers)
        cmd = [mpiexec, "--oversubscribe", "-np", str(procs), "-x", "TASCELL_WORKERS=%d" % workers, "-x",
               "TASCELL_STATS=1", program, "bulky", "--repeat", "15"]
        # In a process group of its own, which a timeout ends: only what
        # this run started.
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                             start_new_session=True)
        try:
            stdout, stderr = p.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            failed.append("%s: no end within 300 s" % what)
            continue
        out = stdout + stderr
        if p.returncode != 0 or "bulky: 15 runs" not in out or "all right" not in out:
            failed.append("%s: exit %d, answers not all right\n%s" % (what, p.returncode, out[-3000:]))
            continue
        # Summed over the processes and root calls ("sent" counts both
        # ways).
        mailed = rung = pieces = results = 0
        for m in STATS.finditer(out):
            mailed += int(m.group(2))
            rung += int(m.group(3))
            pieces += int(m.group(4))
            results += int(m.group(5))
        paths = {"pieces through mailboxes": mailed, "pieces by MPI": pieces - mailed,
                 "results through rings": rung, "results by MPI": results - rung}
        print("%s: answers right; %s" % (what, ", ".join("%d %s" % (v, k) for k, v in paths.items())), flush=True)
        missing = [k for k, v in paths.items() if v <= 0]
        if missing:
            failed.append("%s: no %s\n%s" % (what, " and no ".join(missing), out[-3000:]))
    if failed:
        raise SystemExit("FAILED:\n" + "\n".join(failed))
    print("every layout right, each path between processes taken")


if __name__ == "__main__":
    main()
