#!/usr/bin/env bash
# tascell-trace on real traces of n-queens 13, on 2 workers and on 2
# processes x 1 worker (the timelines of docs/tracing.md): the summary names
# every worker and counts the pieces, and each SVG timeline (whole, and a
# window of it) renders to a PNG with a real renderer (rsvg-convert).
# usage: check_trace_tool.sh TASCELL_TRACE_TOOL MPIEXEC PROGRAM   (PROGRAM: tests/mpi's mpi_programs)
set -euo pipefail
tool=$1 mpiexec=$2 prog=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

png_ok() {
  python3 - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert w >= 600 and h >= 60, (w, h)
print("timeline rendered: %s, %dx%d PNG" % (sys.argv[1].split("/")[-1], w, h))
PY
}

echo "== n-queens 13 on 2 workers"
TASCELL_TRACE="$tmp/w2.json" TASCELL_WORKERS=2 "$prog" nqueens13 > /dev/null
"$tool" summary "$tmp/w2.json" | tee "$tmp/w2.txt"
grep -q "^worker 0 " "$tmp/w2.txt"
grep -q "^worker 1 " "$tmp/w2.txt"
grep -q "pieces handed over: [1-9]" "$tmp/w2.txt"
grep -q "steal latency inside processes" "$tmp/w2.txt"
grep -q "depth in the task tree of the work given away" "$tmp/w2.txt"
"$tool" svg "$tmp/w2.json" -o "$tmp/w2.svg"
"$tool" svg "$tmp/w2.json" -o "$tmp/w2-window.svg" --from 0 --to 1
for f in w2 w2-window; do
  rsvg-convert "$tmp/$f.svg" -o "$tmp/$f.png"
  png_ok "$tmp/$f.png"
done

echo "== n-queens 13 on 2 processes x 1 worker"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 TASCELL_TRACE="$tmp/np2.json" TASCELL_WORKERS=1 \
  "$mpiexec" --oversubscribe -np 2 -x TASCELL_TRACE -x TASCELL_WORKERS "$prog" nqueens13 > /dev/null
"$tool" summary "$tmp/np2.json".* | tee "$tmp/np2.txt"
grep -q "^r0 w0 " "$tmp/np2.txt"
grep -q "^r1 w0 " "$tmp/np2.txt"
grep -q "^r1 msg .* [1-9][0-9]* messages" "$tmp/np2.txt"
grep -q "[1-9][0-9]* between processes" "$tmp/np2.txt"
grep -q "steal latency between processes" "$tmp/np2.txt"
grep -q "a steal between processes, median per step" "$tmp/np2.txt"
grep -q "a process's request for work after all its workers went idle: median [0-9.]* us, p90 [0-9.]* us ([1-9][0-9]* requests" \
  "$tmp/np2.txt"
"$tool" svg "$tmp/np2.json".* -o "$tmp/np2.svg"
rsvg-convert "$tmp/np2.svg" -o "$tmp/np2.png"
png_ok "$tmp/np2.png"
"$tool" merge "$tmp/np2.json".* -o "$tmp/np2-merged.json"
"$tool" summary "$tmp/np2-merged.json" > "$tmp/merged.txt"
grep -q "2 processes, 2 workers" "$tmp/merged.txt"

echo "== a trace cut at TASCELL_TRACE_RECORDS says so, and stays readable"
TASCELL_TRACE="$tmp/cut.json" TASCELL_TRACE_RECORDS=1000 TASCELL_WORKERS=2 "$prog" nqueens fib minloop --repeat 20 \
  > /dev/null 2> "$tmp/cut.err"
grep -q "tascell: rank 0: the trace of worker [01] was cut after 1000 records (TASCELL_TRACE_RECORDS); [0-9]* later" \
  "$tmp/cut.err"
python3 - "$tmp/cut.json" <<'PY'
import collections, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
per = collections.Counter(e["tid"] for e in ev if e["ph"] != "M")
assert per and max(per.values()) <= 1000, per
assert any(e["name"] == "thread_dropped" for e in ev if e["ph"] == "M")
print("cut trace ok: records per worker", dict(per))
PY
"$tool" summary "$tmp/cut.json" > /dev/null

echo "== bad input: a clear error"
echo '{"traceEvents": 1' > "$tmp/bad.json"
if "$tool" summary "$tmp/bad.json" 2> "$tmp/err.txt"; then exit 1; fi
grep -q "cannot read .*bad.json as a trace" "$tmp/err.txt"
if "$tool" summary "$tmp/np2.json.0" "$tmp/np2.json.0" 2> "$tmp/err.txt"; then exit 1; fi
grep -q "same rank" "$tmp/err.txt"
echo "tool ok"
