#!/usr/bin/env python3
"""Several processes on this machine, measured side by side.

1. Steal round trip between two processes (request sent -> work taken by a
   worker, on the thief's clock), median, p10, p90 and p99, for the seed's message
   loop (TASCELL_MSG_LOOP=seed: one send in flight, a fixed 20 us sleep) and
   ours (adaptive), runs interleaved.
2. fib(35), n-queens(13) and UTS T1 with 1 process x 1 worker, 1 process x
   2 workers and 2 processes x 1 worker (mpirun; with our loop and with the
   seed's), runs interleaved; medians of the repetitions after each
   process's first; speedups against 1 worker; and (2 processes x 1) /
   (1 process x 2).

3. (--only wait) Waiting at a join: TASCELL_WAIT=nest (other work nested
   above the join) against TASCELL_WAIT=suspend (the join waits on its own
   fiber), on fib(35), n-queens(13) and UTS T1 with 2 and 3 processes x 1
   and 2 workers, runs interleaved; medians of rank 0's repetitions after
   the first, and the fiber switches per root call (TASCELL_STATS, column
   suspend of rank 0's "all" row).

4. (--only priority) The steal round trip of 1. with the message thread at
   normal priority and at real-time priority (TASCELL_MSG_PRIORITY=normal
   and auto; auto is real-time only where the system allows it, see the
   statistics line), runs interleaved: steals, median, p10, p90, p99.

5. (--only requests) The steal round trip of 1. with requests to the other
   process of this machine sent as MPI messages and posted through shared
   memory (TASCELL_NODE_REQUESTS=mpi and shared, the default), runs
   interleaved.

6. (--only hosts) Emulated hosts (tests/hosts/emulated_hosts.sh) beside this
   machine, runs interleaved: the steal round trip of 1. with 2 processes on
   this machine (requests through shared memory, the default, and by MPI)
   and on 2 emulated hosts (always by MPI, over TCP); and fib(35),
   n-queens(13), UTS T1 and T3 with 1 x 1, 1 x 2, 2 processes x 1 on this
   machine and 2 hosts x 1 (rung, and with TASCELL_REMOTE_WAKE=poll), as in
   2. Run under the hosts' script, which
   brings 2 hosts up, passes their mpirun options in TASCELL_HOSTS_MPIRUN_ARGS
   and removes them at the end:
     tests/hosts/emulated_hosts.sh exec 2 -- python3 bench/mpi/mpi_bench.py --build-dir B --only hosts

7. (--only delays) On 2 emulated hosts, at 0, 5, 20 and 100 us of one-way
   delay (TASCELL_NET_DELAY_US): the steal round trip beside an MPI
   ping-pong of 64 bytes between the same hosts (plus the delay both ways),
   with TASCELL_REMOTE_WAKE=ring (the default) and poll:
     tests/hosts/emulated_hosts.sh exec 2 -- python3 bench/mpi/mpi_bench.py --build-dir B --only delays

usage: mpi_bench.py --build-dir build/release/bench [--reps 5] [--only latency|speedup|wait|priority|requests|hosts|delays]
"""
import argparse
import glob
import os
import re
import statistics
import subprocess
import sys
import tempfile

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
MPIRUN = ["mpirun", "--oversubscribe", "--tag-output"]


def run(cmd, env):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    if p.returncode != 0:
        raise SystemExit("FAILED (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr))
    return p.stdout


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def latency_samples(reps, variants):
    """Steal round trips (us) of mpi-steal-latency 27 200 on 2 x 1 workers,
    runs interleaved. variants: {name: (directory of the binary, [settings
    NAME=VALUE][, [more mpirun options]])}."""
    samples = {name: [] for name in variants}
    for _ in range(reps):
        for name, variant in variants.items():
            build, settings = variant[0], variant[1]
            extra = variant[2] if len(variant) > 2 else []
            with tempfile.TemporaryDirectory() as outdir:
                # Each process's output from its own file: mpirun forwards
                # output in the chunks it reads, so a long line of one
                # process may be cut by another's; and --tag-output puts its
                # tag before every chunk, also inside a line (either would
                # lose a run's samples now and then).
                cmd = MPIRUN + extra + ["-np", "2", "--output-filename", outdir, "-x", "TASCELL_WORKERS=1"]
                for setting in settings:
                    cmd += ["-x", setting]
                run(cmd + [os.path.join(build, "mpi-steal-latency"), "27", "200"], ENV)
                files = sorted(glob.glob(os.path.join(outdir, "*", "rank.*", "stdout")))
                if len(files) != 2:
                    raise SystemExit("mpirun --output-filename wrote %d stdout files for 2 processes" % len(files))
                for path in files:
                    with open(path) as f:
                        text = re.sub(r"\[\d+,\d+\]<std(?:out|err)>:", "", f.read())
                    for line in text.splitlines():
                        m = re.search(r"steal_ns \d+((?: \d+)*)$", line)
                        if m:
                            samples[name] += [int(x) / 1000.0 for x in m.group(1).split()]
    return samples


def setting_samples(build, reps, setting, values):
    """latency_samples for each value of one setting."""
    return latency_samples(reps, {v: (build, ["%s=%s" % (setting, v)]) for v in values})


def latency_table(setting, samples, out):
    out.append("| %s | steals | median (us) | p10 | p90 | p99 |" % setting)
    out.append("|---|---:|---:|---:|---:|---:|")
    for value, xs in samples.items():
        if not xs:
            out.append("| %s | 0 | - | - | - | - |" % value)
            continue
        out.append("| %s | %d | %.1f | %.1f | %.1f | %.1f |" % (
            value, len(xs), statistics.median(xs), percentile(xs, 0.1), percentile(xs, 0.9), percentile(xs, 0.99)))


def steal_latency(build, reps, out):
    latency_table("message loop", setting_samples(build, reps, "TASCELL_MSG_LOOP", ["seed", "adaptive"]), out)


def priorities(build, reps, out):
    latency_table("TASCELL_MSG_PRIORITY", setting_samples(build, reps, "TASCELL_MSG_PRIORITY", ["normal", "auto"]),
                  out)


def requests(build, reps, out):
    latency_table("TASCELL_NODE_REQUESTS", setting_samples(build, reps, "TASCELL_NODE_REQUESTS", ["mpi", "shared"]),
                  out)


def times(text):
    # With --tag-output: "[1,0]<stdout>:result=... seconds=..."; the first
    # repetition of each process includes start-up and is dropped.
    per_rank = {}
    for line in text.splitlines():
        m = re.search(r"^(?:\[\d+,(\d+)\]<stdout>:)?result=\S+ seconds=([0-9.]+)", line)
        if m:
            per_rank.setdefault(m.group(1) or "0", []).append(float(m.group(2)))
    return per_rank.get("0", [])[1:]


def speedups(build, reps, out):
    problems = [("fib(35)", "fib-tascell", "35"), ("n-queens(13)", "nqueens-tascell", "13"),
                ("UTS T1", "uts-tascell", "T1")]
    configs = [("1 x 1", None, "1", None), ("1 x 2", None, "2", None), ("2 x 1", "2", "1", "adaptive"),
               ("2 x 1 seed", "2", "1", "seed")]
    out.append("| problem | 1 worker (s) | 1 process x 2 (s) | 2 processes x 1 (s) | speedup 1x2 | speedup 2x1 | 2x1 / 1x2 | 2x1 / 1x2, seed's loop |")
    out.append("|---|---|---|---|---|---|---|---|")
    for name, binary, arg in problems:
        prog = os.path.join(build, binary)
        got = {c[0]: [] for c in configs}
        for _ in range(reps):
            for label, np_, workers, loop in configs:
                if np_:
                    cmd = MPIRUN + ["-np", np_, "-x", "TASCELL_WORKERS=" + workers, "-x", "TASCELL_MSG_LOOP=" + loop,
                                    prog, arg, "3"]
                    got[label] += times(run(cmd, ENV))
                else:
                    got[label] += times(run([prog, arg, "3"], dict(ENV, TASCELL_WORKERS=workers)))
        med = {k: statistics.median(v) for k, v in got.items()}
        s12 = med["1 x 1"] / med["1 x 2"]
        s21 = med["1 x 1"] / med["2 x 1"]
        s21seed = med["1 x 1"] / med["2 x 1 seed"]
        out.append("| %s | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f | %.2f |" %
                   (name, med["1 x 1"], med["1 x 2"], med["2 x 1"], s12, s21, s21 / s12, s21seed / s12))


def suspends(text):
    # TASCELL_STATS on rank 0: the row "all", 14th column (suspend), per root call.
    got = []
    for line in text.splitlines():
        cols = re.sub(r"^\[\d+,\d+\]<stderr>:", "", line).split()
        if len(cols) >= 14 and cols[0] == "all":
            got.append(int(cols[13]))
    return got[1:]


def waits(build, reps, out):
    problems = [("fib(35)", "fib-tascell", "35"), ("n-queens(13)", "nqueens-tascell", "13"),
                ("UTS T1", "uts-tascell", "T1")]
    shapes = [("2", "1"), ("2", "2"), ("3", "1"), ("3", "2")]
    out.append("| problem | processes x workers | nest (s) | suspend (s) | suspend / nest | fiber switches per root call |")
    out.append("|---|---|---|---|---|---|")
    for name, binary, arg in problems:
        prog = os.path.join(build, binary)
        got = {(s, m): [] for s in shapes for m in ("nest", "suspend")}
        count = {s: [] for s in shapes}
        for _ in range(reps):
            for np_, workers in shapes:
                for mode in ("nest", "suspend"):
                    cmd = MPIRUN + ["-np", np_, "-x", "TASCELL_WORKERS=" + workers, "-x", "TASCELL_WAIT=" + mode,
                                    "-x", "TASCELL_STATS=1", prog, arg, "3"]
                    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=900)
                    if p.returncode != 0:
                        raise SystemExit("FAILED (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr))
                    got[((np_, workers), mode)] += times(p.stdout)
                    if mode == "suspend":
                        count[(np_, workers)] += suspends(p.stderr)
        for shape in shapes:
            n = statistics.median(got[(shape, "nest")])
            s = statistics.median(got[(shape, "suspend")])
            c = statistics.median(count[shape]) if count[shape] else float("nan")
            out.append("| %s | %s x %s | %.3f | %.3f | %.2f | %g |" % (name, shape[0], shape[1], n, s, s / n, c))


def hosts_args():
    """The mpirun options for the emulated hosts that are up (emulated_hosts.sh exec)."""
    text = os.environ.get("TASCELL_HOSTS_MPIRUN_ARGS")
    if not text:
        raise SystemExit("--only hosts runs under tests/hosts/emulated_hosts.sh exec 2 -- ... "
                         "(TASCELL_HOSTS_MPIRUN_ARGS is not set)")
    return [a for a in text.split("\n") if a]


def hosts(build, reps, out):
    remote = hosts_args()
    latency_table("2 processes x 1 worker", latency_samples(reps, {
        "one machine, requests through shared memory": (build, []),
        "one machine, requests by MPI (TASCELL_NODE_REQUESTS=mpi)": (build, ["TASCELL_NODE_REQUESTS=mpi"]),
        "2 emulated hosts (by MPI over TCP)": (build, [], remote)}), out)
    out.append("")
    problems = [("fib(35)", "fib-tascell", "35"), ("n-queens(13)", "nqueens-tascell", "13"),
                ("UTS T1", "uts-tascell", "T1"), ("UTS T3", "uts-tascell", "T3")]
    polled = remote + ["-x", "TASCELL_REMOTE_WAKE=poll"]
    configs = [("1 x 1", None, "1"), ("1 x 2", None, "2"), ("2 x 1", [], "1"), ("2 hosts x 1", remote, "1"),
               ("2 hosts x 1, poll", polled, "1")]
    out.append("| problem | 1 worker (s) | 1 process x 2 (s) | 2 processes x 1 (s) | 2 hosts x 1 (s) | 2 hosts x 1, "
               "TASCELL_REMOTE_WAKE=poll (s) | speedup 1x2 | speedup 2x1 | speedup 2 hosts x 1 | 2x1 / 1x2 | "
               "2 hosts x 1 / 1x2 | ... poll / 1x2 |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, binary, arg in problems:
        prog = os.path.join(build, binary)
        got = {c[0]: [] for c in configs}
        for _ in range(reps):
            for label, extra, workers in configs:
                if extra is not None:
                    cmd = MPIRUN + extra + ["-np", "2", "-x", "TASCELL_WORKERS=" + workers, prog, arg, "3"]
                    got[label] += times(run(cmd, ENV))
                else:
                    got[label] += times(run([prog, arg, "3"], dict(ENV, TASCELL_WORKERS=workers)))
        med = {k: statistics.median(v) for k, v in got.items()}
        s12, s21, s2h, s2p = (med["1 x 1"] / med[k] for k in ("1 x 2", "2 x 1", "2 hosts x 1", "2 hosts x 1, poll"))
        out.append("| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" %
                   (name, med["1 x 1"], med["1 x 2"], med["2 x 1"], med["2 hosts x 1"], med["2 hosts x 1, poll"],
                    s12, s21, s2h, s21 / s12, s2h / s12, s2p / s12))


def pingpong_samples(build, extra):
    """Round trips (us) of mpi-pingpong 200 64 on 2 processes."""
    text = run(MPIRUN + extra + ["-np", "2", os.path.join(build, "mpi-pingpong"), "200", "64"], ENV)
    m = re.search(r"pingpong_ns((?: \d+)*)", text)
    if not m:
        raise SystemExit("mpi-pingpong printed no round trips:\n" + text)
    return [int(x) / 1000.0 for x in m.group(1).split()]


def delays(build, reps, out):
    """The steal round trip between 2 emulated hosts beside an MPI ping-pong
    between the same hosts, at each one-way delay of the links
    (TASCELL_NET_DELAY_US), with batches from the other host ringing the
    message thread (TASCELL_REMOTE_WAKE=ring, the default) and found by
    polling only (poll). The delay lives in the runtime's transport, so
    the raw ping-pong does not see it: its column adds it twice (there and
    back), which is what a network with that latency gives. Runs of each
    delay and wake interleaved, reps rounds."""
    remote = hosts_args()
    values = (0, 5, 20, 100)
    wakes = ("ring", "poll")
    ping = {d: [] for d in values}
    steal = {(d, w): [] for d in values for w in wakes}
    for _ in range(reps):
        for d in values:
            ping[d] += [x + 2 * d for x in pingpong_samples(build, remote)]
            for w in wakes:
                settings = ["TASCELL_NET_DELAY_US=%d" % d, "TASCELL_REMOTE_WAKE=" + w]
                steal[(d, w)] += latency_samples(1, {w: (build, settings, remote)})[w]
    out.append("| one-way delay (us) | ping-pong + 2 x delay: median (us) | p99 | wake | steal round trip: median (us) "
               "| p99 | steals | steal / ping-pong: median | p99 |")
    out.append("|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    for d in values:
        pm, p99 = statistics.median(ping[d]), percentile(ping[d], 0.99)
        for w in wakes:
            xs = steal[(d, w)]
            sm, s99 = statistics.median(xs), percentile(xs, 0.99)
            out.append("| %d | %.1f | %.1f | %s | %.1f | %.1f | %d | %.2f | %.2f |" % (
                d, pm, p99, w, sm, s99, len(xs), sm / pm, s99 / p99))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--only", choices=["latency", "speedup", "wait", "priority", "requests", "hosts", "delays"])
    args = ap.parse_args()
    out = []
    if args.only == "delays":
        delays(args.build_dir, args.reps, out)
        print("\n".join(out))
        return
    if args.only == "hosts":
        hosts(args.build_dir, args.reps, out)
        print("\n".join(out))
        return
    if args.only == "priority":
        priorities(args.build_dir, args.reps, out)
        print("\n".join(out))
        return
    if args.only == "requests":
        requests(args.build_dir, args.reps, out)
        print("\n".join(out))
        return
    if args.only == "wait":
        waits(args.build_dir, args.reps, out)
        print("\n".join(out))
        return
    if args.only != "speedup":
        steal_latency(args.build_dir, args.reps, out)
        out.append("")
    if args.only != "latency":
        speedups(args.build_dir, args.reps, out)
    print("\n".join(out))


if __name__ == "__main__":
    main()
