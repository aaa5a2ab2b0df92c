// libFuzzer target: the pre-lexer on arbitrary bytes must not crash and must
// keep its invariant (check.hpp): same length, every line break in place,
// every changed byte inside a reported marker's span, markers inside the
// input at an '@' that the output no longer has, and a clean second pass.
// Build and run: fuzz.sh (or CMake with -DTASCELL_FUZZ=ON and clang++-19).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "check.hpp"
#include "prelex.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const tascell::prelex::result r = tascell::prelex::run(source);
  const std::string problem = tascell::prelex::check_invariants(source, r);
  if (!problem.empty()) {
    std::fprintf(stderr, "prelex invariant violated: %s\n", problem.c_str());
    std::abort();
  }
  return 0;
}
