#!/usr/bin/env bash
# tascell-trace on a real trace: the summary names every worker, and the SVG
# timeline renders to a PNG with a real renderer (rsvg-convert).
# usage: check_trace_tool.sh TASCELL_TRACE_TOOL PROGRAM ARGS...
set -euo pipefail
tool=$1; shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TASCELL_TRACE="$tmp/t.json" TASCELL_WORKERS=2 "$@" > /dev/null
"$tool" summary "$tmp/t.json" | tee "$tmp/summary.txt"
grep -q "^worker 0 " "$tmp/summary.txt"
grep -q "^worker 1 " "$tmp/summary.txt"
grep -q "pieces handed over: [1-9]" "$tmp/summary.txt"
"$tool" svg "$tmp/t.json" -o "$tmp/t.svg"
"$tool" svg "$tmp/t.json" -o "$tmp/window.svg" --from 0 --to 1
rsvg-convert "$tmp/t.svg" -o "$tmp/t.png"
rsvg-convert "$tmp/window.svg" -o "$tmp/window.png"
python3 - "$tmp/t.png" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert w >= 600 and h >= 60, (w, h)
print("timeline rendered: %dx%d PNG" % (w, h))
PY
