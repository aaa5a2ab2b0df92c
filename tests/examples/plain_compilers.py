#!/usr/bin/env python3
"""A lang-examples program in the attribute spelling, built by plain
compilers without the translator, must be its sequential program: for each
of g++ and clang++-19 (each where installed; g++ must be), compile it with
-std=c++20 -O2 -Wall -Werror, the flag that silences the tascell::
attributes, and the runtime's include directory (for tascell/api.hpp), run
it, and check its output against the known answer (answers.json).

usage: plain_compilers.py NAME SOURCE INCLUDE_DIR [MORE_INCLUDE_DIRS...] [--link LIBRARY...]
(SOURCE is compiled as C++ whatever its name: a converted .tcpp file too;
--link: what a program that saves or loads tables links, the runtime's
library for the file format and zstd, LZ4 and xxHash)
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import answers  # noqa: E402

# Each compiler and the flags that keep it quiet about the tascell::
# attributes (docs/language.md, "The attribute spelling"): -Wno-attributes
# for both (GCC 12's -Wno-attributes=tascell:: quiets them on declarations
# but not on statements: "attributes at the beginning of statement are
# ignored").
COMPILERS = [("g++", ["-Wno-attributes"], True),
             ("clang++-19", ["-Wno-attributes",
                             # a constant only a clause reads (lu's cutoff) is unused to a plain compiler
                             "-Wno-unused-const-variable"], False)]


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    argv = sys.argv[1:]
    link = argv[argv.index("--link") + 1:] if "--link" in argv else []
    argv = argv[:argv.index("--link")] if "--link" in argv else argv
    name, source = argv[:2]
    includes = [f for d in argv[2:] for f in ("-I", d)]
    args, expected = answers.load()[name]
    built = 0
    with tempfile.TemporaryDirectory() as tmp:
        for cxx, quiet, required in COMPILERS:
            if not shutil.which(cxx):
                if required:
                    raise SystemExit("FAILED: %s is not installed" % cxx)
                print("%s: not installed, skipped" % cxx)
                continue
            exe = os.path.join(tmp, "%s-%s" % (name, cxx))
            cmd = [cxx, "-std=c++20", "-O2", "-Wall", "-Werror"] + quiet + includes + ["-o", exe, "-x", "c++", source] + (["-x", "none"] + link if link else [])
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                raise SystemExit("FAILED to compile: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
            p = subprocess.run([exe] + args, capture_output=True, text=True, timeout=600)
            problem = "exit status %d" % p.returncode if p.returncode != 0 else answers.wrong(p.stdout, expected)
            if problem:
                raise SystemExit("FAILED (%s): %s built by %s\n--- stdout\n%s--- stderr\n%s" %
                                 (problem, name, cxx, p.stdout, p.stderr))
            print("%s by %s, no translator: %s" % (name, cxx, " / ".join(expected)))
            built += 1
    if built == 0:
        raise SystemExit("FAILED: no compiler built it")


if __name__ == "__main__":
    main()
