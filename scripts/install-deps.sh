#!/usr/bin/env bash
# Installs every package Tascell++ needs to build, test and benchmark, from
# Debian 12's own archive. Idempotent: when everything is present it prints
# one line and does nothing else. Needs root (or sudo) only when something is
# missing.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build pkg-config git
  # the translator: Clang/LLVM 19 LibTooling
  clang-19 libclang-19-dev llvm-19-dev libclang-cpp19-dev
  # libFuzzer and the sanitizers for clang-19 (compiler/prelex/fuzz.sh)
  libclang-rt-19-dev
  # the tools a program in the attribute spelling must keep working with (tests/examples, tests/install)
  clang-format-19 clangd-19
  # the runtime
  libboost-context-dev libopenmpi-dev openmpi-bin libcereal-dev libcli11-dev
  # table files: blocks compressed with zstd or LZ4, checked with xxHash (decisions.md, "Table files")
  libzstd-dev liblz4-dev libxxhash-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # peers for the benchmarks: OpenMP (GCC's libgomp ships with gcc; LLVM's libomp), oneTBB
  libomp-19-dev libtbb-dev
  # SHA-1 for UTS
  libssl-dev
  # rendering trace timelines to PNG in tests
  librsvg2-bin
  # python for small tools in tests
  python3
  # emulated hosts for the tests (tests/hosts): ip netns, unshare, nsenter, taskset, flock
  iproute2 util-linux
  # instruction counts of the benchmarks (bench/instructions.py, callgrind)
  valgrind
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
