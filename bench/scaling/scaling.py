#!/usr/bin/env python3
"""Drives the scaling simulator (scaling-sim): calibration from measured
costs, validation against real runs, the prediction sweep, and the table and
SVG plot of docs/scaling.md.

usage:
  scaling.py validate --sim build/release/bench/scaling-sim \
      [--measured bench/scaling/measured.json] [--out bench/scaling/validation.json]
  scaling.py sweep --sim ... [--sizes 36,72,...] [--out bench/scaling/sweep.json]
  scaling.py report [--validation ...] [--sweep ...] [--svg docs/scaling-efficiency.svg]

Measured inputs come from measure.py (medians of interleaved runs).
"""
import argparse
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The machine the project runs on (a 2-core VM; see docs/scaling.md).
THIS_MACHINE = {
    "--latency": 2e-6,       # one way between the message threads of two local processes
    "--bandwidth": 2e9,
    "--handle": 2e-6,        # message thread's work per message
    "--net-wake": 15e-6,     # a sleeping thread runs again on a shared, oversubscribed core
    "--wake": 15e-6,
    "--take": 5e-6,
}
# A cluster of 36-core nodes on InfiniBand FDR (the seed's Reedbush-U).
CLUSTER = {
    "--latency": 1.5e-6,
    "--bandwidth": 6e9,
    "--handle": 1e-6,
    "--net-wake": 5e-6,
    "--wake": 5e-6,
    "--take": 1e-6,
}
LOCAL = {"--signal": 0.2e-6, "--give": 1.0e-6, "--refuse": 0.3e-6, "--start": 0.5e-6, "--loop": 0.3e-6,
         "--yield": 1e-6}
SIM_SPEED = {"--spin-quantum": 25e-6, "--nap-quantum": 100e-6}

FIB_N = 52
UTS_TREE = "T1L"
NQ_N = 19


def run_sim(sim, tree, cost, layouts, remotes, params, extra=()):
    cmd = [sim, "--tree", tree, "--cost", repr(cost)]
    for l in layouts:
        cmd += ["--layout", l]
    for r in remotes:
        cmd += ["--remote", r]
    for k, v in params.items():
        cmd += [k, repr(v)]
    cmd += list(extra)
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    lines = [json.loads(x) for x in out.splitlines() if x.strip()]
    return lines[0], lines[1:]


def tree_nodes(sim, tree, extra=()):
    head, _ = run_sim(sim, tree, 1e-9, ["1x1"], ["loaded"], {}, extra)
    return head["nodes"]


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else None


def costs(sim, m):
    """Seconds per node of each benchmark's Tascell++ binary on one worker (medians)."""
    med = m["median"]
    exact = ["--nq-all-exact"]
    n = {k: tree_nodes(sim, "nqueens:%d" % k, exact) for k in (12, 13, 14)}
    c = {
        "nqueens 13": med["threads"]["nqueens 13 w1"] / n[13],
        "fib 35": med["threads"]["fib 35 w1"] / (2 * 14930352 - 1),
        "uts T1": med["threads"]["uts T1 w1"] / 4130071,
    }
    # n-queens 19: the cost per node of n = 13. It grows a little with n (n
    # iterations, a longer safe() scan), but the sequential runs of 12..14 on
    # this noisy machine do not show a clean trend; a lower cost per node is
    # the pessimistic choice (latencies weigh more).
    seq = {k: med["seq"]["nqueens %d" % k] / n[k] for k in (12, 13, 14)}
    c["nqueens 19"] = c["nqueens 13"]
    c["_nodes"] = n
    c["_seq_per_node"] = seq
    c["_overhead"] = {
        "nqueens": med["threads"]["nqueens 13 w1"] / med["seq"]["nqueens 13"],
        "fib": med["threads"]["fib 35 w1"] / med["seq"]["fib 35"],
        "uts": med["threads"]["uts T1 w1"] / med["seq"]["uts T1"],
    }
    return c


def unwind_frame_costs(m):
    """Seconds per lazy frame saved and rebuilt, by problem, when the measured
    runs are of the translated programs (measure.py --variant tcpp), whose fib
    and n-queens are lazy functions; {} for the hand-written (eager) ones."""
    if m.get("variant") != "tcpp":
        return {}
    return {kind: u["us_per_frame"] * 1e-6 for kind, u in m["median"].get("unwind", {}).items()}


def poll_for(kind, cost):
    # A running worker polls at every loop iteration (n-queens, UTS) or
    # every call (fib): at most one node's time apart.
    return cost if kind == "fib" else cost / 2


def validate(a):
    m = json.load(open(a.measured))
    c = costs(a.sim, m)
    med = m["median"]
    rows = []
    cases = [("nqueens", "nqueens:13", "nqueens 13", ["--nq-all-exact"]), ("fib", "fib:35", "fib 35", []),
             ("uts", "uts:T1", "uts T1", [])]
    lazy = unwind_frame_costs(m)
    for kind, tree, key, extra in cases:
        cost = c[key]
        params = dict(THIS_MACHINE, **LOCAL)
        params["--poll"] = poll_for(kind, cost)
        params["--cores"] = 2
        if kind in lazy:
            params["--unwind-frame"] = lazy[kind]
        # Each group is calibrated on its own 1-worker run: under mpirun
        # (procs) when there is one, else the plain 1-worker run.
        p1 = med["procs"].get(key + " p1")
        cost_procs = cost * p1 / med["threads"][key + " w1"] if p1 else cost
        for label, lay, group, mkey in [("1 process x 1", "1x1", "threads", key + " w1"),
                                         ("1 process x 2", "1x2", "threads", key + " w2"),
                                         ("mpirun, 1 process x 1", "1x1", "procs", key + " p1"),
                                         ("2 processes x 1", "2x1", "procs", key + " p2"),
                                         ("3 processes x 1", "3x1", "procs", key + " p3")]:
            if med[group].get(mkey) is None:
                continue
            c_run = cost if group == "threads" else cost_procs
            _, res = run_sim(a.sim, tree, c_run, [lay], ["loaded"], params, extra + ["--seeds", "5"])
            pred = median([r["seconds"] for r in res])
            pieces = median([r["pieces_local"] + r["pieces_remote"] for r in res])
            unw = median([r["unwindings"] for r in res]) if kind in lazy else None
            rtt = median([r["remote_steal_median"] for r in res if r["remote_steal_median"] > 0])
            meas = med[group].get(mkey)
            if meas is None:
                continue
            rows.append({"problem": key, "config": label, "predicted_s": pred, "measured_s": meas,
                         "error": (pred - meas) / meas if meas else None, "pieces_predicted": pieces,
                         "pieces_measured": med["pieces"].get(mkey), "remote_steal_us": rtt * 1e6 if rtt else None,
                         "unwindings_predicted": unw,
                         "unwindings_measured": med.get("unwindings", {}).get(mkey) if kind in lazy else None})
    out = {"costs": c, "rows": rows, "variant": m.get("variant", "tascell"), "unwind_frame": lazy, "uptime": m.get("uptime"), "remote_rtt_us_measured": med.get("remote_rtt_us"),
           "local_steal_us_measured": med.get("local_ok_us"), "this_machine": THIS_MACHINE, "local": LOCAL}
    json.dump(out, open(a.out, "w"), indent=1)
    for r in rows:
        print("%-11s %-21s predicted %.4f measured %.4f error %+.1f%%  pieces %s / %s  rtt(us) %s%s" % (
            r["problem"], r["config"], r["predicted_s"], r["measured_s"], 100 * r["error"], r["pieces_predicted"],
            r["pieces_measured"], r["remote_steal_us"],
            "  unwindings %s / %s" % (r["unwindings_predicted"], r["unwindings_measured"])
            if r["unwindings_predicted"] is not None else ""))


def layout_for(n, per_node=36):
    p, r = divmod(n, per_node)
    if p == 0:
        return "1x%d" % n
    return "%dx%d" % (p, per_node) + ("+%d" % r if r else "")


def sweep(a):
    v = json.load(open(a.validation))
    c = v["costs"]
    sizes = [int(x) for x in a.sizes.split(",")]
    remotes = a.remotes.split(",")
    trees = [("nqueens", "nqueens:%d" % NQ_N, c["nqueens 19"], ["--nq-probes", "16"]),
             ("fib", "fib:%d" % FIB_N, c["fib 35"], []),
             ("uts", "uts:%s" % UTS_TREE, c["uts T1"], [])]
    lazy = v.get("unwind_frame", {})
    if v.get("variant") == "tcpp":
        # The translated programs: UTS is eager there as in the hand-written
        # one, so only fib and n-queens have curves of their own.
        trees = [t for t in trees if t[0] in lazy]
    if a.only:
        trees = [t for t in trees if t[0] in a.only.split(",")]
    nets = [("cluster", CLUSTER)] + ([("this machine", THIS_MACHINE)] if a.this_machine else [])
    if a.only_this_machine:
        nets = [("this machine", THIS_MACHINE)]
    results = json.load(open(a.out)) if os.path.exists(a.out) and a.resume else []
    for kind, tree, cost, extra in trees:
        for net_name, net in nets:
            if net_name == "this machine" and kind != "nqueens":
                continue
            params = dict(net, **LOCAL, **SIM_SPEED)
            params["--poll"] = poll_for(kind, cost)
            if a.latency is not None:
                params["--latency"] = a.latency
            if kind in lazy:
                params["--unwind-frame"] = lazy[kind]
            label = kind + ("-tcpp" if v.get("variant") == "tcpp" else "")
            # Subtrees below the grain are never split (for speed): 1/2000
            # of the work per worker, at least 0.2 ms.
            cmd = [a.sim, "--tree", tree, "--cost", repr(cost), "--grain", "2e-4", "--grain-fraction", "5e-4"]
            for n in sizes:
                cmd += ["--layout", layout_for(n)]
            for r in remotes:
                cmd += ["--remote", r]
            for k, val in params.items():
                cmd += [k, repr(val)]
            cmd += extra
            if a.largest_first:
                cmd += ["--largest-first"]
            if a.giver_largest:
                cmd += ["--remote-giver-largest"]
            if a.rings:
                cmd += ["--rings", "--ring-wake", repr(net["--net-wake"])]
            if a.group:
                cmd += ["--group", str(a.group)]
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
            head = None
            for line in p.stdout:
                r = json.loads(line)
                if head is None:
                    head = r
                    continue
                if a.largest_first:
                    r["remote"] += "+largest-first"
                if a.giver_largest:
                    r["remote"] += "+giver-largest"
                if a.rings:
                    r["remote"] += "+rings"
                if a.latency is not None:
                    r["latency"] = a.latency
                r.update({"kind": label, "net": net_name, "cost": cost, "seq_overhead": c["_overhead"][kind],
                          "efficiency_vs_seq": r["efficiency"] / c["_overhead"][kind]})
                results.append(r)
                json.dump(results, open(a.out, "w"), indent=1)
                print("%-12s %-13s %-7s %5d  eff %.4f  vs seq %.4f  grain %.2g  %.1fs wall" % (
                    label, net_name, r["remote"], r["workers_total"], r["efficiency"], r["efficiency_vs_seq"],
                    r["grain"], r["wall_s"]), flush=True)
            p.wait()


def svg_plot(results, path):
    W, H, L, R, T, B = 1040, 560, 70, 330, 40, 60
    xs = sorted({r["workers_total"] for r in results})
    lx = lambda n: L + (math.log2(n) - math.log2(xs[0])) / (math.log2(xs[-1]) - math.log2(xs[0])) * (W - L - R)
    ly = lambda e: T + (1 - e) * (H - T - B)
    colors = {"nqueens": "#1f77b4", "fib": "#d62728", "uts": "#2ca02c", "fib-tcpp": "#ff7f0e",
              "nqueens-tcpp": "#9467bd"}
    dashes = {"random": "6,4", "loaded": "", "random+largest-first": "2,3"}
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="22" font-size="15">Predicted parallel efficiency (vs 1 worker), 36 workers per process</text>' % L]
    for e in [0, 0.2, 0.4, 0.6, 0.8, 1.0]:
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (L, ly(e), W - R, ly(e)))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%.1f</text>' % (L - 6, ly(e) + 4, e))
    for n in xs:
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>' % (lx(n), T, lx(n), H - B))
        out.append('<text x="%.1f" y="%d" text-anchor="middle" font-size="10">%d</text>' % (
            lx(n), H - B + (28 if n == 8192 else 16), n))
    out.append('<text x="%d" y="%d" text-anchor="middle">workers (log scale)</text>' % ((L + W - R) // 2, H - 18))
    out.append('<text x="16" y="%d" transform="rotate(-90 16 %d)" text-anchor="middle">efficiency</text>' % ((T + H - B) // 2, (T + H - B) // 2))
    # The seed's point: 7,168 workers, n-queens 19, speedup 4,615 (vs sequential C).
    sx, sy = lx(7168), ly(4615 / 7168)
    out.append('<circle cx="%.1f" cy="%.1f" r="6" fill="none" stroke="black" stroke-width="2"/>' % (sx, sy))
    out.append('<text x="%.1f" y="%.1f" text-anchor="end">seed (K computer): 0.64 vs sequential</text>' % (sx - 8, sy + 34))
    series = {}
    for r in results:
        series.setdefault((r["kind"], r["net"], r["remote"]), []).append(r)
    ly0 = T + 10
    for (kind, net, rem), rs in sorted(series.items()):
        rs.sort(key=lambda r: r["workers_total"])
        pts = " ".join("%.1f,%.1f" % (lx(r["workers_total"]), ly(min(1, r["efficiency"]))) for r in rs)
        width = 2.5 if net == "cluster" else 1.2
        dash = dashes.get(rem, "")
        out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="%.1f"%s/>' % (
            pts, colors[kind], width, ' stroke-dasharray="%s"' % dash if dash else ""))
        for r in rs:
            # Hollow: the coarse settings (a pessimistic bound, see docs/scaling.md).
            fill = "white" if r.get("coarse") else colors[kind]
            out.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="%s"/>' % (
                lx(r["workers_total"]), ly(min(1, r["efficiency"])), 4 if r.get("coarse") else 2.5, fill, colors[kind]))
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%.1f"%s/>' % (
            W - R + 10, ly0, W - R + 40, ly0, colors[kind], width, ' stroke-dasharray="%s"' % dash if dash else ""))
        name = {"nqueens": "n-queens %d" % NQ_N, "fib": "Fib(%d)" % FIB_N, "uts": "UTS %s" % UTS_TREE,
                "fib-tcpp": "Fib(%d) translated" % FIB_N, "nqueens-tcpp": "n-queens %d translated" % NQ_N}[kind]
        out.append('<text x="%d" y="%d" font-size="11">%s, %s, %s</text>' % (W - R + 45, ly0 + 4, name, rem, net))
        ly0 += 18
    if any(r.get("coarse") for r in results):
        out.append('<text x="%d" y="%d" font-size="10">hollow: coarse simulation (lower bound)</text>' % (
            W - R + 10, ly0 + 8))
    out.append('<text x="%d" y="%d" font-size="10">thick: cluster figures; thin: this machine</text>' % (W - R + 10, ly0 + 22))
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")


def report(a):
    v = json.load(open(a.validation))
    print("### Validation\n")
    lazy = any(r.get("unwindings_predicted") is not None for r in v["rows"])
    print("| problem | configuration | predicted (s) | measured (s) | error | pieces predicted | pieces measured |" +
          (" unwindings predicted | unwindings measured |" if lazy else ""))
    print("|---|---|---:|---:|---:|---:|---:|" + ("---:|---:|" if lazy else ""))
    for r in v["rows"]:
        extra = ""
        if lazy:
            extra = " %s | %s |" % tuple("-" if r.get(k) is None else "%g" % r[k]
                                         for k in ("unwindings_predicted", "unwindings_measured"))
        print("| %s | %s | %.4f | %.4f | %+.1f%% | %s | %s |" % (r["problem"], r["config"], r["predicted_s"],
                                                          r["measured_s"], 100 * r["error"], r["pieces_predicted"],
                                                          r["pieces_measured"]) + extra)
    if not os.path.exists(a.sweep):
        return
    s = json.load(open(a.sweep))
    sizes = sorted({r["workers_total"] for r in s})
    all_keys = sorted({(r["kind"], r["net"], r["remote"]) for r in s})
    # One table for the hand-written programs (a point per @dowork), one for
    # the translated ones (kinds ending in -tcpp: lazy fib and n-queens).
    for title, keys in (("hand-written programs", [k for k in all_keys if not k[0].endswith("-tcpp")]),
                        ("translated programs", [k for k in all_keys if k[0].endswith("-tcpp")])):
        if not keys:
            continue
        print("\n### Predicted efficiency, %s (vs 1 worker; in brackets vs the sequential program)\n" % title)
        print("| workers | " + " | ".join("%s %s %s" % k for k in keys) + " |")
        print("|---:|" + "---:|" * len(keys))
        for n in sizes:
            cells = []
            for k in keys:
                rr = [r for r in s if (r["kind"], r["net"], r["remote"]) == k and r["workers_total"] == n]
                cells.append("%.3f (%.3f)" % (rr[0]["efficiency"], rr[0]["efficiency_vs_seq"]) if rr else "-")
            print("| %d | %s |" % (n, " | ".join(cells)))
    svg_plot(s, a.svg)
    print("\n(plot written to %s)" % a.svg)


def merge(a):
    """Appends raw scaling-sim output (JSON lines) to a sweep file, labelled."""
    v = json.load(open(a.validation))
    results = json.load(open(a.out)) if os.path.exists(a.out) else []
    for path in a.files:
        if path.endswith(".json"):  # a sweep file: taken as it is
            for r in json.load(open(path)):
                results = [x for x in results if (x["kind"], x["net"], x["remote"], x["workers_total"]) !=
                           (r["kind"], r["net"], r["remote"], r["workers_total"])]
                results.append(r)
            continue
        for line in open(path):
            r = json.loads(line)
            if "workers_total" not in r:
                continue
            r.update({"kind": a.kind, "net": a.net, "coarse": a.coarse,
                      "seq_overhead": v["costs"]["_overhead"][a.kind],
                      "efficiency_vs_seq": r["efficiency"] / v["costs"]["_overhead"][a.kind]})
            if a.label:
                r["remote"] = a.label
            results = [x for x in results if (x["kind"], x["net"], x["remote"], x["workers_total"]) !=
                       (r["kind"], r["net"], r["remote"], r["workers_total"])]
            results.append(r)
    json.dump(results, open(a.out, "w"), indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["validate", "sweep", "report", "merge"])
    ap.add_argument("files", nargs="*", help="merge: scaling-sim outputs")
    ap.add_argument("--kind", default="nqueens")
    ap.add_argument("--net", default="cluster")
    ap.add_argument("--label", default="")
    ap.add_argument("--coarse", action="store_true")
    ap.add_argument("--sim", default=os.path.join(ROOT, "build/release/bench/scaling-sim"))
    ap.add_argument("--measured", default=os.path.join(HERE, "measured.json"))
    ap.add_argument("--validation", default=os.path.join(HERE, "validation.json"))
    ap.add_argument("--sweep", default=os.path.join(HERE, "sweep.json"))
    ap.add_argument("--out")
    ap.add_argument("--sizes", default="36,72,144,288,576,1152,2304,4608,7168,8192")
    ap.add_argument("--remotes", default="random,loaded")
    ap.add_argument("--only", default="")
    ap.add_argument("--this-machine", action="store_true", help="also the n-queens curve with this machine's network")
    ap.add_argument("--only-this-machine", action="store_true", help="only this machine's network")
    ap.add_argument("--largest-first", action="store_true",
                    help="model-only proposal: remote requests go to the worker with the largest piece")
    ap.add_argument("--giver-largest", action="store_true",
                    help="the runtime's TASCELL_REMOTE_GIVER=largest (its default)")
    ap.add_argument("--latency", type=float, help="sweep: s one way between processes (instead of the net's)")
    ap.add_argument("--rings", action="store_true",
                    help="sweep: messages ring the receiving message thread (TASCELL_REMOTE_WAKE=ring), which "
                         "runs the net's --net-wake after one")
    ap.add_argument("--group", type=int, help="sweep: processes per group of the hierarchical victim choice")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--svg", default=os.path.join(ROOT, "docs/scaling-efficiency.svg"))
    a = ap.parse_args()
    if a.what == "validate":
        a.out = a.out or a.validation
        validate(a)
    elif a.what == "sweep":
        a.out = a.out or a.sweep
        sweep(a)
    elif a.what == "merge":
        a.out = a.out or a.sweep
        merge(a)
    else:
        report(a)


if __name__ == "__main__":
    main()
