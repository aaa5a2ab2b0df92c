// The pre-lexed text of one file being translated (the main file or a user
// header with markers), seen through Clang's SourceManager: offsets, user
// positions and text of AST nodes.
#pragma once

#include <string>
#include <string_view>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "diagnostics.hpp"

namespace tascell::translator {

class source {
 public:
  // `entry`: the file's entry in the SourceManager (null: the main file);
  // `file`: its name and original text, for diagnostics.
  source(clang::ASTContext& ctx, std::string_view text, const clang::FileEntry* entry = nullptr,
         const source_file* file = nullptr)
      : ctx_(ctx), sm_(ctx.getSourceManager()), text_(text), file_(file) {
    // A header included several times (without a guard) is translated as
    // its first inclusion: the text is the same.
    id_ = entry ? sm_.translateFile(entry) : sm_.getMainFileID();
  }

  clang::ASTContext& ast() const { return ctx_; }
  std::string_view text() const { return text_; }
  bool in_this_file(clang::SourceLocation l) const {
    return l.isValid() && sm_.getFileID(sm_.getExpansionLoc(l)) == id_;
  }
  // Whether l is in a file of the user's (not a system header).
  bool in_user_file(clang::SourceLocation l) const {
    return l.isValid() && !sm_.isInSystemHeader(sm_.getExpansionLoc(l));
  }
  // The position of l in whichever file it is (for diagnostics about other
  // files' declarations).
  source_pos pos_anywhere(clang::SourceLocation l, diagnostics& diag) const;
  // Offset of a location in the file (macro expansions: where they are written).
  std::size_t offset(clang::SourceLocation l) const {
    return sm_.getFileOffset(sm_.getExpansionLoc(l));
  }
  // Offset just past the token that starts at l.
  std::size_t end_of_token(clang::SourceLocation l) const;
  source_pos pos(std::size_t offset) const;
  source_pos pos(clang::SourceLocation l) const { return pos(offset(l)); }
  // The text of a node, from its first to the end of its last token.
  std::string text_of(clang::SourceRange r) const;
  // Offset just past a statement, its ';' included when it has one.
  std::size_t end_of_stmt(const clang::Stmt* s) const;
  // The offset of the next `c` at or after `from`, skipping blanks and comments.
  std::size_t find_next(std::size_t from, char c) const;

 private:
  clang::ASTContext& ctx_;
  clang::SourceManager& sm_;
  std::string_view text_;
  clang::FileID id_;
  const source_file* file_ = nullptr;
};

}  // namespace tascell::translator
