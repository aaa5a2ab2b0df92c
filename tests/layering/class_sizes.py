#!/usr/bin/env python3
"""The size of each class of the message thread's protocols (runtime/src/net).

Clang counts, in its syntax tree of every header of net/, the member
functions (constructors and templates included, implicit ones not) and the
fields declared in each class's body. A class may have at most 30 member
functions and 20 fields (docs/architecture.md, "The rooms of net/"); the
classes in OVER are not there yet and may not grow past the sizes listed,
which only go down. Prints every class's size; fails when one is over its
limit, naming it.

usage: class_sizes.py [ROOT]   (the project's root; default: this file's)
needs clang++-19 and mpicxx (for mpi.h), as the build does.
"""
import os
import re
import subprocess
import sys
import tempfile

FUNCTIONS, FIELDS = 30, 20
# Still over the limit: (member functions, fields) at most.
OVER = {}
FUNCTION_KINDS = {"CXXMethodDecl", "CXXConstructorDecl", "CXXDestructorDecl", "FunctionTemplateDecl",
                  "CXXConversionDecl"}


def sizes(root):
    net = os.path.join(root, "runtime", "src", "net")
    headers = sorted(h for h in os.listdir(net) if h.endswith(".hpp"))
    mpi = subprocess.run(["mpicxx", "--showme:compile"], capture_output=True, text=True, check=True).stdout.split()
    with tempfile.NamedTemporaryFile("w", suffix=".cpp") as tu:
        tu.write("".join(f'#include "net/{h}"\n' for h in headers))
        tu.flush()
        out = subprocess.run(["clang++-19", "-std=c++20", "-fsyntax-only",
                              "-I" + os.path.join(root, "runtime", "include"),
                              "-I" + os.path.join(root, "runtime", "src"), *mpi,
                              "-Xclang", "-ast-dump", "-Xclang", "-ast-dump-filter=tascell::detail::net::",
                              tu.name], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("class_sizes: clang++-19 could not parse the headers of net/:\n" + out.stderr[-3000:])
    found = {}
    name, first = None, False
    for line in out.stdout.splitlines():
        m = re.match(r"Dumping tascell::detail::net::([\w:]+):$", line)
        if m:
            name, first = m.group(1), True
            continue
        if name is None:
            continue
        if first:
            first = False
            # Out-of-line definitions are dumped too; only a class's body counts.
            if not re.match(r"CXXRecordDecl .* (class|struct) \w+ definition", line):
                name = None
            else:
                found[name] = [0, 0]
            continue
        m = re.match(r"[|`]-(\w+) ", line)  # a direct child of the class
        if not m or " implicit " in line:
            continue
        if m.group(1) in FUNCTION_KINDS:
            found[name][0] += 1
        elif m.group(1) == "FieldDecl":
            found[name][1] += 1
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    found = sizes(os.path.abspath(root))
    if "steal_protocol" not in found:
        sys.exit("class_sizes: found no class steal_protocol in net/; the count is broken")
    bad = []
    for name, (f, d) in sorted(found.items(), key=lambda kv: (-kv[1][0], kv[0])):
        lf, ld = OVER.get(name, (FUNCTIONS, FIELDS))
        mark = ""
        if f > lf or d > ld:
            mark = f"  over its limit of {lf} functions and {ld} fields"
            bad.append(name)
        elif name in OVER:
            mark = f"  (limit {lf}, {ld}: still over {FUNCTIONS}, {FIELDS})"
        print(f"{name:28} {f:3} member functions {d:3} fields{mark}")
    if bad:
        sys.exit("class_sizes: over the limit: " + ", ".join(bad) +
                 " (split the class, docs/architecture.md \"The rooms of net/\")")


main()
