#!/usr/bin/env python3
"""Known-answer test of one .tcpp program at its published sizes and answers.

Builds the program once with tascell++ on g++ (-O2) and runs it with
2 workers for each pair of arguments and expected text; every run must
succeed and print the expected text (the known answer).

usage: known_answer.py TASCELLXX FILE.tcpp ARGS EXPECTED [ARGS EXPECTED ...]
ARGS is one string of space-separated arguments.
"""
import os
import subprocess
import sys
import tempfile
import time


def run(cmd, env=None, timeout=600):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise SystemExit("FAILED (timeout after %ds): %s" % (timeout, " ".join(cmd)))
    if p.returncode != 0:
        raise SystemExit("FAILED (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr))
    return p


def main():
    if len(sys.argv) < 5 or len(sys.argv) % 2 != 1:
        raise SystemExit(__doc__)
    tascellxx, src = sys.argv[1:3]
    cases = list(zip(sys.argv[3::2], sys.argv[4::2]))
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "prog")
        env = dict(os.environ, TASCELL_CXX="g++")
        run([tascellxx, "-O2", "-Wall", "-Wextra", "-Werror", src, "-o", exe], env=env)
        env = dict(os.environ, TASCELL_WORKERS="2")
        for args, expected in cases:
            start = time.monotonic()
            got = run([exe] + args.split(), env=env).stdout
            if expected not in got:
                raise SystemExit("FAILED: %s %s with 2 workers printed %r, expected it to contain %r"
                                 % (os.path.basename(src), args, got, expected))
            print("%s %s: %s (%.2fs)" % (os.path.basename(src), args, expected, time.monotonic() - start))


if __name__ == "__main__":
    main()
