#!/bin/sh
# Rebuilds sweep-all.json from the sweep files and the coarse runs (run from bench/scaling).
set -e
rm -f sweep-all.json
python3 scaling.py merge sweep.json sweep-fib-uts.json sweep-fib-uts-largest.json sweep-nq-this-machine.json sweep-nq-largest.json --out sweep-all.json
for f in runs/nq19-7168-random-coarse.jsonl runs/nq19-7168-loaded-coarse.jsonl runs/nq19-8192-coarse.jsonl runs/nq19-4608-2304-coarse.jsonl; do
  python3 scaling.py merge "$f" --coarse --out sweep-all.json
done
for f in runs/nq19-7168-random-largest-coarse.jsonl runs/nq19-8192-random-largest-coarse.jsonl runs/nq19-4608-2304-random-largest-coarse.jsonl; do
  python3 scaling.py merge "$f" --coarse --label random+largest-first --out sweep-all.json
done
python3 scaling.py report --sweep sweep-all.json
