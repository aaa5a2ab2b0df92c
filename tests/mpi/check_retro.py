#!/usr/bin/env python3
"""The four-piece endgame on distributed tables (lang-examples/retro.tcpp
KQKR, built from KQK through the captures of the rook): the same tables
and the published longest win (mate in 35) on 1, 2 and 3 processes and on
1, 2 and 4 workers, each run checked in the program against the sequential
push solver.

usage: check_retro.py MPIEXEC TASCELLXX LANG_EXAMPLES_DIR [--binary RETRO]
(--binary: retro as the build made it, tests/examples; else built here
by tascell++ -O2)
"""
import os
import subprocess
import sys
import tempfile

# (1 x 2 left out: 1 x 4 has several workers in a process, more than cores.)
LAYOUTS = [(1, 1), (1, 4), (2, 1), (3, 1), (2, 2)]
WANT = "retro(KQKR): longest mate 35 moves, 8863768 white-to-move wins, 7062680 black-to-move losses; " \
       "sequential push solver agrees"


def main():
    mpiexec, tascellxx, examples = sys.argv[1:4]
    built = sys.argv[sys.argv.index("--binary") + 1] if "--binary" in sys.argv else None
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        binary = built or os.path.join(tmp, "retro")
        if not built:
            subprocess.run([tascellxx, "-O2", os.path.join(examples, "retro.tcpp"), "-o", binary], check=True)
        for procs, workers in LAYOUTS:
            cmd = [mpiexec, "--oversubscribe", "--bind-to", "none", "-np", str(procs), "-x", "TASCELL_WORKERS",
                   binary, "KQKR"]
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                               env=dict(env, TASCELL_WORKERS=str(workers)))
            ok = r.returncode == 0 and WANT in r.stdout
            print(f"KQKR on {procs} x {workers}: {'right' if ok else 'WRONG'}", flush=True)
            if not ok:
                print(r.stdout[-2000:], r.stderr[-2000:])
                failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
