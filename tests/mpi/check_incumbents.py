#!/usr/bin/env python3
"""Do the incumbent strategies spread improvements between processes during
a root call, along the edges they should? (TASCELL_INCUMBENT, root_protocol.cpp)

Runs the knapsack branch and bound of mpi_programs on 3 processes with
tracing on, once per strategy, and reads the traces: every "incumbent
arrived" instant is an improvement that came from another process and
improved this one's value.
- every strategy: some improvements arrive during the call;
- lifeline:1 on 3 processes is the ring r -> r+1 mod 3: every improvement
  arrives from the rank before;
- broadcast: improvements go out only from the process that found them, so
  each arrival's sender had improved the same incumbent itself before.
The answers themselves are checked by mpi_programs (exact on every process).

usage: check_incumbents.py MPIEXEC PROGRAM
"""
import collections
import glob
import json
import os
import subprocess
import sys
import tempfile


def run(mpiexec, prog, strategy, tmp):
    path = os.path.join(tmp, strategy.replace(":", "-") + ".json")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", TASCELL_TRACE=path,
               TASCELL_WORKERS="1", TASCELL_INCUMBENT=strategy)
    p = subprocess.run([mpiexec, "--oversubscribe", "-np", "3", "-x", "TASCELL_TRACE", "-x", "TASCELL_WORKERS", "-x",
                        "TASCELL_INCUMBENT", prog, "knapsack", "--repeat", "6"],
                       capture_output=True, text=True, env=env, timeout=300)
    if p.returncode != 0 or "WRONG" in p.stdout:
        sys.exit("FAILED: %s: the program failed\n%s%s" % (strategy, p.stdout, p.stderr))
    improved, arrived = [], []
    for f in sorted(glob.glob(path + ".*")):
        for e in json.load(open(f))["traceEvents"]:
            if e.get("ph") != "i":
                continue
            if e["name"] == "incumbent":
                improved.append((e["ts"], e["pid"], e["args"]["incumbent"]))
            elif e["name"] == "incumbent arrived":
                arrived.append((e["ts"], e["pid"], e["args"]["from"], e["args"]["incumbent"]))
    return improved, arrived


def main():
    mpiexec, prog = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        for strategy in ["broadcast", "random:1", "lifeline:1"]:
            improved, arrived = run(mpiexec, prog, strategy, tmp)
            if not arrived:
                sys.exit("FAILED: %s: no improvement reached another process during a root call "
                         "(%d improvements found)" % (strategy, len(improved)))
            senders = collections.Counter((a[2], a[1]) for a in arrived)
            if strategy == "lifeline:1":
                wrong = [(s, r) for (s, r) in senders if r != (s + 1) % 3]
                if wrong:
                    sys.exit("FAILED: lifeline:1 on 3 processes is the ring r -> r+1, but improvements went %s" %
                             wrong)
            if strategy == "broadcast":
                for ts, pid, frm, inc in arrived:
                    if not any(i[1] == frm and i[2] == inc and i[0] <= ts + 50 for i in improved):
                        sys.exit("FAILED: broadcast: an improvement arrived on rank %d from rank %d, which had "
                                 "found none" % (pid, frm))
            print("%-11s %4d improvements found, %4d arrived elsewhere and improved there; sender -> receiver: %s" %
                  (strategy, len(improved), len(arrived),
                   ", ".join("%d->%d: %d" % (s, r, n) for (s, r), n in sorted(senders.items()))))


if __name__ == "__main__":
    main()
