#!/usr/bin/env python3
"""lang-examples, and test programs of tests/translator/programs, under
mpirun: built with tascell++, run with 2 and 3 processes of 1 worker each;
every line printed must be a known answer (tests/examples/answers.json;
each process prints it unless the program prints on rank 0 only), and
pieces of work must have moved between processes (TASCELL_STATS).

usage: examples.py MPIEXEC TASCELLXX EXAMPLES_DIR [PROGRAMS_DIR]
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


def main():
    mpiexec, tascellxx, examples = sys.argv[1:4]
    known = answers.load()
    cases = [(os.path.join(examples, name + ".tcpp"), name) + known[name] for name in EXAMPLES]
    if len(sys.argv) > 4:
        cases += [(os.path.join(sys.argv[4], name + ".tcpp"), name, args, expected)
                  for name, args, expected in PROGRAM_CASES]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    moved_total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for source, name, args, expected in cases:
            exe = os.path.join(tmp, name)
            subprocess.run([tascellxx, "-O2", source, "-o", exe], check=True, env=env)
            for np_ in ("2", "3"):
                cmd = [mpiexec, "--oversubscribe", "-np", np_, "-x", "TASCELL_WORKERS=1", "-x",
                       "TASCELL_STATS=1", exe] + args
                p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
                lines = [l for l in p.stdout.splitlines() if l.strip()]
                if p.returncode != 0 or answers.wrong(p.stdout, expected):
                    raise SystemExit("FAILED: %s\nexit %d\n%s%s" % (" ".join(cmd), p.returncode,
                                                                   p.stdout, p.stderr[-3000:]))
                moved = sum(int(m) for m in re.findall(r"(\d+) pieces from other processes", p.stderr))
                moved_total += moved
                print("%s %s, %s processes: %d lines right, %d pieces moved between processes" %
                      (name, " ".join(args), np_, len(lines), moved))
    if moved_total == 0:
        raise SystemExit("FAILED: no piece of work ever moved between processes")


if __name__ == "__main__":
    main()
