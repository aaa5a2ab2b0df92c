#!/usr/bin/env python3
"""The tables' checking mode (tests/mpi/table_misuse.tcpp): each of three
mistakes runs silently on one process without it, fails on two processes,
and fails on one process with it, with the same kind of message naming the
table, the index and the owner; the right program passes in the mode.

usage: check_table_misuse.py MPIEXEC TABLE_MISUSE TABLE_MISUSE_DEBUG
(TABLE_MISUSE_DEBUG: the same program compiled without optimisation, where
the mode is on by default)
"""
import os
import re
import subprocess
import sys

MISTAKES = {
    # mistake: what the message says on several processes (and in the mode)
    "read_neighbour": r"table 'dist' \(#1\): entry \d+ is owned by rank \d+ and (this piece of work does not "
                      r"carry it|an iteration of a @dowork for over a table's indices carries only its own entry)",
    "apply_outside": r"table 'dist' \(#1\): entry \d+ is owned by rank \d+.*apply\(\) to another process's entry "
                     r"must run inside a @task",
    "write_unguarded": r"table 'dist' \(#1\): entry \d+ is owned by rank \d+.*a process holds only its own entries",
}
CHECKED = r"found on one process by the tables' checking mode, which plays (\d+) owners"
RIGHT = r"table_misuse \w+: 5040 positions reached, the farthest \d+ turns away; sequential agrees"

failed = 0


def run(what, cmd, env_extra, want_ok, patterns, forbid=()):
    global failed
    env = dict(os.environ, **env_extra)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    except subprocess.TimeoutExpired:
        print(f"{what}: no end within 120 s: FAILED")
        failed += 1
        return
    out = r.stdout + r.stderr
    ok = (r.returncode == 0) == want_ok
    for p in patterns:
        if not re.search(p, out):
            print(f"{what}: expected {p!r}")
            ok = False
    for p in forbid:
        if re.search(p, out):
            print(f"{what}: did not expect {p!r}")
            ok = False
    print(f"{what}: {'ok' if ok else 'FAILED'} (exit {r.returncode})")
    if not ok:
        print(out[-3000:])
        failed += 1


def main():
    mpiexec, prog, debug = sys.argv[1], sys.argv[2], sys.argv[3]
    one = {"TASCELL_MPI": "0"}
    for mistake, message in MISTAKES.items():
        # Silent on one process without the mode: the reason for it.
        run(f"{mistake}, 1 process, mode off", [prog, mistake], dict(one, TASCELL_TABLE_CHECK="off"), True,
            [RIGHT])
        # An error on two processes.
        run(f"{mistake}, 2 processes", [mpiexec, "--oversubscribe", "-np", "2", prog, mistake], {}, False,
            [message], [CHECKED])
        # The same error on one process in the mode: set, with 1 and 2
        # workers, and by default in the build without optimisation.
        for workers in ("1", "2"):
            run(f"{mistake}, 1 process x {workers} workers, TASCELL_TABLE_CHECK=3", [prog, mistake],
                dict(one, TASCELL_TABLE_CHECK="3", TASCELL_WORKERS=workers), False, [message, CHECKED])
        run(f"{mistake}, 1 process, -O0 build (the mode by default)", [debug, mistake], one, False,
            [message, CHECKED.replace(r"(\d+)", "3")])
    # The right program: the mode reports nothing, with 1, 2 and 3 workers
    # and 2 to 5 owners; and on 2 processes.
    for workers in ("1", "2", "3"):
        for owners in ("2", "3", "5"):
            run(f"right, 1 process x {workers} workers, {owners} owners", [prog, "right"],
                dict(one, TASCELL_TABLE_CHECK=owners, TASCELL_WORKERS=workers), True, [RIGHT])
    run("right, -O0 build", [debug, "right"], one, True, [RIGHT])
    run("right, 2 processes", [mpiexec, "--oversubscribe", "-np", "2", prog, "right"], {}, True, [RIGHT])
    # A bad value of the setting is named.
    run("TASCELL_TABLE_CHECK=1", [prog, "right"], dict(one, TASCELL_TABLE_CHECK="1"), False,
        [r'bad setting TASCELL_TABLE_CHECK="1"'])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
