#!/usr/bin/env python3
"""lang-examples, and test programs of tests/translator/programs, under
mpirun: built with tascell++, run with 2 and 3 processes of 1 worker each;
every line printed must be a known answer (tests/examples/answers.json;
each process prints it unless the program prints on rank 0 only), and
pieces of work must have moved between processes (TASCELL_STATS).
The lazy loops also run with 2 workers a process, and with
TASCELL_WAIT=suspend: a request that only a rebuilt lazy frame can serve is
held while other workers and the message thread claim, withdraw and steal
back; lazy frames must have unwound for requests in each of those runs.

usage: examples.py MPIEXEC TASCELLXX EXAMPLES_DIR [PROGRAMS_DIR] [--built DIR]
--built DIR: the lang-examples as the build made them (DIR/example-NAME,
tests/examples), instead of building each here again; the programs of
PROGRAMS_DIR are still built here, by tascell++ -O2.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import answers  # noqa: E402  (tests/examples/answers.json: the arguments and known answers)

EXAMPLES = ["fib", "nqueens", "knapsack", "first", "game", "tsp", "uts", "retro", "puzzle", "tak", "align"]

# Of tests/translator/programs: lazy loops (break, continue, if(), winds)
# whose rebuilt frames give pieces that travel.
PROGRAM_CASES = [
    ("lazy_loops", ["9", "10"],
     ["lazy_loops(9, 10): orders 975168, painted 1724087, tree 78732, firsts 218935738, "
     "flat 531441 with no unwinding, spread 419904, sequential agrees"]),
]


# (processes, workers a process, TASCELL_WAIT or None for the default)
LAYOUTS = [("2", "1", None), ("3", "1", None)]
LAZY_LAYOUTS = LAYOUTS + [("2", "2", None), ("3", "2", None), ("2", "2", "suspend"), ("3", "1", "suspend")]


def main():
    argv = sys.argv[1:]
    built = None
    if "--built" in argv:
        at = argv.index("--built")
        built = argv[at + 1]
        del argv[at:at + 2]
    mpiexec, tascellxx, examples = argv[:3]
    known = answers.load()
    cases = [(os.path.join(examples, name + ".tcpp"), name) + known[name] + (LAYOUTS,) for name in EXAMPLES]
    if len(argv) > 3:
        cases += [(os.path.join(argv[3], name + ".tcpp"), name, args, expected, LAZY_LAYOUTS)
                  for name, args, expected in PROGRAM_CASES]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    moved_total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for source, name, args, expected, layouts in cases:
            if built and name in EXAMPLES:
                exe = os.path.join(built, "example-" + name)
                if not os.path.exists(exe):
                    raise SystemExit("FAILED: --built %s has no example-%s" % (built, name))
            else:
                exe = os.path.join(tmp, name)
                subprocess.run([tascellxx, "-O2", source, "-o", exe], check=True, env=env)
            for np_, workers, wait in layouts:
                cmd = [mpiexec, "--oversubscribe", "-np", np_, "-x", "TASCELL_WORKERS=" + workers, "-x",
                       "TASCELL_STATS=1"] + (["-x", "TASCELL_WAIT=" + wait] if wait else []) + [exe] + args
                p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
                lines = [l for l in p.stdout.splitlines() if l.strip()]
                if p.returncode != 0 or answers.wrong(p.stdout, expected):
                    raise SystemExit("FAILED: %s\nexit %d\n%s%s" % (" ".join(cmd), p.returncode,
                                                                   p.stdout, p.stderr[-3000:]))
                moved = sum(int(m) for m in re.findall(r"(\d+) pieces from other processes", p.stderr))
                unwinds = sum(int(m) for m in re.findall(r"(\d+) requests made them unwind", p.stderr))
                moved_total += moved
                if layouts is LAZY_LAYOUTS and (workers != "1" or wait) and unwinds == 0:
                    raise SystemExit("FAILED: %s: no lazy frame unwound for a request (%s)" % (name, " ".join(cmd)))
                print("%s %s, %s processes x %s workers%s: %d lines right, %d pieces moved between processes, "
                      "%d lazy unwinds" % (name, " ".join(args), np_, workers, ", " + wait if wait else "",
                                           len(lines), moved, unwinds))
    if moved_total == 0:
        raise SystemExit("FAILED: no piece of work ever moved between processes")


if __name__ == "__main__":
    main()
