#!/bin/bash
# A soak of lazy frames (runtime/include/tascell/lazy.hpp, give.cpp's lazy
# mark): lazy_loops.tcpp (its `spread` fails without the mark), wind_names.tcpp
# and the lazy examples n-queens and pen, N rounds (default 300) on 2, 3 and
# 4 workers (more workers than cores), and lazy_loops on 2 processes every
# 10th round; each answer checked. Counts in $D/count.txt, failures in
# $D/bad.txt. Needs a release build (BUILD=..., default build/release).
#   nohup tests/translator/soak_lazy.sh 400 &
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD:-$ROOT/build/release}
T=$B/compiler/driver/tascell++
D=$(mktemp -d /tmp/soak-lazy.XXXXXX); echo "logs in $D"
$T -O2 $ROOT/tests/translator/programs/lazy_loops.tcpp -o $D/ll || exit 1
$T -O2 $ROOT/tests/translator/programs/wind_names.tcpp -o $D/wn || exit 1
# mpirun refuses to run as root without these (CI runs as root here).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ok=0; bad=0
for i in $(seq 1 ${1:-300}); do
  w=$((2 + i % 3))
  out=$(TASCELL_WORKERS=$w timeout 60 $D/ll 9 10); rc=$?
  if [ $rc -eq 0 ] && echo "$out" | grep -q "spread 419904, sequential agrees"; then ok=$((ok+1)); else bad=$((bad+1)); echo "run $i w$w rc=$rc: $out" >> $D/bad.txt; fi
  out=$(TASCELL_WORKERS=$w timeout 60 $D/wn 300); rc=$?
  if [ $rc -eq 0 ] && echo "$out" | grep -q "marked 10657500, eager 30688500, parts 580, board clean"; then ok=$((ok+1)); else bad=$((bad+1)); echo "wn run $i w$w rc=$rc: $out" >> $D/bad.txt; fi
  for ex in nqueens pen; do
    out=$(TASCELL_WORKERS=$w timeout 60 $B/tests/examples/example-$ex $([ $ex = pen ] && echo 6 || echo 12)); rc=$?
    if [ $rc -eq 0 ] && echo "$out" | grep -q "= \(14200\|9356\)"; then ok=$((ok+1)); else bad=$((bad+1)); echo "$ex run $i w$w rc=$rc: $out" >> $D/bad.txt; fi
  done
  if [ $((i % 10)) -eq 0 ]; then
    out=$(timeout 120 mpirun --oversubscribe -np 2 -x TASCELL_WORKERS=2 $D/ll 9 10 2>&1); rc=$?
    if [ $rc -eq 0 ] && echo "$out" | grep -q "spread 419904, sequential agrees"; then ok=$((ok+1)); else bad=$((bad+1)); echo "np2 run $i rc=$rc: $out" >> $D/bad.txt; fi
  fi
  echo "$(date +%T) runs $i ok $ok bad $bad" > $D/count.txt
done
