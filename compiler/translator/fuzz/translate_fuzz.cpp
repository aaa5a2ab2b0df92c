// libFuzzer target: whole files through the translator's pipeline
// (pre-lexer, Clang parse, collection, checks, lowering), both modes.
// Properties: it never crashes or hangs; a translated file keeps every line
// of the input (the output is two header lines plus the edited text, with
// the same number of line breaks); a rejected file yields diagnostics and no
// output.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "translate.hpp"

static std::size_t lines(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  std::string text(reinterpret_cast<const char*>(data), size);
  for (bool serial : {false, true}) {
    tascell::translator::options o;
    o.serial = serial;
    o.runtime_include = TASCELL_FUZZ_STUB_INCLUDE;
    o.resource_dir = TASCELL_CLANG_RESOURCE_DIR;
    o.clang_args = {"-w", "-ferror-limit=5"};
    auto r = tascell::translator::translate("fuzz.tcpp", text, o);
    if (r.ok) {
      if (lines(r.output) < lines(text) + 2) std::abort();  // lines were lost
    } else if (!r.output.empty()) {
      std::abort();  // output for a rejected program
    }
  }
  return 0;
}
