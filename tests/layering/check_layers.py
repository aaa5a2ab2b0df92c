#!/usr/bin/env python3
"""The runtime's layers include one way (docs/architecture.md, "Layers").

From the bottom: the public headers (runtime/include/tascell), the base
(settings and traces: runtime/src/settings*, setting_table*, trace*), the
message thread's protocols (runtime/src/net), the distributed tables
(runtime/src/tables), and the workers and the runtime (the rest of
runtime/src). A file may include, with quotes, only files of its own layer
or below. Fails on an include that goes up (what a lower layer needs of a
higher one is an interface of its own: net/worker_face.hpp and
net/host.hpp, tables/table_process.hpp); prints the table of layers and
what each includes.

usage: check_layers.py [ROOT]   (the project's root; default: this file's)
"""
import os
import re
import sys

LAYERS = ["public", "base", "net", "tables", "core"]


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(rel):
    """rel: a path from runtime/."""
    if rel.startswith("include/"):
        return "public"
    name = os.path.basename(rel)
    if rel.startswith("src/net/"):
        return "net"
    if rel.startswith("src/tables/"):
        return "tables"
    if rel.startswith("src/") and re.match(r"(settings|setting_table|trace)\.(hpp|cpp)$", name):
        return "base"
    return "core"


def resolve(runtime, including, target):
    """The file a quoted include names, as a path from runtime/, or None
    (a file outside the runtime: a dependency's header)."""
    for base in (os.path.dirname(os.path.join(runtime, including)), os.path.join(runtime, "src"),
                 os.path.join(runtime, "include")):
        p = os.path.normpath(os.path.join(base, target))
        if os.path.isfile(p):
            return os.path.relpath(p, runtime)
    return None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    runtime = os.path.join(root, "runtime")
    files = []
    for top in ("include", "src"):
        for d, _, names in os.walk(os.path.join(runtime, top)):
            files += [os.path.relpath(os.path.join(d, n), runtime) for n in names if n.endswith((".hpp", ".cpp"))]
    if len(files) < 20:
        raise SystemExit("check_layers: found only %d files under %s" % (len(files), runtime))
    edges = {}  # (from layer, to layer) -> count
    up, unresolved = set(), []
    for f in sorted(files):
        text = open(os.path.join(runtime, f), encoding="utf-8").read()
        for target in INCLUDE.findall(text):
            to = resolve(runtime, f, target)
            if to is None:
                unresolved.append("%s: \"%s\"" % (f, target))
                continue
            a, b = layer_of(f), layer_of(to)
            edges[(a, b)] = edges.get((a, b), 0) + 1
            if LAYERS.index(b) > LAYERS.index(a):
                up.add((f, to))
    print("includes between layers (from -> to: count), bottom first: " + " < ".join(LAYERS))
    for (a, b), n in sorted(edges.items(), key=lambda e: (LAYERS.index(e[0][0]), LAYERS.index(e[0][1]))):
        print("  %-7s -> %-7s %4d%s" % (a, b, n, "   UP" if LAYERS.index(b) > LAYERS.index(a) else ""))
    failures = []
    for f, to in sorted(up):
        failures.append("%s (%s) includes %s (%s), a layer above it" % (f, layer_of(f), to, layer_of(to)))
    for u in unresolved:
        failures.append("cannot find the file of the include %s" % u)
    print("no include goes up" if not failures else "")
    for m in failures:
        print("FAIL: " + m)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
