#!/usr/bin/env python3
"""One program of the idiom suite, against its sequential build.

The oracle is the program's --serial translation compiled by g++ alone,
which must print exactly FILE.expected (its known answer, beside it). The
parallel program, built with tascell++ (or given: a sanitizer build made by
CMake, which is compared with FILE.expected without building the oracle
again), must print exactly that on every run:
1, 2 and 4 workers, and 2 and 3 processes of 1 worker under mpirun
(release), or 2 workers and 2 processes (--exe, sanitizer builds). Under
mpirun every process prints the line, or process 0 alone (a program whose
answer is a root call's effect on its arguments or on globals, which happen
in process 0).

usage: run_idiom.py TASCELLXX TASCELLC MPIEXEC FILE.tcpp [--exe EXE]
       run_idiom.py --write-expected TASCELLC FILE.tcpp
         (writes FILE.expected from the oracle)
       run_idiom.py --refused TASCELLC FILE.tcpp NAME LINE
         (the translator must refuse FILE: exit 1, no output, an error that
         names NAME at LINE)
"""
import os
import subprocess
import sys
import tempfile

MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def run(cmd, env=None, timeout=300):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise SystemExit("FAILED (timed out after %d s): %s" % (timeout, " ".join(cmd)))
    if p.returncode != 0:
        raise SystemExit("FAILED (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr[-4000:]))
    return p


def refused(tascellc, src, name, line):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.cpp")
        p = subprocess.run([tascellc, src, "-o", out], capture_output=True, text=True, timeout=120)
        where = "%s:%s:" % (os.path.basename(src), line)
        if p.returncode != 1 or os.path.exists(out):
            raise SystemExit("FAILED: the translator accepted %s (exit %d)\n%s" % (src, p.returncode, p.stderr))
        if not any(where in l and "error:" in l and "'%s'" % name in l for l in p.stderr.splitlines()):
            raise SystemExit("FAILED: no error naming '%s' at %s\n%s" % (name, where, p.stderr))
    print("%s: refused at line %s, naming '%s'" % (os.path.basename(src), line, name))


def oracle(tascellc, src, tmp):
    """What the sequential program prints."""
    serial_cpp = os.path.join(tmp, "serial.cpp")
    run([tascellc, "--serial", src, "-o", serial_cpp])
    serial = os.path.join(tmp, "serial")
    run(["g++", "-std=c++20", "-O1", "-Wall", "-Wextra", "-Werror", serial_cpp, "-o", serial])
    out = run([serial]).stdout
    if not out.strip():
        raise SystemExit("FAILED: the sequential program printed nothing")
    return out


def main():
    if sys.argv[1] == "--refused":
        refused(*sys.argv[2:6])
        return
    if sys.argv[1] == "--write-expected":
        with tempfile.TemporaryDirectory() as tmp:
            out = oracle(sys.argv[2], sys.argv[3], tmp)
        open(os.path.splitext(sys.argv[3])[0] + ".expected", "w").write(out)
        return
    tascellxx, tascellc, mpiexec, src = sys.argv[1:5]
    exe = sys.argv[sys.argv.index("--exe") + 1] if "--exe" in sys.argv else None
    name = os.path.splitext(os.path.basename(src))[0]
    expected_file = os.path.splitext(src)[0] + ".expected"
    if not os.path.exists(expected_file):
        raise SystemExit("FAILED: no %s (run_idiom.py --write-expected TASCELLC %s)" % (expected_file, src))
    want = open(expected_file).read()
    with tempfile.TemporaryDirectory() as tmp:
        if exe is None:
            got = oracle(tascellc, src, tmp)
            if got != want:
                raise SystemExit("FAILED: the sequential program printed %r, %s says %r" % (got, expected_file, want))
            exe = os.path.join(tmp, name)
            run([tascellxx, "-O1", "-Wall", "-Wextra", "-Werror", src, "-o", exe])
            workers, processes = ["1", "2", "4"], ["2", "3"]
        else:
            workers, processes = ["2"], ["2"]
        runs = []
        for w in workers:
            got = run([exe], env=dict(os.environ, TASCELL_WORKERS=w)).stdout
            if got != want:
                raise SystemExit("FAILED: %d workers printed %r, the sequential program %r" % (int(w), got, want))
            runs.append("%s workers" % w)
        moved = 0
        for np_ in processes:
            cmd = [mpiexec, "--oversubscribe", "-np", np_, "-x", "TASCELL_WORKERS=1", "-x", "TASCELL_STATS=1", exe]
            p = run(cmd, env=dict(os.environ, **MPI_ENV))
            lines = [l for l in p.stdout.splitlines() if l.strip()]
            # Every process runs main and prints what the root call returned,
            # or only process 0 prints (a root call's effects are there).
            if len(lines) not in (1, int(np_)) or any(l + "\n" != want for l in lines):
                raise SystemExit("FAILED: %s printed %r, the sequential program %r" % (" ".join(cmd), p.stdout, want))
            for l in p.stderr.splitlines():
                if "pieces from other processes" in l:
                    moved += int(l.split(" pieces from other processes")[0].rsplit(" ", 1)[1])
            runs.append("%s processes" % np_)
    print("%s: %s agree with the sequential program (%d pieces moved between processes): %s"
          % (name, ", ".join(runs), moved, want.strip()))


if __name__ == "__main__":
    main()
