// What the functions a piece calls write of the variables of static
// storage: a piece may run in another process, where such a write goes to
// that process's copy and is lost to the others. The translator follows
// calls to functions defined in the user's files (not the standard
// library's, nor the runtime's), through any depth of calls.
#pragma once

#include <map>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace tascell::translator {

// A call in a piece of a function that writes a variable of static storage,
// itself or through the functions it calls.
struct callee_write {
  const clang::Expr* call;             // in the piece: a call, or a construction
  const clang::FunctionDecl* callee;   // what it calls
  const clang::VarDecl* var;           // the variable written
  const clang::Stmt* write;            // where, in callee or deeper
};

class callee_writes {
 public:
  // The calls in s (a part or a loop body) whose callees write a variable
  // of static storage, in order, each callee once.
  std::vector<callee_write> in(const clang::Stmt* s, clang::ASTContext& ctx);

 private:
  struct summary {
    const clang::VarDecl* var = nullptr;
    const clang::Stmt* write = nullptr;
    bool busy = false;     // being summarised: a recursion reached it
    bool partial = false;  // found nothing, but passed a function being summarised
  };
  summary of(const clang::FunctionDecl* f, clang::ASTContext& ctx);
  std::map<const clang::FunctionDecl*, summary> memo_;
};

}  // namespace tascell::translator
