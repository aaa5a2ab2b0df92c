#!/bin/bash
# A developer's aid, not run by CI: repeats one mpirun of mpi_programs until
# a run lasts longer than LIMIT seconds, then writes every rank's threads
# (gdb) and the run's output to OUT_DIR, and stops the run. For the rare
# hangs seen once in CI (mpi.incumbents under ASan, session 13; a 2x2 fib,
# session 11). Before the stacks, SIGUSR1 makes every process print what it
# has out and in (docs/cluster.md, "When a run seems to hang").
#
# usage: tests/mpi/hunt_hang.sh MPI_PROGRAMS OUT_DIR LIMIT NP WORKERS PROGRAM-ARGS...
#   e.g. tests/mpi/hunt_hang.sh build/address/tests/mpi/mpi_programs /tmp/hunt 40 3 1 knapsack --repeat 6
# Environment: TASCELL_* settings pass through (-x) when set, e.g.
# TASCELL_TRACE=/tmp/hunt/t.json TASCELL_INCUMBENT=random. OUT_DIR/runs.txt holds
# the number of the run under way. TASCELL_WATCHDOG is 10 s unless set.
set -u
prog=$1 out=$2 limit=$3 np=$4 workers=$5
shift 5
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} TASCELL_WORKERS=$workers
# A waiting worker says so (and what its process knows of the proxy it asked)
# well before LIMIT: the output then names the state along with the stacks.
export TASCELL_WATCHDOG=${TASCELL_WATCHDOG:-10}
passed=()
for v in $(env | grep -o '^TASCELL_[A-Z_]*'); do passed+=(-x "$v"); done
for i in $(seq 1 100000); do
  echo "$i" > "$out/runs.txt"  # how many runs so far (the evidence when none hangs)
  mpirun --oversubscribe -np "$np" "${passed[@]}" "$prog" "$@" > "$out/output.txt" 2>&1 &
  run=$!
  for _ in $(seq 1 "$limit"); do
    sleep 1
    kill -0 "$run" 2>/dev/null || break
  done
  if kill -0 "$run" 2>/dev/null; then
    echo "run $i lasted over $limit s; what each process has out and in (SIGUSR1) in $out/output.txt, stacks in $out/stacks.txt"
    pkill -USR1 -x mpirun  # mpirun forwards it: every process prints its pieces, requests and workers
    sleep 2
    for pid in $(pgrep -f "$prog"); do
      echo "=== pid $pid"
      gdb -p "$pid" -batch -ex "thread apply all bt 16" 2>/dev/null | grep -E '^#|^Thread'
    done > "$out/stacks.txt"
    kill "$run"
    pkill -f "$prog"
    exit 1
  fi
  wait "$run" || { echo "run $i failed (not a hang); output in $out/output.txt"; exit 2; }
done
echo "no hang"
