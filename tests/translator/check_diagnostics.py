#!/usr/bin/env python3
"""Checks the translator's errors on a wrong program.

The expected diagnostics are written right under the line they are about:
    // expect-error@-N:COL: message      (the error is N lines above, at COL)
    // expect-note@-N:COL: message
The translator must exit with status 1 (not crash), write no output, and
print exactly those diagnostics (no more, no fewer), each followed by the
source line and a caret under its column.

usage: check_diagnostics.py TASCELLC FILE.tcpp
"""
import os
import re
import subprocess
import sys
import tempfile

EXPECT = re.compile(r"//\s*expect-(error|note)@-(\d+):(\d+):\s*(.*?)\s*$")


def main():
    tascellc, path = os.path.abspath(sys.argv[1]), sys.argv[2]
    lines = open(path, encoding="utf-8").read().split("\n")
    expected = set()
    for i, line in enumerate(lines, start=1):
        m = EXPECT.search(line)
        if m:
            expected.add((m.group(1), i - int(m.group(2)), int(m.group(3)), m.group(4)))
    if not expected:
        print("%s: no expect- annotations" % path)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.cpp")
        p = subprocess.run([tascellc, path, "-o", out], capture_output=True, text=True, timeout=120)
        wrote = os.path.exists(out)
    failures = []
    if p.returncode != 1:
        failures.append("exit status %d, expected 1" % p.returncode)
    if wrote:
        failures.append("the translator wrote output for a wrong program")
    diag = re.compile(r"^%s:(\d+):(\d+): (error|note): (.*)$" % re.escape(path))
    actual = set()
    err = p.stderr.split("\n")
    for k, line in enumerate(err):
        m = diag.match(line)
        if not m:
            continue
        ln, col, kind, msg = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
        actual.add((kind, ln, col, msg))
        # The source line and a caret under the column follow.
        src = lines[ln - 1] if 0 < ln <= len(lines) else None
        if k + 2 >= len(err) or err[k + 1] != src or err[k + 2].index("^") != col - 1:
            failures.append("no source line and caret under %s:%d:%d" % (kind, ln, col))
    for e in sorted(expected - actual):
        failures.append("missing   %s %d:%d: %s" % e)
    for a in sorted(actual - expected):
        failures.append("unexpected %s %d:%d: %s" % a)
    if failures:
        print("%s:" % path)
        for f in failures:
            print("  " + f)
        print("--- translator's stderr ---\n" + p.stderr)
        return 1
    print("%s: %d diagnostics as expected" % (path, len(expected)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
