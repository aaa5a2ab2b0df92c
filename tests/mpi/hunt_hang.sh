#!/bin/bash
# A developer's aid, not run by CI: repeats one mpirun of mpi_programs and
# counts runs that pass, fail (a wrong answer or a crash) and hang (last
# longer than LIMIT seconds). A hanging run first gets SIGUSR1 (every process
# prints what it has out and in: docs/cluster.md, "When a run seems to
# hang"), then every process's threads are taken with gdb; then the run is
# ended and the hunt goes on (or stops, with --stop-at-first).
#
# usage: tests/mpi/hunt_hang.sh [--stop-at-first] [--runs N] [--mca-tcp] [--hosts]
#            MPI_PROGRAMS OUT_DIR LIMIT NP WORKERS PROGRAM-ARGS...
#   e.g. TASCELL_INCUMBENT=lifeline:1 tests/mpi/hunt_hang.sh \
#          build/address/tests/mpi/mpi_programs /tmp/hunt 60 3 1 knapsack --repeat 6
# --mca-tcp: mpirun --mca btl self,tcp (messages over TCP, not shared memory).
# --hosts: on the emulated hosts that are up (tests/hosts/emulated_hosts.sh
#   mpirun: one process per host in turn, TCP between them), e.g.
#   tests/hosts/emulated_hosts.sh exec 2 -- tests/mpi/hunt_hang.sh --hosts ...
#   A hang there gets SIGUSR1 and is ended, without gdb stacks (the ranks run
#   in the hosts' namespaces, children of orted, not of mpirun).
# Environment: TASCELL_* settings pass through (-x) when set. TASCELL_WATCHDOG
# is 10 s unless set. MPIRUN_EXTRA: more mpirun arguments (words).
#
# OUT_DIR/counts.txt is rewritten after every run: "runs R passed P failed F
# hung H" (the evidence when nothing hangs). Each caught hang or failure
# leaves OUT_DIR/hang-K/ or OUT_DIR/fail-K/ with output.txt (and stacks.txt).
# Only the processes this script started are signalled: mpirun by its PID,
# the ranks as mpirun's children.
set -u
stop_first=0 max_runs=100000 mca=() launcher=(mpirun)
while [ $# -gt 0 ]; do
  case $1 in
    --stop-at-first) stop_first=1; shift ;;
    --runs) max_runs=$2; shift 2 ;;
    --mca-tcp) mca=(--mca btl self,tcp); shift ;;
    --hosts) launcher=("$(cd "$(dirname "$0")/../hosts" && pwd)/emulated_hosts.sh" mpirun); shift ;;
    *) break ;;
  esac
done
if [ $# -lt 6 ]; then
  sed -n '2,20p' "$0" >&2
  exit 2
fi
prog=$1 out=$2 limit=$3 np=$4 workers=$5
shift 5
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} TASCELL_WORKERS=$workers
export TASCELL_WATCHDOG=${TASCELL_WATCHDOG:-10}
passed_env=()
for v in $(env | grep -o '^TASCELL_[A-Z_]*') ASAN_OPTIONS; do passed_env+=(-x "$v"); done
# shellcheck disable=SC2206
extra=(${MPIRUN_EXTRA:-})
runs=0 good=0 bad=0 hung=0
say() { echo "runs $runs passed $good failed $bad hung $hung" > "$out/counts.txt"; }
# The ranks: mpirun's child processes running the program (orted is not used
# on one host; mpirun forks them itself).
ranks_of() { pgrep -P "$1" 2>/dev/null; }
trap 'kill -- "$run" 2>/dev/null; say; exit 130' INT TERM
for i in $(seq 1 "$max_runs"); do
  "${launcher[@]}" --oversubscribe -np "$np" "${mca[@]}" "${extra[@]}" "${passed_env[@]}" "$prog" "$@" \
    > "$out/output.txt" 2>&1 &
  run=$!
  ended=0
  for _ in $(seq 1 $((limit * 10))); do
    sleep 0.1
    if ! kill -0 "$run" 2>/dev/null; then ended=1; break; fi
  done
  runs=$i
  if [ $ended -eq 0 ]; then
    hung=$((hung + 1))
    dir="$out/hang-$hung"
    mkdir -p "$dir"
    echo "run $i lasted over $limit s: $dir"
    kill -USR1 "$run" 2>/dev/null  # mpirun forwards it to every rank
    sleep 3
    for pid in $(ranks_of "$run"); do
      echo "=== pid $pid"
      gdb -p "$pid" -batch -ex "thread apply all bt 16" 2>/dev/null | grep -E '^#|^Thread'
    done > "$dir/stacks.txt"
    kill -- "$run" 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$run" 2>/dev/null || break; sleep 1; done
    for pid in $(ranks_of "$run"); do kill -9 "$pid" 2>/dev/null; done
    kill -9 "$run" 2>/dev/null
    wait "$run" 2>/dev/null
    cp "$out/output.txt" "$dir/output.txt"
    say
    [ $stop_first -eq 1 ] && exit 1
    continue
  fi
  if wait "$run"; then
    good=$((good + 1))
  else
    bad=$((bad + 1))
    dir="$out/fail-$bad"
    mkdir -p "$dir"
    cp "$out/output.txt" "$dir/output.txt"
    echo "run $i failed (not a hang): $dir"
    if [ $stop_first -eq 1 ]; then say; exit 2; fi
  fi
  say
done
say
echo "$(cat "$out/counts.txt")"
[ $bad -eq 0 ] && [ $hung -eq 0 ]
