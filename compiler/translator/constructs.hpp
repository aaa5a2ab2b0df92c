// What the translator finds in a .tcpp file: one record per construct.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "diagnostics.hpp"

namespace tascell::translator {

// A marker the pre-lexer rewrote: the span of its macro call (the pre-lexer
// keeps offsets, so these are offsets in both texts) and its argument text as
// the user wrote it, with where that starts in the user's file.
struct marker_site {
  std::size_t begin = 0, end = 0;
  std::string clauses;
  source_pos clauses_at;
};

struct task_function {
  const clang::FunctionDecl* decl;  // one declaration (prototype or definition)
  marker_site marker;
};

struct task_call {
  const clang::CallExpr* call;
  bool root;  // made from ordinary code: a root call
};

struct dowork_site {
  const clang::AttributedStmt* stmt;
  const clang::Stmt* body;  // the compound statement or the for loop
  const clang::FunctionDecl* function;  // enclosing function
  marker_site marker;
  int depth = 0;  // how many constructs enclose it
  // Inside a part after the first or a loop body of another @dowork of the
  // same function: there `this` is not available (the piece uses `_tth`).
  bool in_piece = false;
};

struct wind_site {
  const clang::AttributedStmt* stmt;
  const clang::Stmt* body;
  const clang::FunctionDecl* function;  // enclosing function
  marker_site marker;
  int depth = 0;
};

struct shared_var {
  const clang::VarDecl* var;
  marker_site marker;
  std::string op;  // min or max (from the marker's text)
};

// A call to tascell::cancel() / cancelled() / improve() written without ctx.
struct runtime_call {
  const clang::CallExpr* call;
  std::string name;
  bool in_task;
};

// tascell::improve, or one of the spellings that name the direction
// (improve_min, improve_max: what a plain compiler needs, tascell/api.hpp).
inline bool is_improve(std::string_view name) {
  return name == "tascell::improve" || name == "tascell::improve_min" || name == "tascell::improve_max";
}

struct constructs {
  std::vector<task_function> tasks;
  std::vector<task_call> calls;
  std::vector<dowork_site> doworks;
  std::vector<wind_site> winds;
  std::vector<shared_var> shareds;
  // Reads of @shared variables (their value, as an rvalue): written
  // `best.get()` in the translation, so that an incumbent is usable wherever
  // a plain value of its type is (a variadic argument, `auto`, a template
  // argument deduced from it).
  std::vector<const clang::DeclRefExpr*> shared_reads;
  std::vector<runtime_call> runtime_calls;
  // Offsets of every marker the AST carries, also of those rejected with an
  // error (so they are not reported again as unattached).
  std::vector<std::size_t> seen_markers;
};

}  // namespace tascell::translator
