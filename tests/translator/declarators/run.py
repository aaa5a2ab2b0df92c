#!/usr/bin/env python3
"""Runs one group of kinds of the declarator matrix (generate.py) end to end.

The program of the group (or of one kind, or of one kind and role) is built with
`tascell++ --serial` (the oracle), then as translated (its functions of
lazy shape lazy) with tascell++ on g++ and on clang++-19, and with --eager
on g++, and every build is run with 1 and 2 workers: each run must print
exactly what the serial build prints. The functions of the `lazy` role must
be lazy in the translation (tascellc writes a resume function for them).
The lazy g++ build also runs on 2 processes of 1 worker (mpirun
--oversubscribe -np 2 -x TASCELL_WORKERS=1): process 0 must print what the
serial build prints, and the other process the same lines (every process
gets a root call's result) but those main prints only in process 0 (after
`if (tascell::is_root())`: a root call's writes to globals are in process 0),
or nothing.

usage: run.py TASCELLXX TASCELLC GROUP
       run.py TASCELLXX TASCELLC KIND [ROLE]
(MPIEXEC in the environment names mpirun, else `mpirun` on the PATH.)
"""
import os
import re
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.dirname(here)]
import generate  # noqa: E402
from e2e import run  # noqa: E402  (a command that must succeed)


MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "TASCELL_WORKERS": "1"}


def across_processes(exe, want):
    """Runs exe on 2 processes; raises SystemExit unless they print what they should."""
    cmd = [os.environ.get("MPIEXEC", "mpirun"), "--oversubscribe", "--tag-output", "-np", "2",
           "-x", "TASCELL_WORKERS=1", exe]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, **MPI_ENV), timeout=300)
    except subprocess.TimeoutExpired:
        raise SystemExit("FAILED (timed out after 300 s): %s" % " ".join(cmd))
    if p.returncode != 0:
        raise SystemExit("FAILED (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr[-4000:]))
    ranks = {0: [], 1: []}
    for line in p.stdout.splitlines():
        m = re.match(r"\[\d+,(\d+)\]<stdout>:(.*)$", line)
        if not m:
            raise SystemExit("FAILED: %s printed a line of no process: %r" % (" ".join(cmd), line))
        ranks[int(m.group(1))].append(m.group(2))
    lines = want.splitlines()
    others = [l for l in lines if not l.startswith("  then")]  # printed by process 0 only
    if ranks[0] != lines or ranks[1] not in ([], others):
        diff = ["%s %-60s %s" % ("==" if a == b else "!=", a, b) for a, b in zip(lines, ranks[0])]
        raise SystemExit("FAILED: %s: process 0 printed (left: the serial build)\n%s\nprocess 1 printed\n%s" %
                         (" ".join(cmd), "\n".join(diff + ranks[0][len(lines):]), "\n".join(ranks[1])))


def main():
    tascellxx, tascellc, name = sys.argv[1:4]
    if name in generate.GROUPS:
        kinds_roles = [(kind, generate.KINDS[kind]["roles"]) for kind in generate.GROUPS[name]]
    else:
        kinds_roles = [(name, sys.argv[4:] or generate.KINDS[name]["roles"])]
    flags = ["-std=c++20", "-O1", "-Wall", "-Wextra", "-Werror"]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, name + ".tcpp")
        with open(src, "w") as f:
            f.write(generate.program_of(kinds_roles))
        serial = os.path.join(tmp, "serial")
        run([tascellxx, "--serial"] + flags + [src, "-o", serial])
        want = run([serial]).stdout
        lazy = [kind for kind, roles in kinds_roles if "lazy" in roles]
        if lazy:
            out = os.path.join(tmp, "translated.cpp")
            run([tascellc, src, "-o", out])
            translated = open(out).read()
            for kind in lazy:
                if "%s_lazy__tascell_resume" % kind not in translated:
                    raise SystemExit("FAILED: %s_lazy is not lazy in the translation" % kind)
        runs = 0
        for mode in [[], ["--eager"]]:
            # Eager code on g++ only: clang++ is for the lazy frames' code
            # (what clang++ alone might refuse), and a fifth build a group
            # cost CI's compile phase about 20 s.
            for cxx in ["g++", "clang++-19"] if not mode else ["g++"]:
                exe = os.path.join(tmp, "prog")
                run([tascellxx] + mode + flags + [src, "-o", exe], env=dict(os.environ, TASCELL_CXX=cxx))
                for workers in ["1", "2"]:
                    got = run([exe], env=dict(os.environ, TASCELL_WORKERS=workers)).stdout
                    if got != want:
                        raise SystemExit("FAILED: %s %s with %s workers printed\n%s\nthe serial build\n%s" %
                                         (cxx, " ".join(mode) or "(lazy)", workers, got, want))
                    runs += 1
                if not mode and cxx == "g++":
                    across_processes(exe, want)
    print("%s: serial, %d parallel runs and 2 processes agree on %s" % (
        name, runs, "; ".join("%s (%s)" % (kind, " ".join(roles)) for kind, roles in kinds_roles)))


if __name__ == "__main__":
    main()
