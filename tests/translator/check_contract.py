#!/usr/bin/env python3
"""The contract between the translator's output and the runtime.

runtime/include/tascell/translated.hpp lists, in its opening comment, every
runtime name translated code may use. This test reads the golden outputs
(tests/translator/golden/*.expected.cpp and .hpp, the parallel ones) and
fails when one of them names something of the runtime the list does not
have, or names tascell::detail (the runtime's internals) at all: a change
of what the translator emits must say so in the contract first.

usage: check_contract.py TRANSLATED_HPP GOLDEN_DIR
"""
import glob
import os
import re
import sys

NAME = re.compile(r"tascell::[A-Za-z_][A-Za-z_0-9]*(?:::[A-Za-z_][A-Za-z_0-9]*)*")


def contract_names(header):
    """The names of the header's opening comment (before `#pragma once`)."""
    with open(header) as f:
        text = f.read()
    comment = text.split("#pragma once", 1)[0]
    return set(NAME.findall(comment))


def main():
    header, golden = sys.argv[1], sys.argv[2]
    allowed = contract_names(header)
    if not allowed:
        raise SystemExit("check_contract: no tascell:: names in the opening comment of %s" % header)
    files = [f for f in glob.glob(os.path.join(golden, "*.expected.*")) if ".serial." not in f]
    if not files:
        raise SystemExit("check_contract: no golden outputs in %s" % golden)
    bad = []
    used = set()
    for path in sorted(files):
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if line.startswith("#include") or line.startswith("#line"):
                    continue
                for name in NAME.findall(line):
                    used.add(name)
                    if name.startswith("tascell::detail"):
                        bad.append("%s:%d: %s is the runtime's internals, not the contract" %
                                   (os.path.basename(path), n, name))
                    elif name not in allowed:
                        bad.append("%s:%d: %s is not in the contract (%s)" %
                                   (os.path.basename(path), n, name, os.path.basename(header)))
    for b in bad:
        print(b)
    if bad:
        return 1
    print("contract: %d golden outputs name %d runtime names, all in the contract (%d listed)" %
          (len(files), len(used), len(allowed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
