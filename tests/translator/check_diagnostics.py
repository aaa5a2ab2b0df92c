#!/usr/bin/env python3
"""Checks the translator's errors on a wrong program.

The expected diagnostics are written right under the line they are about:
    // expect-error@-N:COL: message      (the error is N lines above, at COL)
    // expect-note@-N:COL: message
The translator must exit with status 1 (not crash), write no output, and
print exactly those diagnostics (no more, no fewer), each followed by the
source line and a caret under its column. A user header the file includes
("x.hpp", in its folder) may hold expectations too, about its own lines.

With --attributes, the program is first converted to the attribute
spelling (tascellc --to-attributes) and the same diagnostics are expected
at the same places of the converted program (one line further down after
the #include the converter adds; on a line whose markers changed length,
at the same column before them and at the same text after them). A program the converter itself refuses must be refused
with exactly the expected diagnostics. (Programs that include a user
header are checked in the @ spelling only.)

usage: check_diagnostics.py TASCELLC FILE.tcpp [--attributes]
"""
import os
import re
import subprocess
import sys
import tempfile

EXPECT = re.compile(r"//\s*expect-(error|note)@-(\d+):(\d+):\s*(.*?)\s*$")


def compare(p, wrote, texts, expected):
    """What differs between the translator's run p and the expectations."""
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
    return failures


def moved(original, converted, ln, col):
    """Where (line ln, column col) of the original is in the converted
    program: one line further down after the #include the converter put
    in; on a line whose markers changed length, the same column if what
    comes before it is unchanged, else where the text from the column on
    is found."""
    shift = 0
    for i, l in enumerate(converted):
        if i >= len(original) or original[i] != l:
            if l.strip() == "#include <tascell/api.hpp>" and i <= ln - 1:
                shift = 1
            break
    old, new = original[ln - 1], converted[ln - 1 + shift]
    if old[:col - 1] == new[:col - 1]:
        return ln + shift, col
    # Inside or after a marker that changed: where the text from the column
    # on is in the converted line (the longest piece of it found once).
    rest = old[col - 1:]
    for k in range(len(rest), 0, -1):
        if new.count(rest[:k]) == 1:
            return ln + shift, new.index(rest[:k]) + 1
    return ln + shift, len(new) - (len(old) - col)


def main():
    attributes = "--attributes" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--attributes"]
    tascellc, path = os.path.abspath(args[0]), args[1]
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
    spelling = ""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.cpp")
        headers = os.path.join(tmp, "headers")
        if attributes and len(texts) == 1:
            # The same program in the attribute spelling; a program the
            # converter refuses must be refused with the same diagnostics.
            conv = os.path.join(tmp, os.path.basename(path))
            p = subprocess.run([tascellc, "--to-attributes", path, "-o", conv], capture_output=True, text=True,
                               timeout=120)
            if p.returncode == 0:
                converted = open(conv, encoding="utf-8").read().split("\n")
                if any("@" in l.split("//")[0] for l in converted):
                    print("%s: the converted program still holds an @ marker:\n%s" % (path, "\n".join(converted)))
                    return 1
                expected = {(conv, kind, *moved(lines, converted, ln, col), msg)
                            for (_, kind, ln, col, msg) in expected}
                texts = {conv: converted}
                path = conv
                spelling = " (attribute spelling)"
                p = subprocess.run([tascellc, conv, "-o", out, "--header-dir", headers], capture_output=True,
                                   text=True, timeout=120)
            else:
                spelling = " (refused by --to-attributes)"
        else:
            p = subprocess.run([tascellc, path, "-o", out, "--header-dir", headers], capture_output=True, text=True,
                               timeout=120)
        wrote = os.path.exists(out) or os.path.exists(headers)
        failures = compare(p, wrote, texts, expected)
        if failures:
            print("%s%s:" % (path, spelling))
            for f in failures:
                print("  " + f)
            print("--- translator's stderr ---\n" + p.stderr)
            if spelling == " (attribute spelling)":
                print("--- the converted program ---\n" + "\n".join(texts[path]))
            return 1
    print("%s: %d diagnostics as expected%s" % (path, len(expected), spelling))
    return 0


if __name__ == "__main__":
    sys.exit(main())
