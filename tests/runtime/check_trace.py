#!/usr/bin/env python3
"""Runs a program with TASCELL_TRACE and TASCELL_STATS and checks the trace.

One process: the trace file. Several processes (--mpirun MPIEXEC --np N):
every process's file, merged by `tascell-trace merge` (--tool), is checked
as one timeline.

Checks:
- valid JSON; process and thread names for every track; a message-thread
  track on each process when there are several;
- the spans of one track never overlap; each hand-over lies inside a
  `give` span (backtracking to give work) and each steal-back request inside
  a `steal back` span of its worker; each message thread has `asleep` spans;
- the instants named by --expect occur (e.g. cancel, stop, incumbent);
- every flow (a piece handed over) has exactly one start and one end, so
  every piece given away started exactly once, also between processes;
- between processes: some piece moved from one process to another; each
  such piece starts after it was given (the clocks are aligned); each was
  seen arriving by the message thread of the process that ran it;
- the counts agree with TASCELL_STATS, summed over root calls and processes
  (pieces given, requests sent and refused, joins suspended, lazy frames'
  unwindings and the frames they rebuilt), and the "all"
  rows rank 0 prints are the sums of the processes' rows; no more
  suspensions than resumptions (TASCELL_WAIT=suspend).

usage: check_trace.py [--mpirun MPIEXEC --np N --tool TASCELL_TRACE] [--env NAME=VALUE]... [--expect INSTANT]...
                      WORKERS PROGRAM ARGS...
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

COUNT_COLUMNS = ["req_sent", "refused", "served", "declined", "given", "received", "stealbk", "suspend"]


def fail(text):
    raise SystemExit("FAILED: " + text)


def stats_rows(stderr, name):
    """The count columns of every row of TASCELL_STATS whose first column is name."""
    rows = []
    for line in stderr.splitlines():
        cols = line.split()
        # name work idle wait stlbk give req_sent refused served declined given received stealbk suspend [...]
        if len(cols) >= 14 and cols[0] == name:
            rows.append(dict(zip(COUNT_COLUMNS, map(int, cols[6:14]))))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun")
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--tool")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for every process")
    ap.add_argument("--expect", action="append", default=[], help="an instant that must occur")
    ap.add_argument("workers")
    ap.add_argument("program", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    several = a.np > 1
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.json")
        env = dict(os.environ, TASCELL_TRACE=path, TASCELL_STATS="1", TASCELL_WORKERS=a.workers)
        extra = dict(x.split("=", 1) for x in a.env)
        env.update(extra)
        cmd = a.program
        if a.mpirun:
            env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
            passed = ["TASCELL_TRACE", "TASCELL_STATS", "TASCELL_WORKERS"] + sorted(extra)
            # Each process's output to a file of its own: mpirun forwards the
            # processes' output in the chunks it happens to read, so a line of
            # one process can be cut by another's (a wake-up count was lost
            # that way once in about 60 runs).
            outdir = os.path.join(tmp, "output")
            cmd = ([a.mpirun, "--oversubscribe", "-np", str(a.np), "--output-filename", outdir] +
                   [y for x in passed for y in ("-x", x)] + cmd)
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
        if p.returncode != 0:
            fail("the program failed (%d)\n%s%s" % (p.returncode, p.stdout, p.stderr))
        if a.mpirun:
            # Open MPI 4: <dir>/1/rank.<r>/stderr; the processes' texts one after another.
            names = sorted(glob.glob(os.path.join(outdir, "*", "rank.*", "stderr")))
            if len(names) != a.np:
                fail("mpirun --output-filename wrote %d stderr files for %d processes: %s" % (len(names), a.np, names))
            texts = []
            for name in names:
                with open(name) as f:
                    texts.append(f.read())
            p = subprocess.CompletedProcess(p.args, p.returncode, p.stdout, "".join(texts))
        if several:
            files = sorted(glob.glob(path + ".*"))
            if len(files) != a.np:
                fail("%d processes wrote %d trace files: %s" % (a.np, len(files), files))
            merged = os.path.join(tmp, "merged.json")
            m = subprocess.run([sys.executable, a.tool, "merge", "-o", merged] + files, capture_output=True,
                               text=True)
            if m.returncode != 0:
                fail("tascell-trace merge failed: %s" % m.stderr)
            path = merged
        with open(path) as f:
            events = json.load(f)["traceEvents"]

    spans = collections.defaultdict(list)
    flows = collections.defaultdict(lambda: {"s": [], "f": []})
    instants = collections.Counter()
    steal_back_requests = []  # (track, ts)
    arrived = collections.Counter()
    shared_asks = collections.Counter()  # by process: requests posted through shared memory
    sent = recvd = 0
    rebuilt_frames = 0
    thread_names, process_names = {}, set()
    for e in events:
        track = (e.get("pid"), e.get("tid"))
        if e["ph"] == "M":
            if e["name"] == "thread_name":
                thread_names[track] = e["args"]["name"]
            elif e["name"] == "process_name":
                process_names.add(e["pid"])
        elif e["ph"] == "X":
            spans[track].append((e["ts"], e["ts"] + e["dur"], e["name"]))
        elif e["ph"] in ("s", "f"):
            flows[e["id"]][e["ph"]].append((track, e["ts"], e.get("args", {})))
        elif e["ph"] == "i":
            instants[e["name"]] += 1
            if e["name"] == "ask" and e["args"].get("shared"):
                shared_asks[e["pid"]] += 1
            if e["name"] == "request" and e["args"].get("steal_back"):
                steal_back_requests.append((track, e["ts"]))
            if e["name"] == "work arrived":
                arrived[(e["pid"], e["args"]["piece"])] += 1
            elif e["name"] == "send":
                sent += e["args"]["messages"]
            elif e["name"] == "recv":
                recvd += e["args"]["messages"]
            elif e["name"] == "rebuild":
                rebuilt_frames += e["args"]["frames"]

    for track in spans:
        if track not in thread_names or track[0] not in process_names:
            fail("track %s has no name" % (track,))
    message_tracks = [t for t, n in thread_names.items() if n == "message thread"]
    if several and len(message_tracks) != a.np:
        fail("%d message-thread tracks for %d processes" % (len(message_tracks), a.np))
    for track, xs in spans.items():
        xs.sort()
        for (a0, a1, an), (b0, b1, bn) in zip(xs, xs[1:]):
            if b0 < a1 - 0.002:  # 2 ns of rounding
                fail("on %s, %s [%.3f, %.3f] overlaps %s [%.3f, %.3f]" % (track, an, a0, a1, bn, b0, b1))
    for track in message_tracks:
        if not any(n == "asleep" for _, _, n in spans[track]):
            fail("the message thread %s never slept (no asleep span)" % (track,))

    def inside(track, ts, name):
        # ts lies in a span of that name on the track (2 ns of rounding).
        return any(x0 - 0.002 <= ts <= x1 + 0.002 and n == name for x0, x1, n in spans.get(track, []))

    for track, ts in steal_back_requests:
        if not inside(track, ts, "steal back"):
            fail("a steal-back request on %s at %.3f is in no steal back span" % (track, ts))
    for fid, c in flows.items():
        for track, ts, _ in c["s"]:
            if not inside(track, ts, "give"):
                fail("piece %s was handed over on %s at %.3f outside a give span" % (fid, track, ts))
    for name in a.expect:
        if instants[name] == 0:
            fail("no %s instant in the trace" % name)

    between = 0
    for fid, c in flows.items():
        if len(c["s"]) != 1 or len(c["f"]) != 1:
            fail("flow %s has %d starts and %d ends" % (fid, len(c["s"]), len(c["f"])))
        (st, ts, sargs), (ft, tf, fargs) = c["s"][0], c["f"][0]
        if st[0] != ft[0]:
            between += 1
            if "from_rank" not in fargs or fargs["from_rank"] != st[0]:
                fail("piece %s went from process %s to %s but its start says %s" % (fid, st[0], ft[0], fargs))
            if arrived[(ft[0], fid)] != 1:
                fail("piece %s ran on process %s, whose message thread saw it arrive %d times" %
                     (fid, ft[0], arrived[(ft[0], fid)]))
            # Both clocks are aligned to rank 0 within half a round trip.
            if tf < ts - 50:
                fail("piece %s starts %.1f us before it was given: the clocks are not aligned" % (fid, ts - tf))
        elif tf < ts:
            fail("piece %s starts before it was given" % fid)
    if several and between == 0:
        fail("no piece moved between processes: nothing between processes was checked")
    if several and (sent == 0 or recvd == 0 or recvd > sent):
        fail("the message threads report %d messages sent and %d received" % (sent, recvd))

    totals = stats_rows(p.stderr, "total")
    given = sum(r["given"] for r in totals)
    requests = sum(r["req_sent"] for r in totals)
    refused = sum(r["refused"] for r in totals)
    problems = []
    if len(flows) != given:
        problems.append("%d flows, but TASCELL_STATS counts %d pieces given" % (len(flows), given))
    if instants["request"] != requests:
        problems.append("%d requests, but TASCELL_STATS counts %d" % (instants["request"], requests))
    if instants["refused"] != refused:
        problems.append("%d refusals, but TASCELL_STATS counts %d" % (instants["refused"], refused))
    suspends = sum(r["suspend"] for r in totals)
    if instants["suspend"] != suspends:
        problems.append("%d suspensions, but TASCELL_STATS counts %d" % (instants["suspend"], suspends))
    lazy = [tuple(map(int, m)) for m in re.findall(
        r"lazy frames: (\d+) requests made them unwind, (\d+) frames saved and rebuilt", p.stderr)]
    unwinds, frames = sum(x[0] for x in lazy), sum(x[1] for x in lazy)
    if instants["unwind"] != unwinds:
        problems.append("%d unwindings, but TASCELL_STATS counts %d" % (instants["unwind"], unwinds))
    if instants["rebuild"] != instants["unwind"]:
        problems.append("%d unwindings but %d rebuilds" % (instants["unwind"], instants["rebuild"]))
    if rebuilt_frames != frames:
        problems.append("%d frames rebuilt, but TASCELL_STATS counts %d saved" % (rebuilt_frames, frames))
    # Every fiber that waited went on again before the end of its root call
    # (a fiber's first start is noted as a resume too).
    if instants["resume"] < instants["suspend"]:
        problems.append("%d suspensions but only %d resumptions" % (instants["suspend"], instants["resume"]))
    if several:
        alls = stats_rows(p.stderr, "all")
        if not alls:
            problems.append("rank 0 printed no \"all\" rows")
        for k in COUNT_COLUMNS:
            if sum(r[k] for r in alls) != sum(r[k] for r in totals):
                problems.append("the \"all\" rows sum %s to %d, the processes' rows to %d" %
                                (k, sum(r[k] for r in alls), sum(r[k] for r in totals)))
        # The message thread's wake-ups: each rank's own line against its
        # row in rank 0's table, and the "all" row against the sum.
        own = collections.defaultdict(int)
        for m in re.finditer(r"tascell stats: rank (\d+) of \d+: .*, (\d+) wake-ups of the message thread", p.stderr):
            own[int(m.group(1))] += int(m.group(2))
        gathered, wake_all = collections.defaultdict(int), 0
        for line in p.stderr.splitlines():
            cols = line.split()
            if len(cols) == 19 and re.fullmatch(r"r\d+", cols[0]):
                gathered[int(cols[0][1:])] += int(cols[18])
            elif len(cols) == 19 and cols[0] == "all":
                wake_all += int(cols[18])
        if sorted(own) != list(range(a.np)):
            problems.append("wake-ups of the message thread reported by ranks %s of %d" % (sorted(own), a.np))
        if dict(own) != dict(gathered):
            problems.append("wake-ups per rank %s, but rank 0's table says %s" % (dict(own), dict(gathered)))
        if wake_all != sum(own.values()):
            problems.append("the \"all\" rows sum wake-ups to %d, the ranks to %d" % (wake_all, sum(own.values())))
        # Requests posted through shared memory: each rank's own line
        # against its ask instants marked shared.
        posted = collections.defaultdict(int)
        for m in re.finditer(r"tascell stats: rank (\d+) of \d+: .*, (\d+) requests posted through shared memory",
                             p.stderr):
            posted[int(m.group(1))] += int(m.group(2))
        if {r: n for r, n in posted.items() if n} != dict(shared_asks):
            problems.append("requests posted through shared memory per rank %s, but the trace has %s" %
                            (dict(posted), dict(shared_asks)))
    if problems:
        fail("; ".join(problems))
    if given == 0:
        fail("no piece was handed over: nothing was checked")
    print("trace ok: %d spans on %d tracks of %d processes, %d pieces handed over (each started once, %d between "
          "processes), %d requests, %d refused, %d messages sent between processes, %d suspensions"
          % (sum(len(x) for x in spans.values()), len(spans), max(1, len(process_names)), given, between,
             requests, refused, sent, suspends))


if __name__ == "__main__":
    main()
