#!/usr/bin/env python3
"""Where a steal between processes spends its time, from the traces of a run
of 2 processes (TASCELL_TRACE=PATH gives PATH.0 and PATH.1; docs/tracing.md):

    mpirun ... -np 2 -x TASCELL_WORKERS=1 -x TASCELL_TRACE=/tmp/s.json build/release/bench/mpi-steal-latency 27 30
    python3 bench/mpi/steal_steps.py /tmp/s.json

For each request that a piece answered (the thief's `ask`, then on the
victim its message thread's `recv` of the request, its worker's `give`, its
message thread's `send` after the give, then the thief's `work arrived`),
the four steps' medians and 90th percentiles in microseconds, on the
clocks the trace aligned (docs/tracing.md).
"""
import json
import statistics
import sys

# A request's bytes (the batch header and one request message; a steal-back
# or a batch of two is longer).
REQUEST_BYTES = (33, 42)


def events(path):
    ev = []
    for rank in (0, 1):
        with open("%s.%d" % (path, rank)) as f:
            d = json.load(f)
        for e in d["traceEvents"] if isinstance(d, dict) else d:
            if e.get("ph") != "M":
                e["rank"] = rank
                ev.append(e)
    ev.sort(key=lambda e: e["ts"])
    return ev


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    ev = events(sys.argv[1])
    steps = {"ask > victim's recv": [], "recv > give": [], "give > send": [], "send > arrived": [], "total": []}
    for i, e in enumerate(ev):
        if e["name"] != "ask":
            continue
        victim, thief, t0 = e["args"]["to"], e["rank"], e["ts"]
        after = ev[i + 1:i + 60]

        def first(pred):
            return next((x for x in after if pred(x)), None)

        recv = first(lambda x: x["rank"] == victim and x["name"] == "recv" and x["args"].get("bytes") in REQUEST_BYTES)
        give = first(lambda x: x["rank"] == victim and x["name"] == "give")
        send = give and first(lambda x: x["rank"] == victim and x["name"] == "send" and x["ts"] >= give["ts"])
        arrived = first(lambda x: x["rank"] == thief and x["name"] == "work arrived")
        denied = first(lambda x: x["rank"] == thief and x["name"] == "denied")
        if not (recv and give and send and arrived) or (denied and denied["ts"] < arrived["ts"]):
            continue
        steps["ask > victim's recv"].append(recv["ts"] - t0)
        steps["recv > give"].append(give["ts"] - recv["ts"])
        steps["give > send"].append(send["ts"] - give["ts"])
        steps["send > arrived"].append(arrived["ts"] - send["ts"])
        steps["total"].append(arrived["ts"] - t0)
    if not steps["total"]:
        raise SystemExit("no request answered by a piece in these traces")
    print("%d steals" % len(steps["total"]))
    for name, xs in steps.items():
        xs = sorted(xs)
        print("%-20s median %6.1f us  p90 %6.1f us" % (name, statistics.median(xs), xs[int(0.9 * len(xs))]))


if __name__ == "__main__":
    main()
