#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls exactly this):
# installs what is missing, builds with -Werror, runs every test, then builds
# and runs the runtime tests, the MPI tests and the lang-examples programs
# (translated by the release build's tascellc) under AddressSanitizer and
# ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh

jobs=$(nproc)
passed=0
failed=0
# run_ctest DIR [CTEST ARGS...]: runs ctest there and adds its counts to the
# totals.
run_ctest() {
  local dir=$1
  shift
  local log
  log=$(mktemp)
  set +e
  ctest --test-dir "$dir" --output-on-failure "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  set -e
  local line
  line=$(grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$log" | tail -1)
  rm -f "$log"
  if [ -z "$line" ]; then
    echo "test.sh: ctest in $dir ($*) printed no summary" >&2
    failed=$((failed + 1))
    return
  fi
  local f n
  f=$(echo "$line" | sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+)/\1/')
  n=$(echo "$line" | sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+)/\2/')
  passed=$((passed + n - f))
  failed=$((failed + f))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); fi
}

# run_tree DIR: the tests labelled `compile` (bound by compiling, checking
# answers, not times) two at a time, then every other test one at a time
# (they time out, measure waits or share the cores with the processes they
# start).
run_tree() {
  run_ctest "$1" -L compile -j"$jobs"
  run_ctest "$1" -LE compile -j1
}

# phase NAME: says how long the phase before it took (the whole run should
# stay under 40 minutes on 2 cores), then starts NAME.
phase_name=""
phase_start=$SECONDS
phase() {
  if [ -n "$phase_name" ]; then echo "== $phase_name took $((SECONDS - phase_start)) s"; fi
  phase_name=$1
  phase_start=$SECONDS
  if [ -n "$phase_name" ]; then echo "== $phase_name"; fi
}

# sanitizer_build SAN: configures and builds build/SAN under -fsanitize=SAN:
# the runtime tests, the MPI tests and the lang-examples programs (not the
# translator again, Clang-based and long to build: the release build's
# translates them; what it writes does not depend on the build's flags).
# -O1 -g1 (line tables, enough for the reports): a file compiles in about
# 60 % of the time it takes at -O2 -g.
sanitizer_build() {
  local san=$1
  cmake -S . -B "build/$san" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DTASCELL_SANITIZE="$san" \
    -DTASCELL_BUILD_BENCH=OFF -DTASCELL_BUILD_COMPILER=OFF \
    -DTASCELL_TRANSLATOR="$PWD/build/release/compiler/translator/tascellc" -DTASCELL_WERROR=ON >/dev/null
  cmake --build "build/$san" -j"$jobs" --target runtime_tests mpi_programs table_programs table_files table_misuse \
    table_misuse_debug tascell-table protocol_hunt lang_examples idioms
}

phase "release build (-Werror)"
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DTASCELL_WERROR=ON >/dev/null
cmake --build build/release -j"$jobs"
phase "release tests"
run_tree build/release

for san in address thread; do
  phase "build of the runtime tests, MPI tests and lang-examples under -fsanitize=$san"
  sanitizer_build "$san"
  phase "tests under -fsanitize=$san"
  run_tree "build/$san"
done
phase ""

echo "total: $passed passed, $failed failed, in $SECONDS s"
[ "$failed" -eq 0 ]
