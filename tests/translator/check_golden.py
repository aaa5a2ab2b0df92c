#!/usr/bin/env python3
"""Golden test: the translator's output for FILE.tcpp must equal FILE.expected.cpp
(and with --serial, FILE.serial.expected.cpp), read with the prelude from
tascellc's PCH and parsed alike. With --update, writes them.

Each expected output must also compile (g++ -fsyntax-only -Wall -Wextra
-Werror, with the runtime headers given by --include DIR).

A line `// tascellc: FLAGS` in FILE.tcpp adds FLAGS to the parallel
translation (`--eager`: the eager lowering of functions that would be lazy).

The translator runs with --header-dir: the translation of a user header
with markers, FILE.tcpp's X.hpp, must equal X.expected.hpp (and
X.serial.expected.hpp). In the outputs, where the translations are is
written @HEADER_DIR@ and the folder of FILE.tcpp @SOURCE_DIR@.

usage: check_golden.py TASCELLC FILE.tcpp [--include DIR] [--update]
"""
import difflib
import os
import subprocess
import sys
import tempfile


def main():
    tascellc, src = os.path.abspath(sys.argv[1]), sys.argv[2]
    update = "--update" in sys.argv
    base = src[: -len(".tcpp")]
    status = 0
    temporaries = []
    flags = []
    for line in open(src):
        if line.startswith("// tascellc:"):
            flags = line[len("// tascellc:"):].split("(")[0].split()  # a note may follow in parentheses
    for mode, suffix in [(flags, ".expected.cpp"), (["--serial"], ".serial.expected.cpp")]:
        # Run from the file's folder so #line names the file as the tests do.
        folder = os.path.dirname(os.path.abspath(src))
        tmp = tempfile.TemporaryDirectory()  # removed at exit
        temporaries.append(tmp)
        hdir = os.path.join(tmp.name, "headers")
        p = subprocess.run([tascellc] + mode + [os.path.basename(src), "--header-dir", hdir], capture_output=True,
                           text=True, cwd=folder, timeout=120)
        if p.returncode != 0:
            print("%s %s: translator failed (%d)\n%s" % (src, " ".join(mode), p.returncode, p.stderr))
            return 1
        translated = os.path.join(hdir, folder.lstrip("/"))
        if not update:
            # The same translation with the prelude parsed, not read from
            # tascellc's PCH (prelude_pch.hpp).
            q = subprocess.run([tascellc] + mode + [os.path.basename(src), "--header-dir", hdir + ".parsed"],
                               capture_output=True, text=True, cwd=folder, timeout=120,
                               env=dict(os.environ, TASCELL_TRANSLATOR_PCH="0"))
            if q.returncode != 0 or q.stdout.replace(hdir + ".parsed", hdir) != p.stdout:
                status = 1
                print("%s %s: the translation with the prelude parsed (TASCELL_TRANSLATOR_PCH=0) differs" %
                      (src, " ".join(mode)))

        def placeholders(text):
            return text.replace(translated, "@HEADER_DIR@").replace(folder, "@SOURCE_DIR@")

        output = placeholders(p.stdout)
        # The translated headers, each against its expected file.
        for root, _, names in os.walk(hdir):
            for name in names:
                got = placeholders(open(os.path.join(root, name)).read())
                stem, ext = os.path.splitext(os.path.relpath(os.path.join(root, name), translated))
                expected = os.path.join(folder, stem + suffix.replace(".cpp", ext))
                if update:
                    open(expected, "w").write(got)
                elif not os.path.exists(expected) or open(expected).read() != got:
                    status = 1
                    old = open(expected).read() if os.path.exists(expected) else ""
                    sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), got.splitlines(True), expected,
                                                               "output"))
        path = base + suffix
        if update:
            open(path, "w").write(output)
            continue
        want = open(path).read()
        if "--include" in sys.argv:
            inc = sys.argv[sys.argv.index("--include") + 1]
            c = subprocess.run(["g++", "-std=c++20", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-I", inc,
                                "-x", "c++", "-"], input=want.replace("@HEADER_DIR@", translated),
                               capture_output=True, text=True, timeout=120)
            if c.returncode != 0:
                status = 1
                print("%s does not compile:\n%s" % (path, c.stderr))
        if output != want:
            status = 1
            sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), output.splitlines(True), path, "output"))
    if status == 0 and not update:
        print("%s: output as expected (parallel and serial)" % src)
    return status


if __name__ == "__main__":
    sys.exit(main())
