#!/usr/bin/env python3
"""Runs one lang-examples program, already built, with the arguments of its
entry in answers.json and checks its output against the known answer: exit
status 0, every line printed an answer, no sanitizer report.

usage: run_example.py NAME WORKERS [--mpirun MPIEXEC NP] -- PROGRAM
(with --mpirun: NP processes of WORKERS workers each, TASCELL_STATS=1; the
pieces that moved between processes are reported, not required)
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import answers  # noqa: E402

SANITIZER = re.compile(r"(Address|Thread|Leak|Memory|UndefinedBehavior)Sanitizer")


def main():
    argv = sys.argv[1:]
    if "--" not in argv or len(argv) < 4:
        raise SystemExit(__doc__)
    program = argv[argv.index("--") + 1:]
    opts = argv[:argv.index("--")]
    name, workers = opts[0], opts[1]
    args, expected = answers.load()[name]
    cmd = program + args
    env = dict(os.environ, TASCELL_WORKERS=workers)
    where = "%s workers" % workers
    if len(opts) >= 5 and opts[2] == "--mpirun":
        mpiexec, np_ = opts[3], opts[4]
        cmd = [mpiexec, "--oversubscribe", "-np", np_, "-x", "TASCELL_WORKERS=" + workers,
               "-x", "TASCELL_STATS=1"] + cmd
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        where = "%s processes of %s" % (np_, where)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    problem = None
    if p.returncode != 0:
        problem = "exit status %d" % p.returncode
    elif SANITIZER.search(p.stderr) or SANITIZER.search(p.stdout):
        problem = "a sanitizer reported"
    else:
        problem = answers.wrong(p.stdout, expected)
    if problem:
        raise SystemExit("FAILED (%s): %s\n--- stdout\n%s--- stderr\n%s" %
                         (problem, " ".join(cmd), p.stdout, p.stderr[-20000:]))
    moved = sum(int(m) for m in re.findall(r"(\d+) pieces from other processes", p.stderr))
    print("%s %s on %s: %s%s" % (name, " ".join(args), where, " / ".join(expected),
                                 ", %d pieces moved between processes" % moved if "--mpirun" in opts else ""))


if __name__ == "__main__":
    main()
