#!/usr/bin/env python3
"""The time between successive loops of a traced Tascell++ program, from the
hand-overs of their first halves: for bench/loops' stencil, each sweep's
`@dowork for` gives its upper half away once, so the time from one such
give to the next is one sweep (docs/performance.md, "Per-iteration writes
beside OpenMP").

  tascell++ -O2 bench/loops/stencil.tcpp -o stencil
  TASCELL_TRACE=st.json TASCELL_WORKERS=2 ./stencil 500000 400
  python3 bench/loops/sweep_times.py st.json [--min-size 100000]

Prints the count, median, p10, p90, maximum and mean in microseconds.
"""
import argparse
import json
import statistics


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--min-size", type=int, default=100000, help="pieces of at least this many iterations")
    a = ap.parse_args()
    with open(a.trace) as f:
        d = json.load(f)
    events = d["traceEvents"] if isinstance(d, dict) else d
    gives = sorted(e["ts"] for e in events
                   if e.get("ph") == "s" and e.get("args", {}).get("size", 0) >= a.min_size)
    dts = sorted(b - x for x, b in zip(gives, gives[1:]))
    if not dts:
        raise SystemExit("sweep_times: no two hand-overs of %d iterations or more in %s" % (a.min_size, a.trace))
    n = len(dts)
    print("%d loops: median %.1f us, p10 %.1f, p90 %.1f, max %.1f, mean %.1f" %
          (n, statistics.median(dts), dts[n // 10], dts[9 * n // 10], dts[-1], statistics.mean(dts)))


if __name__ == "__main__":
    main()
