#include "captures.hpp"

#include <set>

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

namespace tascell::translator {
namespace {

using namespace clang;

class use_finder : public RecursiveASTVisitor<use_finder> {
 public:
  std::set<const VarDecl*> declared;
  std::vector<std::pair<const VarDecl*, const DeclRefExpr*>> uses;
  bool this_used = false;

  bool VisitVarDecl(VarDecl* v) {
    declared.insert(v);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    if (const auto* v = llvm::dyn_cast<VarDecl>(e->getDecl()))
      if (v->hasLocalStorage() || llvm::isa<ParmVarDecl>(v)) uses.emplace_back(v, e);
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr*) {
    this_used = true;
    return true;
  }
};

class exit_finder : public RecursiveASTVisitor<exit_finder> {
 public:
  exits found;
  int loops = 0, switches = 0;

  bool TraverseForStmt(ForStmt* s) { return nested_loop([&] { return RecursiveASTVisitor::TraverseForStmt(s); }); }
  bool TraverseWhileStmt(WhileStmt* s) { return nested_loop([&] { return RecursiveASTVisitor::TraverseWhileStmt(s); }); }
  bool TraverseDoStmt(DoStmt* s) { return nested_loop([&] { return RecursiveASTVisitor::TraverseDoStmt(s); }); }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt* s) {
    return nested_loop([&] { return RecursiveASTVisitor::TraverseCXXForRangeStmt(s); });
  }
  bool TraverseSwitchStmt(SwitchStmt* s) {
    ++switches;
    bool r = RecursiveASTVisitor::TraverseSwitchStmt(s);
    --switches;
    return r;
  }
  // A lambda's returns are its own.
  bool TraverseLambdaExpr(LambdaExpr*) { return true; }

  bool VisitReturnStmt(ReturnStmt* s) {
    found.returns.push_back(s);
    return true;
  }
  bool VisitGotoStmt(GotoStmt* s) {
    found.gotos.push_back(s);
    return true;
  }
  bool VisitBreakStmt(BreakStmt* s) {
    if (loops == 0 && switches == 0) found.breaks.push_back(s);
    return true;
  }
  bool VisitContinueStmt(ContinueStmt* s) {
    if (loops == 0) found.continues.push_back(s);
    return true;
  }

 private:
  template <class F>
  bool nested_loop(F f) {
    ++loops;
    bool r = f();
    --loops;
    return r;
  }
};

}  // namespace

std::vector<captured_var> free_variables(const Stmt* s, ASTContext& ctx) {
  use_finder f;
  f.TraverseStmt(const_cast<Stmt*>(s));
  std::vector<captured_var> out;
  std::set<const VarDecl*> seen;
  ExprMutationAnalyzer mutations(*s, ctx);
  for (auto [v, e] : f.uses) {
    if (f.declared.count(v) || !seen.insert(v).second) continue;
    out.push_back({v, e, mutations.findMutation(v)});
  }
  return out;
}

bool uses_this(const Stmt* s) {
  use_finder f;
  f.TraverseStmt(const_cast<Stmt*>(s));
  return f.this_used;
}

exits find_exits(const Stmt* s) {
  exit_finder f;
  f.TraverseStmt(const_cast<Stmt*>(s));
  return f.found;
}

}  // namespace tascell::translator
