// Per-iteration writes (docs/language.md, "Per-iteration writes"): in a
// @dowork for, an iteration may write the elements it owns, a[scale*i +
// offset], with no clause. This finds whether every use of a variable in a
// loop body is a subscript at one such index.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "source.hpp"

namespace tascell::translator {

struct owned_index {
  bool ok = false;  // every use of the variable is a[index] with the same owned index
  std::int64_t scale = 0;
  std::string offset;  // the index at i = 0, as source text evaluated before the loop
  const clang::Expr* first_use = nullptr;
  clang::QualType element;  // the type of a[index]
  bool element_written = false;  // some a[index] is written (assigned, incremented, passed by reference, ...)
  bool only_assigned = true;     // every a[index] is the left side of a plain assignment: never read
  bool assigned_always = false;  // one of them is a statement of the body itself: every iteration assigns
  // Else the first use that is not a subscript at an owned index, or a
  // subscript at an index other than the first use's, and why.
  const clang::Expr* stray = nullptr;
  std::string why;
  // With one_index false: the distinct indices at i = 0 (offsets), every use
  // at the same scale.
  std::vector<std::string> offsets;
};

// The uses of `var` in `body`, a @dowork for's body whose induction
// variable is `induction`. An index is owned when it is i, i + d, i - d,
// d + i, d - i, c * i, c * i + d, ... (parentheses and integer casts
// allowed) with c a non-zero integer constant and d an expression without
// side effects of variables declared outside the body that the body does
// not write (`written`).
// With one_index false (reads: read_section), the uses may be at several
// indices of the same scale (a[i - 1], a[i], a[i + 1]).
owned_index find_owned_index(const source& src, const clang::Stmt* body, const clang::ValueDecl* var,
                             const clang::VarDecl* induction, const std::set<const clang::VarDecl*>& written,
                             bool one_index = true);

}  // namespace tascell::translator
