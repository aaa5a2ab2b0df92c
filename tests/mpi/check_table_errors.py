#!/usr/bin/env python3
"""Bad uses of a distributed table end the run with a message naming the
table, the index (where there is one) and the rank (tests/mpi/table_programs.cpp
err_* cases, each on 2 processes).

usage: check_table_errors.py MPIEXEC TABLE_PROGRAMS
"""
import re
import subprocess
import sys

CASES = {
    # case: patterns every expected line must match
    "err_range": [r"table 'small' \(#1\): entry 100 is out of range: the table has 100 entries \(rank \d\)"],
    "err_outside": [r"table 'small' \(#1\): entry (99|0) is owned by rank [01]: apply\(\) to another process's entry "
                    r"must run inside a @task"],
    "err_sizes": [r"table 'uneven' \(#1\) differs between processes: rank [01] made it with (50|100) entries"],
    "err_remote": [r"table 'small' \(#1\): entry (99|0) is owned by rank [01]: a process holds only its own entries"],
}


def main():
    mpiexec, prog = sys.argv[1], sys.argv[2]
    failed = 0
    for case, patterns in CASES.items():
        try:
            r = subprocess.run([mpiexec, "--oversubscribe", "-np", "2", prog, case], capture_output=True, text=True,
                               timeout=90)
        except subprocess.TimeoutExpired:
            print(f"{case}: no end within 90 s")
            failed += 1
            continue
        out = r.stdout + r.stderr
        ok = r.returncode != 0
        for p in patterns:
            # Both processes say it (the error travels to every process).
            found = re.findall(p, out)
            if len(found) < 2:
                ok = False
                print(f"{case}: expected 2 lines matching {p!r}, found {len(found)}")
        print(f"{case}: {'ok' if ok else 'FAILED'} (exit {r.returncode})")
        if not ok:
            print(out[-3000:])
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
