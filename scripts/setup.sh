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

echo "== lang-examples/nqueens.tcpp, compiled with the installed tascell++, on every core"
install/bin/tascell++ -O2 lang-examples/nqueens.tcpp -o build/release/nqueens
TASCELL_STATS=1 build/release/nqueens 12
echo "== lang-examples/fib.tcpp with 1 worker, then 2"
install/bin/tascell++ -O2 lang-examples/fib.tcpp -o build/release/fib
TASCELL_WORKERS=1 build/release/fib 32
TASCELL_WORKERS=2 build/release/fib 32
