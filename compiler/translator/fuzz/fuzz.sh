#!/usr/bin/env bash
# Fuzzes whole .tcpp files through tascellc's pipeline for N seconds
# (default 600), starting from corpus/ and lang-examples/. Needs clang-19 and
# libclang-rt-19-dev (scripts/install-deps.sh installs both).
#   compiler/translator/fuzz/fuzz.sh [seconds]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
secs=${1:-600}
work=${TRANSLATE_FUZZ_DIR:-/tmp/translate-fuzz}
mkdir -p "$work/corpus" "$work/obj"
cp "$here"/corpus/*.tcpp "$root"/lang-examples/*.tcpp "$root"/tests/translator/golden/*.tcpp "$work/corpus/" 2>/dev/null || true
cxx="clang++-19 -std=c++20 -g -O1 -fno-rtti -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize=vptr"
inc="-I$root/compiler/translator -I$root/compiler/prelex -isystem /usr/lib/llvm-19/include"
defs="-DTASCELL_CLANG_RESOURCE_DIR=\"/usr/lib/llvm-19/lib/clang/19\" -DTASCELL_FUZZ_STUB_INCLUDE=\"$here/include\""
objs=()
for f in "$root"/compiler/translator/{captures,clauses,collect,diagnostics,edits,lower_dowork,lower_task,lower_wind,source,translate}.cpp "$root"/compiler/prelex/prelex.cpp "$here/translate_fuzz.cpp"; do
  o="$work/obj/$(basename "$f" .cpp).o"
  $cxx $inc $defs -c "$f" -o "$o"
  objs+=("$o")
done
clang++-19 -fsanitize=fuzzer,address,undefined "${objs[@]}" -L/usr/lib/llvm-19/lib -lclang-cpp -lLLVM \
  -Wl,-rpath,/usr/lib/llvm-19/lib -o "$work/translate_fuzz"
cd "$work"
ASAN_OPTIONS=detect_leaks=0 ./translate_fuzz -max_total_time="$secs" -max_len=4096 -timeout=20 \
  -print_final_stats=1 -artifact_prefix="$work/" corpus
