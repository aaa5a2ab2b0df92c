#!/usr/bin/env python3
"""A program in the attribute spelling survives a formatter: clang-format-19
(LLVM style, includes left in their order) rewrites its whitespace and line
breaks, and the formatted program must translate to the same program
(tascellc's output, #line directives and whitespace aside) and still build
with a plain compiler (g++ -fsyntax-only, with tascell/api.hpp).

usage: formatted.py NAME SOURCE TASCELLC INCLUDE_DIR [MORE_INCLUDE_DIRS...]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

STYLE = "{BasedOnStyle: LLVM, SortIncludes: Never}"


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise SystemExit("FAILED: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return p.stdout


def tokens(cpp):
    """The translation without its #line directives, comments (which
    clang-format reflows) and whitespace, and with string literals that it
    split ("a" "b") joined again."""
    text = "\n".join(l for l in cpp.split("\n") if not l.lstrip().startswith("#line"))
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"\s+", "", text).replace('""', "")


def main():
    if len(sys.argv) < 5:
        raise SystemExit(__doc__)
    name, source, tascellc = sys.argv[1:4]
    includes = [f for d in sys.argv[4:] for f in ("-I", d)]
    formatter = shutil.which("clang-format-19")
    if not formatter:
        raise SystemExit("FAILED: clang-format-19 is not installed (scripts/install-deps.sh installs it)")
    with tempfile.TemporaryDirectory() as tmp:
        plain, formatted = os.path.join(tmp, "plain.cpp"), os.path.join(tmp, "formatted.cpp")
        shutil.copyfile(source, plain)
        with open(formatted, "w") as f:
            f.write(run([formatter, "--style=" + STYLE, plain]))
        before, after = open(plain).read(), open(formatted).read()
        if before == after:
            raise SystemExit("FAILED: clang-format changed nothing in %s (the test would show nothing)" % source)
        translated = [run([tascellc, f, "--"] + includes) for f in (plain, formatted)]
        if tokens(translated[0]) != tokens(translated[1]):
            a, b = tokens(translated[0]), tokens(translated[1])
            k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
            raise SystemExit("FAILED: the formatted program translates differently (first difference near %r / %r)"
                             "\n--- formatted\n%s" % (a[max(0, k - 80):k + 80], b[max(0, k - 80):k + 80], after))
        run(["g++", "-std=c++20", "-fsyntax-only", "-Wall", "-Werror", "-Wno-attributes"] + includes +
            ["-x", "c++", formatted])
        changed = sum(1 for x, y in zip(before.split("\n"), after.split("\n")) if x != y)
        print("%s: clang-format-19 changed %d lines; the same translation, and g++ builds it" % (name, changed))


if __name__ == "__main__":
    main()
