// Lowering: turning each construct into calls of the runtime API (or, with
// --serial, erasing it). One function per construct; they only add edits.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "callees.hpp"
#include "captures.hpp"
#include "clauses.hpp"
#include "constructs.hpp"
#include "diagnostics.hpp"
#include "edits.hpp"
#include "names.hpp"
#include "source.hpp"

namespace tascell::translator {

struct lowering {
  const source& src;
  diagnostics& diag;
  edit_list& edits;
  bool serial;
  // Offsets where a use of `this` has been rewritten for a piece (nested
  // @dowork statements find the same uses).
  std::set<std::size_t> this_rewritten = {};
  // Variables already noted as keeping their work in their process.
  std::set<const clang::VarDecl*> noted_local = {};
  // What the functions pieces call write of the variables of static
  // storage (one summary per function for the whole file).
  callee_writes callees = {};
  // The file's name as a C string literal, for #line directives in text
  // the lowering emits twice (a lazy function's resume function).
  std::string line_file = "\"\"";
  // The @dowork whose call this lowering writes as its arguments only (a
  // lazy function's resume function passes them to dowork_resume or
  // dowork_for_resume, lower_lazy.cpp), and for a loop the range it runs
  // over there instead of its own.
  const dowork_site* arguments_only = nullptr;
  std::string arguments_range = {};
  bool arguments_written = false;  // set when that @dowork was lowered

  // How generated code spells types: `bool`, no `struct`/`class` keyword.
  clang::PrintingPolicy type_policy() const;
  // The type of a captured variable as a piece receives it (references
  // dropped: a reference is captured as a copy of what it refers to), and
  // how it is spelled.
  // A lambda's or an unnamed type's is decltype(name) (spelled only where
  // the variable is in scope).
  clang::QualType value_qual_type(const clang::VarDecl* v) const;
  // Whether Clang's printer writes t as source can name it (not a lambda's
  // closure type or an unnamed struct).
  bool spellable(clang::QualType t) const;
  std::string value_type(const clang::VarDecl* v) const;
  // Every declaration the lowering writes: `t` declaring `declarator` (a
  // name, or a function's name and parameters), as Clang prints it with
  // type_policy(): "char (*p)[4]", "long (&a)[4]", "int (*f(tascell::ctx))[4]".
  // Never "type + ' ' + name", which breaks pointers to arrays and functions.
  std::string declaration(clang::QualType t, const std::string& declarator) const;
  // `const T& name` and `T& name` for a captured variable's type T.
  std::string const_ref_declaration(clang::QualType t, const std::string& name) const;
  std::string ref_declaration(clang::QualType t, const std::string& name) const;
  // The parameter types of a @task function with the hidden context first:
  // "tascell::ctx, int, long".
  std::string param_types(const clang::FunctionDecl* d) const;
  // Blanks the marker's macro call (its newlines stay).
  void erase_marker(const marker_site& m, int depth) const;
  source_pos marker_pos(const marker_site& m) const { return src.pos(m.begin); }

};

// A lazy @task function (lower_lazy.cpp): its resume points, the top-level
// statements where its frame can be saved and rebuilt.
struct lazy_function {
  const clang::FunctionDecl* fn = nullptr;  // its definition
  struct part {
    const clang::Stmt* stmt;
    const clang::CallExpr* call;
    bool direct;  // calls the callee's fast body (and can resume it)
  };
  // A resume point in the body of a lazy @dowork for: a call statement of
  // a lazy function, under compound, for, while and if statements and
  // @wind statements of the body.
  struct inner {
    const clang::Stmt* stmt;
    const clang::CallExpr* call;
    std::vector<const clang::Stmt*> path;  // the loop's body first, stmt last
    std::vector<const clang::VarDecl*> vars;  // in scope at stmt from the loop on: the induction variable first
    std::vector<const wind_site*> winds;  // the @wind statements on the path, outermost first
  };
  struct point {
    const clang::Stmt* stmt;
    const dowork_site* dowork;  // a @dowork, or nullptr: a call statement
    const clang::CallExpr* call;  // a call statement's (direct) call
    std::vector<const clang::VarDecl*> saved;  // parameters, then locals declared before it
    std::vector<part> parts;  // a @dowork's
    // A @dowork for's: its iterations (canonical_range) and resume points.
    std::string range;
    std::vector<inner> inners;
  };
  std::vector<point> points;
  std::string resume;  // the resume function, emitted after the external entry
  // The @wind statements around resume points, with what their fast
  // lowering runs once their body returns unwinding (lower_wind).
  std::map<const clang::AttributedStmt*, std::string> wind_exits;
  // Whether the entry pushes a lazy mark: some lazy function of the file
  // has a @wind around a resume point, which writes no node (lazy.hpp).
  bool marks = false;
};
using lazy_plan = std::map<const clang::FunctionDecl*, lazy_function>;

// The functions of this file that are lazy (none with --serial).
lazy_plan plan_lazy(lowering& l, const constructs& all);
// The fast body's edits: its @dowork statements and resume points.
void lower_lazy_function(lowering& l, const lazy_function& f);

// `lazy`: the function's plan when it is lazy, or nullptr.
void lower_task_function(lowering& l, const task_function& f, const lazy_function* lazy);
void lower_task_call(lowering& l, const task_call& c);
void lower_runtime_call(lowering& l, const runtime_call& c, const constructs& all);
void lower_dowork(lowering& l, const dowork_site& d, const constructs& all);
// The iterations of the loop of a @dowork for, as the tascell::range
// expression its lowering passes ("" when the loop is not canonical).
std::string canonical_range(const lowering& l, const clang::ForStmt* f);
// In a lazy function's fast body (`unwind_exit`: how the frame goes on
// unwinding once the body has returned true, lower_lazy.cpp), the body is a
// lambda returning whether the frame is unwinding.
void lower_wind(lowering& l, const wind_site& w, const constructs& all, const std::string* unwind_exit = nullptr);
// The text that opens the lowered @wind, up to its body ("" if the marker
// is malformed: lower_wind reports that).
std::string wind_open(lowering& l, const wind_site& w, const constructs& all, bool lazy);
// Adds to `uses` (free_variables of s) the variables of the enclosing
// function that only the before or after of a @wind inside s names (text
// Clang never parses), written when the text assigns them.
void add_wind_uses(lowering& l, const clang::Stmt* s, const constructs& all, std::vector<captured_var>& uses);
void lower_shared(lowering& l, shared_var& v);
// A read of a @shared variable (its value): best -> best.get().
void lower_shared_read(lowering& l, const clang::DeclRefExpr* r);

}  // namespace tascell::translator
