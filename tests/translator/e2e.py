#!/usr/bin/env python3
"""End-to-end test of one .tcpp program.

Builds it three ways: `tascell++ --serial` as a user builds the
sequential program (the oracle), with tascell++ on g++ and with tascell++
on clang++-19 (a program of several files also a fourth: each file's
--serial translation by tascellc, compiled with g++ alone). Runs the
parallel builds with 1, 2 and 4 workers; every run must print exactly what
the serial build prints, and that must contain the known answer.

usage: e2e.py TASCELLXX TASCELLC FILE.tcpp[,MORE.tcpp...] EXPECTED... -- ARGS...
(every EXPECTED text must be in the output)
(several files, separated by commas: one program; each is translated with
its own --header-dir for the user headers with markers it includes)
"""
import os
import subprocess
import sys
import tempfile


def run(cmd, env=None, timeout=600):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    if p.returncode != 0:
        raise SystemExit("FAILED (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr))
    return p


def main():
    tascellxx, tascellc, srcs = sys.argv[1:4]
    srcs = srcs.split(",")
    end = sys.argv.index("--") if "--" in sys.argv else len(sys.argv)
    expected = sys.argv[4:end]
    args = sys.argv[end + 1:]
    flags = ["-O2", "-Wall", "-Wextra", "-Werror"]
    with tempfile.TemporaryDirectory() as tmp:
        # The oracle: the driver's --serial, translated and compiled as the
        # sequential program, linked without the runtime.
        driver_serial = os.path.join(tmp, "driver-serial")
        run([tascellxx, "--serial"] + flags + srcs + ["-o", driver_serial])
        want = run([driver_serial] + args).stdout
        if not expected or any(e not in want for e in expected):
            raise SystemExit("FAILED: the serial program printed %r, expected it to contain %r" % (want, expected))
        # A program of several files: also tascellc --serial, each file with
        # its own --header-dir, and g++ alone (single files take that path
        # in tests/idioms/).
        if len(srcs) > 1:
            serial_cpps = []
            for i, src in enumerate(srcs):
                serial_cpp = os.path.join(tmp, "serial%d.cpp" % i)
                run([tascellc, "--serial", src, "-o", serial_cpp, "--header-dir", os.path.join(tmp, "headers%d" % i)])
                serial_cpps.append(serial_cpp)
            serial = os.path.join(tmp, "serial")
            run(["g++", "-std=c++20"] + flags + serial_cpps + ["-o", serial])
            got = run([serial] + args).stdout
            if got != want:
                raise SystemExit("FAILED: tascellc --serial and g++ printed %r, tascell++ --serial %r" % (got, want))
        runs = 0
        for cxx in ["g++", "clang++-19"]:
            exe = os.path.join(tmp, "prog-" + cxx)
            env = dict(os.environ, TASCELL_CXX=cxx)
            run([tascellxx] + flags + srcs + ["-o", exe], env=env)
            for workers in ["1", "2", "4"]:
                env = dict(os.environ, TASCELL_WORKERS=workers)
                got = run([exe] + args, env=env).stdout
                if got != want:
                    raise SystemExit("FAILED: %s with %s workers printed %r, serial printed %r" % (cxx, workers, got, want))
                runs += 1
    print("%s: serial and %d parallel runs agree: %s" % (",".join(os.path.basename(s) for s in srcs), runs, want.strip()))


if __name__ == "__main__":
    main()
