#!/usr/bin/env bash
# Does the protocol simulation find deliberate protocol bugs? For each patch
# in tests/sim/mutations/ (a protocol bug), applied to a clean copy of HEAD,
# protocol_hunt must fail within SEEDS seeds (default 10,000, the count of
# sim.protocol in CI); prints the first failing seed of each and what the
# simulation said. Unmutated, the same hunt must pass. Not in CI (it builds
# the runtime once more: 5-10 minutes on 2 cores); docs/decisions.md, "The
# simulation finds deliberate protocol bugs", has its last figures.
#
# usage: tests/sim/mutation_check.sh [SEEDS]
set -euo pipefail
seeds=${1:-10000}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/tascell-mutations.XXXXXX)
cleanup() { git -C "$root" worktree remove --force "$work/src" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
git -C "$root" worktree add --detach "$work/src" HEAD >/dev/null
cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$work/cmake.log" 2>&1 ||
  { tail -20 "$work/cmake.log"; exit 1; }
hunt() {
  cmake --build "$work/build" --target protocol_hunt >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
  "$work/build/tests/sim/protocol_hunt" --from 1 --count "$seeds" >"$work/hunt.log" 2>&1
}
if ! hunt; then
  echo "mutation_check: the unmutated protocol fails already:"; tail -5 "$work/hunt.log"; exit 1
fi
echo "unmutated: $(head -c 200 "$work/hunt.log")..."
missed=0
for p in "$root"/tests/sim/mutations/*.patch; do
  name=$(basename "$p" .patch)
  git -C "$work/src" apply "$p"
  if hunt; then
    echo "$name: NOT FOUND in $seeds seeds"
    missed=$((missed + 1))
  else
    echo "$name: found at $(grep -m1 -o 'seed [0-9]* FAILED.*' "$work/hunt.log" | cut -c1-300)"
  fi
  git -C "$work/src" checkout -- .
done
exit $((missed > 0))
