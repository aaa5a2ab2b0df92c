#!/usr/bin/env bash
# From a fresh Debian 12 machine to a running program: installs what is
# missing (Debian packages only), builds everything, installs the package
# under ./install, and runs real programs on all cores with statistics.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j"$(nproc)"
cmake --install build/release --prefix install >/dev/null

echo "== n-queens 12 on every core (TASCELL_STATS=1 prints what each worker did)"
TASCELL_STATS=1 build/release/bench/nqueens-tascell 12
echo "== fib 35, 1 worker then 2"
TASCELL_WORKERS=1 build/release/bench/fib-tascell 35
TASCELL_WORKERS=2 build/release/bench/fib-tascell 35
