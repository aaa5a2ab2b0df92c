#!/usr/bin/env python3
"""Measures, on this machine, what the scaling simulator needs and what it is
validated against. Runs are interleaved round after round; medians are kept.

- sequential time of n-queens 12/13/14, fib 35, UTS T1 (per-node costs);
- 1 process x 1 and x 2 workers of nqueens-tascell 13, fib-tascell 35,
  uts-tascell T1, with TASCELL_STATS=1 (pieces given); with --variant tcpp
  the translated programs (-tcpp) instead, whose fib and n-queens are lazy
  functions: then also the unwindings per root call (TASCELL_STATS) and, from
  traces of fib 35 and n-queens 13 on 2 workers, the frames and the time of
  each unwinding (request found -> frames rebuilt);
- 1, 2, 3 processes x 1 worker of the same (mpirun --oversubscribe);
- the local steal latency (request -> piece started, from a TASCELL_TRACE of
  n-queens 13 on 2 workers) and the inter-process steal round trip
  (mpi-steal-latency, as bench/mpi/mpi_bench.py runs it).

Writes a JSON file (default bench/scaling/measured.json).

usage: measure.py --build-dir build/release/bench [--rounds 5] [--variant tascell|tcpp] [--out FILE]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile
import time

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
MPIRUN = ["mpirun", "--oversubscribe", "--tag-output"]

PROBLEMS = [("nqueens", "13"), ("fib", "35"), ("uts", "T1")]
SEQ = [("nqueens", "12"), ("nqueens", "13"), ("nqueens", "14"), ("fib", "35"), ("uts", "T1")]
REPS_PER_RUN = 3  # root calls per invocation; the first (start-up) is dropped


def run(cmd, env):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    if p.returncode != 0:
        raise SystemExit("FAILED (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr))
    return p.stdout + p.stderr


def rank0_seconds(text):
    out = []
    for line in text.splitlines():
        m = re.search(r"^(?:\[\d+,(\d+)\]<stdout>:)?result=\S+ seconds=([0-9.]+)", line)
        if m and (m.group(1) or "0") == "0":
            out.append(float(m.group(2)))
    return out[1:]


def pieces_given(text):
    """Total pieces given per root call (sum over ranks), all root calls but the first."""
    per_call = {}
    for line in text.splitlines():
        m = re.search(r"^(?:\[\d+,(\d+)\]<std\w+>:)?\s*total\s+(.*)$", line)
        if m:
            rank = m.group(1) or "0"
            cols = m.group(2).split()
            per_call.setdefault(rank, []).append(int(cols[-3]))
    if not per_call:
        return []
    calls = min(len(v) for v in per_call.values())
    return [sum(v[i] for v in per_call.values()) for i in range(1, calls)]


def unwindings(text):
    """Requests that unwound lazy frames and the frames saved, per root call
    (sum over ranks), all root calls but the first."""
    per_call = {}
    for line in text.splitlines():
        m = re.search(r"^(?:\[\d+,(\d+)\]<std\w+>:)?tascell stats: lazy frames: (\d+) requests made them unwind, "
                      r"(\d+) frames", line)
        if m:
            per_call.setdefault(m.group(1) or "0", []).append((int(m.group(2)), int(m.group(3))))
    if not per_call:
        return []
    calls = min(len(v) for v in per_call.values())
    return [(sum(v[i][0] for v in per_call.values()), sum(v[i][1] for v in per_call.values()))
            for i in range(1, calls)]


def traced(build, prog, arg):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.json")
        run([os.path.join(build, prog), arg, "1"], dict(ENV, TASCELL_WORKERS="2", TASCELL_TRACE=path))
        ev = json.load(open(path))
        return ev["traceEvents"] if isinstance(ev, dict) else ev


def unwinding_times(ev):
    """(frames, microseconds) of each unwinding: its "unwind" instant to the
    next "rebuild" on the same thread (as tools/tascell-trace summary pairs them)."""
    rebuilds = {}
    for e in ev:
        if e.get("ph") == "i" and e.get("name") == "rebuild":
            rebuilds.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e.get("args", {}).get("frames", 0)))
    out = []
    for e in ev:
        if e.get("ph") == "i" and e.get("name") == "unwind":
            after = [r for r in rebuilds.get((e["pid"], e["tid"]), []) if r[0] >= e["ts"]]
            if after:
                end = min(after)
                out.append((end[1], end[0] - e["ts"]))
    return out


def local_latency(build, problem, arg, variant="tascell"):
    ev = traced(build, problem + "-" + variant, arg)
    ok, refused = [], []
    by_tid = {}
    for e in ev:
        if e.get("name") in ("request", "refused") or (e.get("ph") == "f" and e.get("name") == "piece"):
            by_tid.setdefault(e["tid"], []).append(e)
    for evs in by_tid.values():
        evs.sort(key=lambda e: e["ts"])
        pending = None
        for e in evs:
            if e["name"] == "request":
                pending = e["ts"]
            elif pending is not None:
                (refused if e["name"] == "refused" else ok).append(e["ts"] - pending)
                pending = None
    return ok, refused


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--variant", choices=["tascell", "tcpp"], default="tascell",
                    help="the hand-written programs (eager points) or the translated ones (lazy fib and n-queens)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "measured.json"))
    a = ap.parse_args()
    b = a.build_dir
    res = {"variant": a.variant, "seq": {}, "procs": {}, "threads": {}, "pieces": {}, "unwindings": {},
           "unwound_frames": {}, "unwind_each": {"fib": [], "nqueens": []}, "local_ok_us": [],
           "local_refused_us": [], "remote_rtt_us": [], "uptime": []}
    for r in range(a.rounds):
        res["uptime"].append(run(["uptime"], ENV).strip())
        for prob, arg in SEQ:
            key = "%s %s" % (prob, arg)
            res["seq"].setdefault(key, []).extend(
                rank0_seconds(run([os.path.join(b, prob + "-seq"), arg, str(REPS_PER_RUN)], ENV)))
        for prob, arg in PROBLEMS:
            prog = os.path.join(b, prob + "-" + a.variant)
            for w in ("1", "2"):
                key = "%s %s w%s" % (prob, arg, w)
                t = run([prog, arg, str(REPS_PER_RUN)], dict(ENV, TASCELL_WORKERS=w, TASCELL_STATS="1"))
                res["threads"].setdefault(key, []).extend(rank0_seconds(t))
                res["pieces"].setdefault(key, []).extend(pieces_given(t))
                for u, f in unwindings(t):
                    res["unwindings"].setdefault(key, []).append(u)
                    res["unwound_frames"].setdefault(key, []).append(f)
            for np_ in ("1", "2", "3"):
                key = "%s %s p%s" % (prob, arg, np_)
                t = run(MPIRUN + ["-np", np_, "-x", "TASCELL_WORKERS=1", "-x", "TASCELL_STATS=1", prog, arg,
                                  str(REPS_PER_RUN)], ENV)
                res["procs"].setdefault(key, []).extend(rank0_seconds(t))
                res["pieces"].setdefault(key, []).extend(pieces_given(t))
                for u, f in unwindings(t):
                    res["unwindings"].setdefault(key, []).append(u)
                    res["unwound_frames"].setdefault(key, []).append(f)
        if a.variant == "tcpp":
            for prob, arg in (("fib", "35"), ("nqueens", "13")):
                res["unwind_each"][prob] += unwinding_times(traced(b, prob + "-tcpp", arg))
        ok, ref = local_latency(b, "nqueens", "13", a.variant)
        res["local_ok_us"] += ok
        res["local_refused_us"] += ref
        t = run(MPIRUN + ["-np", "2", "-x", "TASCELL_WORKERS=1", os.path.join(b, "mpi-steal-latency"), "27", "200"],
                ENV)
        for line in t.splitlines():
            m = re.search(r"steal_ns \d+((?: \d+)*)$", line)
            if m:
                res["remote_rtt_us"] += [int(x) / 1000.0 for x in m.group(1).split()]
        print("round", r + 1, "done", time.strftime("%H:%M:%S"), flush=True)
    med = {}
    for group in ("seq", "threads", "procs", "pieces", "unwindings", "unwound_frames"):
        med[group] = {k: statistics.median(v) if v else None for k, v in res[group].items()}
    # Per problem: frames per unwinding and microseconds per unwinding (medians
    # over every traced unwinding), and their ratio, the cost of one frame.
    med["unwind"] = {}
    for prob, each in res["unwind_each"].items():
        if each:
            frames = statistics.median(f for f, _ in each)
            us = statistics.median(t for _, t in each)
            med["unwind"][prob] = {"count": len(each), "frames": frames, "us": us,
                                   "us_per_frame": statistics.median(t / f for f, t in each if f > 0)}
    for k in ("local_ok_us", "local_refused_us", "remote_rtt_us"):
        med[k] = statistics.median(res[k]) if res[k] else None
    res["median"] = med
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)
    print(json.dumps(med, indent=1))


if __name__ == "__main__":
    main()
