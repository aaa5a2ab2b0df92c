#!/usr/bin/env python3
"""Table files against the disk, side by side in one run: save and load
throughput of the KQKR tables (lang-examples/retro.tcpp --tables: two
tables, 50 MB raw) beside dd's sequential write and read of as many bytes
on the same file system, round by round; the stored size against the raw
size; probe latency with a warm cache and a cold one.

Each round: dd writes the raw size (conv=fdatasync: to the disk, as a save
syncs its files) and reads it back (iflag=direct: from the disk); then for
each codec and layout (processes x workers) table-files-bench loads
the saved tables (their pages dropped from the page cache first, dd
iflag=nocache) and saves them again. Throughput is raw bytes per second;
the ratios are taken within a round and shown as median and range.

  python3 bench/tables/files_bench.py [--rounds 5] [--codecs zstd,lz4,lz4:-4,zstd/raw,lz4/raw] [--layouts 1x2,2x1] [--dir D]

--codecs: each a codec with an optional level (zstd:-20) and "/raw" for
blocks stored without byte planes (lz4/raw).

Needs a built tree (build/release: tascell++, bench/table-files-bench).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")


def run(cmd, env=ENV, timeout=600):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    if p.returncode != 0:
        raise SystemExit("FAILED (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr[-3000:]))
    return p.stdout + p.stderr


def dd_rate(out):
    m = re.search(r"(\d+) bytes .* copied, ([\d.]+) s", out)
    return int(m.group(1)) / float(m.group(2))


def drop_cache(d):
    for base, _, names in os.walk(d):
        for n in names:
            subprocess.run(["dd", "if=" + os.path.join(base, n), "iflag=nocache", "count=0", "status=none"])


def stored_bytes(d):
    return sum(os.path.getsize(os.path.join(b, n)) for b, _, ns in os.walk(d) for n in ns)


def spread(xs):
    return "%.2f (%.2f-%.2f)" % (statistics.median(xs), min(xs), max(xs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--codecs", default="zstd,lz4,lz4:-4,zstd/raw,lz4/raw")
    ap.add_argument("--layouts", default="1x2,2x1")
    ap.add_argument("--dir", help="where the files go (default: a temporary directory under /tmp)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    o = ap.parse_args()
    codecs = o.codecs.split(",")
    layouts = [tuple(int(v) for v in x.split("x")) for x in o.layouts.split(",")]
    tascellxx = os.path.join(o.build, "compiler", "driver", "tascell++")
    bench = os.path.join(o.build, "bench", "table-files-bench")
    mpirun = shutil.which("mpirun")
    tmp = tempfile.mkdtemp(prefix="tascell-files-bench-", dir=o.dir)
    try:
        retro = os.path.join(tmp, "retro")
        run([tascellxx, "-O2", os.path.join(ROOT, "lang-examples", "retro.tcpp"), "-o", retro])
        src = os.path.join(tmp, "src")
        run([mpirun, "-np", "1", retro, "--no-check", "--tables", src, "KQK", "KQKR"])
        raw = None
        dd_w, dd_r = [], []
        res = {}  # (codec, layout) -> lists of (save rate, load rate, save ratio, load ratio)
        sizes = {}
        for r in range(o.rounds):
            ddf = os.path.join(tmp, "dd.bin")
            if raw is None:
                out = run([bench, "resave", os.path.join(src, "KQKR"), os.path.join(tmp, "warm", "KQKR")])
                raw = int(re.search(r"raw (\d+) bytes", out).group(1))
            mib = raw // (1 << 20)
            w = dd_rate(run(["dd", "if=/dev/zero", "of=" + ddf, "bs=1M", "count=%d" % mib, "conv=fdatasync"]))
            rd = dd_rate(run(["dd", "if=" + ddf, "of=/dev/null", "bs=1M", "iflag=direct"]))
            os.remove(ddf)
            dd_w.append(w)
            dd_r.append(rd)
            for ci, codec in enumerate(codecs):
                name, _, planes = codec.partition("/")
                name, _, level = name.partition(":")
                args = ["--codec", name] + (["--level", level] if level else []) + (["--raw"] if planes == "raw" else [])
                for procs, workers in layouts:
                    dst = os.path.join(tmp, "C%d-%dx%d" % (ci, procs, workers))
                    shutil.rmtree(dst, ignore_errors=True)
                    drop_cache(src)
                    out = run([mpirun, "--oversubscribe", "--bind-to", "none", "-np", str(procs), "-x",
                               "TASCELL_WORKERS=%d" % workers, bench, "resave", os.path.join(src, "KQKR"),
                               os.path.join(dst, "KQKR")] + args)
                    m = re.search(r"load ([\d.]+) s save ([\d.]+) s", out)
                    load_s, save_s = float(m.group(1)), float(m.group(2))
                    res.setdefault((ci, procs, workers), []).append(
                        (raw / save_s, raw / load_s, raw / save_s / w, raw / load_s / rd))
                    sizes[ci] = stored_bytes(dst)
            print("round %d done" % (r + 1), file=sys.stderr)
        print("KQKR tables (wtm + btm): %d bytes raw; %d rounds" % (raw, o.rounds))
        print("dd write (fdatasync) %.0f MB/s (%s), dd read (direct) %.0f MB/s (%s)" % (
            statistics.median(dd_w) / 1e6, "%.0f-%.0f" % (min(dd_w) / 1e6, max(dd_w) / 1e6),
            statistics.median(dd_r) / 1e6, "%.0f-%.0f" % (min(dd_r) / 1e6, max(dd_r) / 1e6)))
        print("| codec | layout | save MB/s | save / dd write | load MB/s | load / dd read | stored / raw |")
        print("|---:|---|---:|---|---:|---|---:|")
        for (ci, procs, workers), xs in sorted(res.items()):
            print("| %s | %d x %d | %.0f | %s | %.0f | %s | %.3f |" % (
                codecs[ci], procs, workers, statistics.median(x[0] for x in xs) / 1e6, spread([x[2] for x in xs]),
                statistics.median(x[1] for x in xs) / 1e6, spread([x[3] for x in xs]), sizes[ci] / raw))
        btm = os.path.join(src, "KQKR-btm")
        for what, args in (("warm (every block cached)", ["--gets", "2000000", "--cache", "1024"]),
                           ("cold (a cache of 1 block)", ["--gets", "20000", "--cache", "1"])):
            lat = []
            for _ in range(3):
                out = run([bench, "probe", btm] + args)
                lat.append(float(re.search(r"([\d.]+) ns per get", out).group(1)))
            print("probe %s: %s ns per get (3 runs: %s)" % (what, "%.0f" % statistics.median(lat),
                                                            ", ".join("%.0f" % x for x in lat)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
