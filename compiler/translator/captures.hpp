// Capture analysis: which variables of the enclosing function a part or a
// loop body uses, and whether it writes them; which statements leave it.
#pragma once

#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

namespace tascell::translator {

struct captured_var {
  const clang::VarDecl* var;
  const clang::Expr* first_use;
  const clang::Stmt* write;  // where it is written (or its address taken), or nullptr
  // A tascell::table handle: where an entry is written in place (t[i] = ...),
  // or nullptr. Reading entries and apply() do not write the handle.
  const clang::Stmt* entry_write = nullptr;
  // A pointer, or a class that holds one to write through (an iterator, a
  // struct with a pointer member: writable_through): where what it points
  // to is written, or nullptr.
  const clang::Stmt* pointee_write = nullptr;
};

// What really writes a variable, given `w`, the mutation of `use` that
// ExprMutationAnalyzer found: a call of a non-const accessor on it
// (v[i], v.at(i), v.front(), v.data(), ... whose class has a const overload
// of the same name) writes it only when what it returns is written, an
// element through the reference or the pointer it returns. Returns that
// write, or nullptr when the call is only a read. (An iterator returned by
// begin() is taken as a write: what is written through it is not followed.)
const clang::Stmt* write_through(clang::ExprMutationAnalyzer& mutations, const clang::Stmt* w,
                                 const clang::Expr* use);

// Whether t is (a reference to) a std::span of elements that are not const:
// writing what it views counts as writing it (free_variables).
bool is_writable_span(clang::QualType t);

// Whether t is (a reference to) a tascell::table<...> handle.
bool is_table_type(clang::QualType t);

// Variables with automatic storage declared outside `s` and used inside it,
// in order of first use. Globals and statics are not captured. In a
// template, passing a variable to a call that depends on a template
// parameter does not count as a write (ExprMutationAnalyzer assumes it
// does); if the call does take it by non-const reference, the instantiation
// fails to compile (the piece receives it as const).
std::vector<captured_var> free_variables(const clang::Stmt* s, clang::ASTContext& ctx);

// Variables of static or thread storage duration (at namespace scope,
// static members, static locals) that s writes, in order of first use; not
// the runtime's own (incumbents, boards, tables), which are written
// through their functions.
std::vector<captured_var> global_writes(const clang::Stmt* s, clang::ASTContext& ctx);

// How s uses `this`, which a part or a loop body captures like a variable
// (`*this`), and the places the lowering must rewrite so that the body uses
// the captured object instead: explicit `this` tokens (renamed in place),
// implicit member accesses `x` (prefixed), and `[this]` captures of nested
// lambdas (renamed in place).
struct this_use {
  const clang::Stmt* first_use = nullptr;  // nullptr: `this` is not used
  const clang::Stmt* write = nullptr;      // a member written, a non-const member function called, ...
  std::vector<clang::SourceLocation> this_tokens, implicit_members, captures;
  std::vector<clang::SourceLocation> copy_default_captures;  // `this` in [=, this]
  std::vector<clang::SourceLocation> star_this_captures;  // [*this]: not supported
  std::vector<clang::SourceLocation> in_macros;           // `this` or an implicit member access in a macro
};
this_use find_this(const clang::Stmt* s, clang::ASTContext& ctx);

// True when `m`, the mutation of `use` ExprMutationAnalyzer found, is only
// a call or an operator it could not resolve (in a template), with `use` not
// the left operand of an assignment: not known to be a write.
bool is_dependent_call(const clang::Stmt* m, const clang::Expr* use);

// Statements that leave `s` in a way a piece of work cannot: return and goto
// anywhere; break and continue not inside a loop (or switch, for break) of
// their own. In a loop body, `continue` is allowed (it becomes a return from
// the body) and reported separately in `continues`.
struct exits {
  std::vector<const clang::Stmt*> returns, gotos, breaks, continues;
};
exits find_exits(const clang::Stmt* s);

}  // namespace tascell::translator
