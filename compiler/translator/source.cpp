#include "source.hpp"

#include <filesystem>

#include "clang/Lex/Lexer.h"

namespace tascell::translator {

std::size_t source::end_of_token(clang::SourceLocation l) const {
  clang::SourceLocation e =
      clang::Lexer::getLocForEndOfToken(sm_.getExpansionLoc(l), 0, sm_, ctx_.getLangOpts());
  return sm_.getFileOffset(e);
}

source_pos source::pos(std::size_t offset) const {
  source_pos p{1, 1, file_};
  for (std::size_t i = 0; i < offset && i < text_.size(); ++i) {
    if (text_[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

source_pos source::pos_anywhere(clang::SourceLocation l, diagnostics& diag) const {
  if (in_this_file(l)) return pos(l);
  clang::SourceLocation e = sm_.getExpansionLoc(l);
  clang::FileID id = sm_.getFileID(e);
  if (id == sm_.getMainFileID()) return {sm_.getExpansionLineNumber(e), sm_.getExpansionColumnNumber(e), nullptr};
  auto entry = sm_.getFileEntryRefForID(id);
  std::string name = entry ? std::filesystem::path(entry->getName().str()).lexically_normal().string() : "<unknown>";
  const source_file* f = diag.file(name, sm_.getBufferData(id));
  return {sm_.getExpansionLineNumber(e), sm_.getExpansionColumnNumber(e), f};
}

std::string source::text_of(clang::SourceRange r) const {
  std::size_t b = offset(r.getBegin()), e = end_of_token(r.getEnd());
  return std::string(text_.substr(b, e - b));
}

std::size_t source::find_next(std::size_t i, char c) const {
  while (i < text_.size()) {
    char x = text_[i];
    if (x == ' ' || x == '\t' || x == '\n' || x == '\r') {
      ++i;
    } else if (x == '/' && i + 1 < text_.size() && text_[i + 1] == '/') {
      while (i < text_.size() && text_[i] != '\n') ++i;
    } else if (x == '/' && i + 1 < text_.size() && text_[i + 1] == '*') {
      i += 2;
      while (i + 1 < text_.size() && !(text_[i] == '*' && text_[i + 1] == '/')) ++i;
      i += 2;
    } else {
      return x == c ? i : std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

std::size_t source::end_of_stmt(const clang::Stmt* s) const {
  std::size_t e = end_of_token(s->getEndLoc());
  // Compound statements and the like end with their own last token; others
  // (expression statements, return, break, ...) end with a ';' after it.
  if (llvm::isa<clang::CompoundStmt>(s)) return e;
  std::size_t semi = find_next(e, ';');
  return semi == std::string_view::npos ? e : semi + 1;
}

}  // namespace tascell::translator
