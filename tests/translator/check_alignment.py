#!/usr/bin/env python3
"""Translated code starts on a cache line (decisions.md, "Translated code
starts on a cache line").

Builds a .tcpp file with the tascell++ driver, as a user does, and checks
that every function of it starts at an address that is a multiple of 64,
and that the object's .text asks for 64-byte alignment; with
`-falign-functions=16 -falign-loops=16` on the command line the driver adds nothing (.text
aligned at 16). Its loops are aligned on 64 bytes (the assembly's
.p2align before them), unless the command names a loop alignment; a plain
C++ file on the same command keeps the compiler's alignment. Then the
function starts for a program built by CMake's tascell_add_executable (its
translated functions, by nm).

usage: check_alignment.py TASCELLXX FILE.tcpp CMAKE_BUILT_BINARY FUNCTION
  FUNCTION: a @task function of both programs (its body, FUNCTION__tascell_body, is checked)
"""
import os
import re
import subprocess
import sys
import tempfile


def text_alignment(obj):
    """The alignment .text asks for in an object (readelf -SW, column Al)."""
    out = subprocess.run(["readelf", "-SW", obj], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+\.text\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S*\s+\d+\s+\d+\s+(\d+)\s*$", line)
        if m:
            return int(m.group(1))
    raise SystemExit("check_alignment: no .text section in %s:\n%s" % (obj, out))


def function_addresses(binary, needle):
    out = subprocess.run(["nm", "-C", binary], capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        f = line.split(None, 2)
        if len(f) == 3 and f[1] in "tT" and needle in f[2] and "[clone" not in f[2]:
            found[f[2]] = int(f[0], 16)
    if not found:
        raise SystemExit("check_alignment: no function named like %s in %s (nm)" % (needle, binary))
    return found


def main():
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    tascellxx, source, cmake_binary, fn = sys.argv[1:]
    failures = []
    with tempfile.TemporaryDirectory(prefix="tascell-align-") as tmp:
        inc = ["-I", os.path.dirname(os.path.abspath(source))]
        # (Loops aligned on 64 bytes align the section on 64 too: the
        # command names both alignments to get 16.)
        for flags, want in (([], 64), (["-falign-functions=16", "-falign-loops=16"], 16)):
            obj = os.path.join(tmp, "a.o")
            subprocess.run([tascellxx, "-O2", "-c"] + inc + flags + [source, "-o", obj], check=True)
            got = text_alignment(obj)
            print("tascell++ -O2 -c %s: .text aligned at %d (expected %d)" % (" ".join(flags), got, want))
            if got != want:
                failures.append("tascell++ %s: .text aligned at %d, expected %d" % (" ".join(flags), got, want))
        # Loops on a line: GCC's default pads a loop (and a jump target)
        # to 16 only within a few bytes (.p2align 4,,10, then .p2align 3);
        # -falign-loops=64 pads a loop always (.p2align 6 before the loop's
        # label, then GCC's own), never when the command names its own
        # (-falign-loops=16).
        for flags, want in (([], True), (["-falign-loops=16"], False)):
            asm = os.path.join(tmp, "a.s")
            subprocess.run([tascellxx, "-O2", "-S"] + inc + flags + [source, "-o", asm], check=True)
            text = open(asm).read()
            forced = len(re.findall(r"^\s*\.p2align 6\n(\s*\.p2align \d(,,\d+)?\n)*\.L\d+:", text, re.M))
            print("tascell++ -O2 -S %s: %d loops aligned on 64 bytes" % (" ".join(flags), forced))
            if (forced > 0) != want:
                failures.append("tascell++ %s: %d loops aligned on 64 bytes" % (" ".join(flags), forced))
        # A plain C++ file on the same command keeps the compiler's own
        # alignment: the translated file is compiled on its own.
        plain = os.path.join(tmp, "plain.cpp")
        with open(plain, "w") as f:
            f.write("long plain_twice(long v) { return 2 * v; }\n")
        mixed = os.path.join(tmp, "mixed")
        os.mkdir(mixed)
        subprocess.run([tascellxx, "-O2", "-c"] + inc + [os.path.abspath(source), plain], check=True, cwd=mixed)
        stem = os.path.splitext(os.path.basename(source))[0]
        for obj, want in ((stem + ".o", 64), ("plain.o", 16)):
            got = text_alignment(os.path.join(mixed, obj))
            print("tascell++ -O2 -c %s plain.cpp: %s's .text aligned at %d (expected %d)" %
                  (os.path.basename(source), obj, got, want))
            if got != want:
                failures.append("tascell++ -c with a plain source: %s's .text aligned at %d, expected %d" % (obj, got, want))
        exe = os.path.join(tmp, "a.out")
        subprocess.run([tascellxx, "-O2"] + inc + [source, "-o", exe], check=True)
        for binary in (exe, cmake_binary):
            for name, addr in sorted(function_addresses(binary, fn + "__tascell_body").items()):
                print("%s: %s at %#x (%% 64 = %d)" % (os.path.basename(binary), name, addr, addr % 64))
                if addr % 64:
                    failures.append("%s: %s at %#x, not on a 64-byte line" % (binary, name, addr))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
