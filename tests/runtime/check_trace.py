#!/usr/bin/env python3
"""Runs a program with TASCELL_TRACE and TASCELL_STATS and checks the trace:
valid JSON; each worker's spans never overlap; every flow (a piece handed
over) has exactly one start and one end, so every piece given away started
exactly once; the counts agree with TASCELL_STATS (pieces given, requests
sent and refused, summed over the root calls).

usage: check_trace.py WORKERS PROGRAM ARGS...
"""
import collections
import json
import os
import subprocess
import sys
import tempfile


def main():
    workers, prog, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.json")
        env = dict(os.environ, TASCELL_TRACE=path, TASCELL_STATS="1", TASCELL_WORKERS=workers)
        p = subprocess.run([prog] + args, capture_output=True, text=True, env=env, timeout=600)
        if p.returncode != 0:
            raise SystemExit("FAILED: the program failed (%d)\n%s%s" % (p.returncode, p.stdout, p.stderr))
        with open(path) as f:
            events = json.load(f)["traceEvents"]

    spans = collections.defaultdict(list)
    flows = collections.defaultdict(lambda: {"s": 0, "f": 0})
    instants = collections.Counter()
    for e in events:
        if e["ph"] == "X":
            spans[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"], e["name"]))
        elif e["ph"] in ("s", "f"):
            flows[e["id"]][e["ph"]] += 1
        elif e["ph"] == "i":
            instants[e["name"]] += 1
    for track, xs in spans.items():
        xs.sort()
        for (a0, a1, an), (b0, b1, bn) in zip(xs, xs[1:]):
            if b0 < a1 - 0.002:  # 2 ns of rounding
                raise SystemExit("FAILED: on %s, %s [%.3f, %.3f] overlaps %s [%.3f, %.3f]" %
                                 (track, an, a0, a1, bn, b0, b1))
    for fid, c in flows.items():
        if c != {"s": 1, "f": 1}:
            raise SystemExit("FAILED: flow %s has %d starts and %d ends" % (fid, c["s"], c["f"]))

    # The "total" rows of TASCELL_STATS: req_sent refused served declined given received stealbk.
    given = sent = refused = 0
    for line in p.stderr.splitlines():
        cols = line.split()
        if cols and cols[0] == "total":
            sent += int(cols[4])
            refused += int(cols[5])
            given += int(cols[8])
    problems = []
    if len(flows) != given:
        problems.append("%d flows, but TASCELL_STATS counts %d pieces given" % (len(flows), given))
    if instants["request"] != sent:
        problems.append("%d requests, but TASCELL_STATS counts %d" % (instants["request"], sent))
    if instants["refused"] != refused:
        problems.append("%d refusals, but TASCELL_STATS counts %d" % (instants["refused"], refused))
    if problems:
        raise SystemExit("FAILED: " + "; ".join(problems))
    if given == 0:
        raise SystemExit("FAILED: no piece was handed over: nothing was checked")
    print("trace ok: %d spans on %d workers, %d pieces handed over (each started once), %d requests, %d refused"
          % (sum(len(x) for x in spans.values()), len(spans), given, sent, refused))


if __name__ == "__main__":
    main()
