#!/bin/sh
# Builds the pre-lexer's libFuzzer target with clang++-19 (ASan + UBSan) and
# runs it for N seconds (default 60) on a copy of the seed corpus.
#   compiler/prelex/fuzz.sh [seconds] [extra libFuzzer flags...]
# Work files go to ${PRELEX_FUZZ_DIR:-/tmp/prelex-fuzz}; a crash or an
# invariant violation leaves crash-* there and exits non-zero.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
seconds=${1:-60}
[ $# -gt 0 ] && shift
work=${PRELEX_FUZZ_DIR:-/tmp/prelex-fuzz}
mkdir -p "$work/corpus"
cp "$here"/fuzz-corpus/*.tcpp "$work/corpus/"
if [ ! -d "$(clang++-19 -print-resource-dir)/lib/linux" ]; then
  echo "fuzz.sh: clang++-19's sanitizer and libFuzzer runtimes are missing: apt-get install libclang-rt-19-dev" >&2
  exit 2
fi
clang++-19 -std=c++20 -g -O1 -Wall -Wextra \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -I"$here" "$here/prelex_fuzz.cpp" "$here/prelex.cpp" -o "$work/prelex_fuzz"
cd "$work"
exec ./prelex_fuzz -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
  -dict="$here/fuzz.dict" -artifact_prefix="$work/" "$@" corpus
