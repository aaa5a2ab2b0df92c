#!/usr/bin/env bash
# The installed package, as a user sees it: install this build into a fresh
# prefix; build a .tcpp program with find_package(Tascell) and
# tascell_add_executable(); build one with the installed tascell++; run both;
# then one in the attribute spelling, and clangd-19 on it as written.
# usage: check_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null

# The installed tascellc's PCH, written by it from the installed headers.
pch=$(find "$tmp/prefix" -name tascellc-prelude.pch)
[ -n "$pch" ] || { echo "no tascellc-prelude.pch installed"; exit 1; }
[ "$(cat "$pch.for")" = "$tmp/prefix/include" ] || { echo "$pch.for names $(cat "$pch.for")"; exit 1; }

mkdir "$tmp/user"
cp "$src/lang-examples/fib.tcpp" "$tmp/user/"
cat > "$tmp/user/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(user CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(Tascell REQUIRED)
tascell_add_executable(fib fib.tcpp)
CMAKE
cmake -S "$tmp/user" -B "$tmp/user/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/user/build" >/dev/null
out=$(TASCELL_WORKERS=2 "$tmp/user/build/fib" 25)
[ "$out" = "fib(25) = 75025" ] || { echo "find_package build printed: $out"; exit 1; }

"$tmp/prefix/bin/tascell++" -O2 "$src/lang-examples/nqueens.tcpp" -o "$tmp/nqueens"
out=$(TASCELL_WORKERS=2 "$tmp/nqueens" 8)
[ "$out" = "nqueens(8) = 92" ] || { echo "installed tascell++ build printed: $out"; exit 1; }
echo "installed package: find_package(Tascell) + tascell_add_executable and tascell++ work"

# A program in the attribute spelling: tascell_add_executable translates
# it, and the compilation database holds it as written (<name>_as_written),
# so that clangd reports no error in it.
cp "$src/lang-examples/attributes/nqueens.cpp" "$tmp/user/"
cat >> "$tmp/user/CMakeLists.txt" <<'CMAKE'
tascell_add_executable(nqueens nqueens.cpp)
CMAKE
cmake -S "$tmp/user" -B "$tmp/user/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  >/dev/null
cmake --build "$tmp/user/build" >/dev/null
out=$(TASCELL_WORKERS=2 "$tmp/user/build/nqueens" 8)
[ "$out" = "nqueens(8) = 92" ] || { echo "the attribute spelling's find_package build printed: $out"; exit 1; }
grep -q '"file": ".*/user/nqueens.cpp"' "$tmp/user/build/compile_commands.json" ||
  { echo "compile_commands.json does not hold nqueens.cpp as written"; exit 1; }
if command -v clangd-19 >/dev/null; then
  # Diagnostics are the lines E[time] [code] ...; a tweak that does not
  # apply is an E line too, without a code.
  diags=$(cd "$tmp/user" && clangd-19 --check=nqueens.cpp --compile-commands-dir=build 2>&1 |
          grep -E '^E\[[0-9:.]+\] \[' || true)
  [ -z "$diags" ] || { echo "clangd reports errors in nqueens.cpp:"; echo "$diags"; exit 1; }
  echo "clangd-19: no error in nqueens.cpp (attribute spelling)"
else
  echo "clangd-19 is not installed: its check skipped"
fi
