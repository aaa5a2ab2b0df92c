#!/usr/bin/env python3
"""Golden test: the translator's output for FILE.tcpp must equal FILE.expected.cpp
(and with --serial, FILE.serial.expected.cpp). With --update, writes them.

Each expected output must also compile (g++ -fsyntax-only -Wall -Wextra
-Werror, with the runtime headers given by --include DIR).

usage: check_golden.py TASCELLC FILE.tcpp [--include DIR] [--update]
"""
import difflib
import os
import subprocess
import sys


def main():
    tascellc, src = os.path.abspath(sys.argv[1]), sys.argv[2]
    update = "--update" in sys.argv
    base = src[: -len(".tcpp")]
    status = 0
    for mode, suffix in [([], ".expected.cpp"), (["--serial"], ".serial.expected.cpp")]:
        # Run from the file's folder so #line names the file as the tests do.
        p = subprocess.run([tascellc] + mode + [os.path.basename(src)], capture_output=True, text=True,
                           cwd=os.path.dirname(os.path.abspath(src)), timeout=120)
        if p.returncode != 0:
            print("%s %s: translator failed (%d)\n%s" % (src, " ".join(mode), p.returncode, p.stderr))
            return 1
        path = base + suffix
        if update:
            open(path, "w").write(p.stdout)
            continue
        want = open(path).read()
        if "--include" in sys.argv:
            inc = sys.argv[sys.argv.index("--include") + 1]
            c = subprocess.run(["g++", "-std=c++20", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-I", inc,
                                "-x", "c++", "-"], input=want, capture_output=True, text=True, timeout=120)
            if c.returncode != 0:
                status = 1
                print("%s does not compile:\n%s" % (path, c.stderr))
        if p.stdout != want:
            status = 1
            sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), p.stdout.splitlines(True), path, "output"))
    if status == 0 and not update:
        print("%s: output as expected (parallel and serial)" % src)
    return status


if __name__ == "__main__":
    sys.exit(main())
