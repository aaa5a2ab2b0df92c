#!/usr/bin/env python3
"""Checks the translator's errors on a wrong program.

The expected diagnostics are written right under the line they are about:
    // expect-error@-N:COL: message      (the error is N lines above, at COL)
    // expect-note@-N:COL: message
The translator must exit with status 1 (not crash), write no output, and
print exactly those diagnostics (no more, no fewer), each followed by the
source line and a caret under its column. A user header the file includes
("x.hpp", in its folder) may hold expectations too, about its own lines.

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
    texts = {path: lines}
    for line in lines:
        inc = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
        header = inc and os.path.normpath(os.path.join(os.path.dirname(path), inc.group(1)))
        if header and os.path.exists(header):
            texts[header] = open(header, encoding="utf-8").read().split("\n")
    expected = set()
    for name, text in texts.items():
        for i, line in enumerate(text, start=1):
            m = EXPECT.search(line)
            if m:
                expected.add((name, m.group(1), i - int(m.group(2)), int(m.group(3)), m.group(4)))
    if not expected:
        print("%s: no expect- annotations" % path)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.cpp")
        headers = os.path.join(tmp, "headers")
        p = subprocess.run([tascellc, path, "-o", out, "--header-dir", headers], capture_output=True, text=True,
                           timeout=120)
        wrote = os.path.exists(out) or os.path.exists(headers)
    failures = []
    if p.returncode != 1:
        failures.append("exit status %d, expected 1" % p.returncode)
    if wrote:
        failures.append("the translator wrote output for a wrong program")
    diag = re.compile(r"^(%s):(\d+):(\d+): (error|note): (.*)$" % "|".join(re.escape(n) for n in texts))
    actual = set()
    err = p.stderr.split("\n")
    for k, line in enumerate(err):
        m = diag.match(line)
        if not m:
            continue
        name, ln, col, kind, msg = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)
        actual.add((name, kind, ln, col, msg))
        # The source line and a caret under the column follow.
        text = texts[name]
        src = text[ln - 1] if 0 < ln <= len(text) else None
        if k + 2 >= len(err) or err[k + 1] != src or err[k + 2].index("^") != col - 1:
            failures.append("no source line and caret under %s %s:%d:%d" % (kind, name, ln, col))
    for e in sorted(expected - actual):
        failures.append("missing   %s %s %d:%d: %s" % e)
    for a in sorted(actual - expected):
        failures.append("unexpected %s %s %d:%d: %s" % a)
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
