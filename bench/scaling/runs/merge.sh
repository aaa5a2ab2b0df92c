#!/bin/sh
# Rebuilds sweep-all.json from the sweep files (run from bench/scaling), then
# prints the tables and writes docs/scaling-efficiency.svg. Every point is
# the fine simulation (the coarse runs in runs/*coarse*.jsonl are not
# merged; docs/scaling.md compares them).
set -e
rm -f sweep-all.json
python3 scaling.py merge sweep.json sweep-fib-uts.json sweep-fib-uts-largest.json sweep-nq-this-machine.json \
    sweep-nq-largest.json sweep-nq-large-fine.json sweep-nq-largest-large-fine.json \
    sweep-fib-tcpp.json sweep-fib-tcpp-largest.json sweep-nq-tcpp.json sweep-nq-tcpp-large.json --out sweep-all.json
python3 scaling.py report --sweep sweep-all.json
