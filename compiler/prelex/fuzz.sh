#!/bin/sh
# Builds a libFuzzer target of the pre-lexer with clang++-19 (ASan + UBSan)
# and runs it for N seconds (default 60) on a copy of the seed corpus.
#   compiler/prelex/fuzz.sh [seconds] [extra libFuzzer flags...]
# PRELEX_FUZZ_TARGET=invariant (default): prelex_fuzz.cpp, the invariant;
# PRELEX_FUZZ_TARGET=oracle: prelex_oracle_fuzz.cpp, the invariant and
#   Clang 19's own lexer as the oracle for where '@' is code (needs
#   libclang-cpp19-dev and llvm-19-dev).
# Work files go to ${PRELEX_FUZZ_DIR:-/tmp/prelex-fuzz}; a crash or an
# invariant violation leaves crash-* there and exits non-zero.
# Needs Debian's libclang-rt-19-dev (clang++-19's libFuzzer and sanitizers).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
seconds=${1:-60}
[ $# -gt 0 ] && shift
target=${PRELEX_FUZZ_TARGET:-invariant}
work=${PRELEX_FUZZ_DIR:-/tmp/prelex-fuzz}
mkdir -p "$work/corpus"
cp "$here"/fuzz-corpus/*.tcpp "$work/corpus/"
if [ ! -d "$(clang++-19 -print-resource-dir)/lib/linux" ]; then
  echo "fuzz.sh: clang++-19's sanitizer and libFuzzer runtimes are missing: apt-get install libclang-rt-19-dev" >&2
  exit 2
fi
flags="-std=c++20 -g -O1 -Wall -Wextra -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I$here"
case $target in
  invariant)
    clang++-19 $flags "$here/prelex_fuzz.cpp" "$here/prelex.cpp" -o "$work/prelex_fuzz" ;;
  oracle)
    llvm=/usr/lib/llvm-19
    clang++-19 $flags -isystem "$llvm/include" -fno-rtti "$here/prelex_oracle_fuzz.cpp" "$here/prelex.cpp" \
      -L"$llvm/lib" -Wl,-rpath,"$llvm/lib" -lclang-cpp -lLLVM -o "$work/prelex_fuzz" ;;
  *) echo "fuzz.sh: PRELEX_FUZZ_TARGET is invariant or oracle" >&2; exit 2 ;;
esac
cd "$work"
exec ./prelex_fuzz -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
  -dict="$here/fuzz.dict" -artifact_prefix="$work/" "$@" corpus
