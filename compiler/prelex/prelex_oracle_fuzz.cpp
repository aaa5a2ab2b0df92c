// libFuzzer target with Clang's own lexer as the oracle: on ASCII input
// without '#' (the pre-lexer also treats directive lines specially; Clang's
// raw lexer does not), the '@' bytes that the pre-lexer sees in code (every
// marker of the '@' spelling and every error about an '@' is at one) must be
// exactly the '@' that Clang 19's raw lexer returns as tokens of their own.
// (Markers and errors of the standard spellings, at a '[' or a 'T', are left
// out: those are ordinary tokens for Clang.) That checks the literal,
// comment, raw string, digit separator and line splice rules against the
// compiler that will parse the result. The invariant of check.hpp is checked
// too. Build and run: PRELEX_FUZZ_TARGET=oracle fuzz.sh (links libclang-cpp).
#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "check.hpp"
#include "prelex.hpp"

namespace {

std::set<std::size_t> clang_code_ats(const std::string& buffer) {
  clang::LangOptions lang;
  lang.CPlusPlus = lang.CPlusPlus11 = lang.CPlusPlus14 = lang.CPlusPlus17 = lang.CPlusPlus20 = 1;
  lang.LineComment = lang.Digraphs = lang.Bool = lang.WChar = lang.Char8 = 1;
  const char* begin = buffer.c_str();  // NUL-terminated, as the lexer needs
  clang::Lexer lexer(clang::SourceLocation(), lang, begin, begin, begin + buffer.size());
  std::set<std::size_t> ats;
  clang::Token token;
  for (;;) {
    bool end = lexer.LexFromRawLexer(token);
    if (token.is(clang::tok::eof)) break;
    // With no file location, a raw token's location encodes its offset.
    // A token starting with line splices includes them: "\\\n@" is '@'.
    std::size_t offset = token.getLocation().getRawEncoding();
    if (token.is(clang::tok::unknown) && buffer[offset + token.getLength() - 1] == '@' &&
        tascell::prelex::check_detail::squash(std::string_view(buffer).substr(offset, token.getLength())) == "@")
      ats.insert(offset + token.getLength() - 1);
    if (end) break;
  }
  return ats;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string source(reinterpret_cast<const char*>(data), size);
  const tascell::prelex::result r = tascell::prelex::run(source);
  const std::string problem = tascell::prelex::check_invariants(source, r);
  if (!problem.empty()) {
    std::fprintf(stderr, "prelex invariant violated: %s\n", problem.c_str());
    std::abort();
  }
  for (unsigned char c : source) {
    if (c == '#' || c >= 0x80) return 0;
  }
  std::set<std::size_t> mine;
  for (const auto& m : r.markers)
    if (m.written == tascell::prelex::spelling::at_sign) mine.insert(m.at.offset);
  for (const auto& e : r.errors)
    if (source[e.at.offset] == '@') mine.insert(e.at.offset);
  const std::set<std::size_t> theirs = clang_code_ats(source);
  if (mine != theirs) {
    for (std::size_t at : mine)
      if (!theirs.count(at)) std::fprintf(stderr, "prelex sees code '@' at offset %zu, Clang does not\n", at);
    for (std::size_t at : theirs)
      if (!mine.count(at)) std::fprintf(stderr, "Clang sees code '@' at offset %zu, prelex does not\n", at);
    std::abort();
  }
  return 0;
}
