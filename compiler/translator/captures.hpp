// Capture analysis: which variables of the enclosing function a part or a
// loop body uses, and whether it writes them; which statements leave it.
#pragma once

#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace tascell::translator {

struct captured_var {
  const clang::VarDecl* var;
  const clang::Expr* first_use;
  const clang::Stmt* write;  // where it is written (or its address taken), or nullptr
};

// Variables with automatic storage declared outside `s` and used inside it,
// in order of first use. Globals and statics are not captured.
std::vector<captured_var> free_variables(const clang::Stmt* s, clang::ASTContext& ctx);

// True when `this` is used in s (a member function's object).
bool uses_this(const clang::Stmt* s);

// Statements that leave `s` in a way a piece of work cannot: return and goto
// anywhere; break and continue not inside a loop (or switch, for break) of
// their own. In a loop body, `continue` is allowed (it becomes a return from
// the body) and reported separately in `continues`.
struct exits {
  std::vector<const clang::Stmt*> returns, gotos, breaks, continues;
};
exits find_exits(const clang::Stmt* s);

}  // namespace tascell::translator
