#!/usr/bin/env python3
"""Runs one group of kinds of the declarator matrix (generate.py) end to end.

The program of the group (or of one kind, or of one kind and role) is built with
`tascell++ --serial` (the oracle), then as translated (its functions of
lazy shape lazy) and with --eager, each with tascell++ on g++ and on
clang++-19, and every build is run with 1 and 2 workers: each run must print
exactly what the serial build prints. The functions of the `lazy` role must
be lazy in the translation (tascellc writes a resume function for them).

usage: run.py TASCELLXX TASCELLC GROUP
       run.py TASCELLXX TASCELLC KIND [ROLE]
"""
import os
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.dirname(here)]
import generate  # noqa: E402
from e2e import run  # noqa: E402  (a command that must succeed)


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
            for cxx in ["g++", "clang++-19"]:
                exe = os.path.join(tmp, "prog")
                run([tascellxx] + mode + flags + [src, "-o", exe], env=dict(os.environ, TASCELL_CXX=cxx))
                for workers in ["1", "2"]:
                    got = run([exe], env=dict(os.environ, TASCELL_WORKERS=workers)).stdout
                    if got != want:
                        raise SystemExit("FAILED: %s %s with %s workers printed\n%s\nthe serial build\n%s" %
                                         (cxx, " ".join(mode) or "(lazy)", workers, got, want))
                    runs += 1
    print("%s: serial and %d parallel runs agree on %s" % (
        name, runs, "; ".join("%s (%s)" % (kind, " ".join(roles)) for kind, roles in kinds_roles)))


if __name__ == "__main__":
    main()
