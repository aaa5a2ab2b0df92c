#include "callees.hpp"

#include <set>

#include "captures.hpp"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace tascell::translator {
namespace {

using namespace clang;

// The calls in a statement whose callee is known, lambdas' bodies included
// (a lambda called in the piece runs there).
class call_finder : public RecursiveASTVisitor<call_finder> {
 public:
  std::vector<std::pair<const CallExpr*, const FunctionDecl*>> calls;
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitCallExpr(CallExpr* c) {
    if (const FunctionDecl* f = c->getDirectCallee()) calls.emplace_back(c, f);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr* c) {
    // A constructor of the user's may write a global too.
    if (const FunctionDecl* f = c->getConstructor()) ctors.emplace_back(c, f);
    return true;
  }
  std::vector<std::pair<const CXXConstructExpr*, const FunctionDecl*>> ctors;
};

// A function whose body the translator reads: defined in a file of the
// user's, not a system header's.
const FunctionDecl* user_definition(const FunctionDecl* f, ASTContext& ctx) {
  const FunctionDecl* def = nullptr;
  if (!f || !f->hasBody(def) || !def) return nullptr;
  const SourceManager& sm = ctx.getSourceManager();
  SourceLocation at = sm.getExpansionLoc(def->getLocation());
  if (at.isInvalid() || sm.isInSystemHeader(at)) return nullptr;
  return def;
}

}  // namespace

callee_writes::summary callee_writes::of(const FunctionDecl* f, ASTContext& ctx) {
  if (auto it = memo_.find(f); it != memo_.end()) {
    summary s = it->second;
    if (s.busy) s.partial = true;
    return s;
  }
  memo_[f].busy = true;
  summary s;
  if (const Stmt* body = f->getBody()) {
    std::vector<captured_var> direct = global_writes(body, ctx);
    if (!direct.empty()) {
      s.var = direct.front().var;
      s.write = direct.front().write;
    } else {
      call_finder cf;
      cf.TraverseStmt(const_cast<Stmt*>(body));
      std::vector<const FunctionDecl*> callees;
      for (auto [c, g] : cf.calls) callees.push_back(g);
      for (auto [c, g] : cf.ctors) callees.push_back(g);
      for (const FunctionDecl* g : callees) {
        const FunctionDecl* def = user_definition(g, ctx);
        if (!def) continue;
        summary t = of(def, ctx);
        s.partial |= t.partial;
        if (t.var) {
          s.var = t.var;
          s.write = t.write;
          s.partial = false;
          break;
        }
      }
    }
  }
  // What was found while a caller was still being summarised may miss a
  // write that caller reaches later: summarised again next time.
  if (s.partial) memo_.erase(f);
  else memo_[f] = s;
  return s;
}

std::vector<callee_write> callee_writes::in(const Stmt* s, ASTContext& ctx) {
  call_finder cf;
  cf.TraverseStmt(const_cast<Stmt*>(s));
  std::vector<callee_write> out;
  std::set<const FunctionDecl*> seen;
  auto look = [&](const Expr* call, const FunctionDecl* g) {
    const FunctionDecl* def = user_definition(g, ctx);
    if (!def || !seen.insert(def).second) return;
    summary t = of(def, ctx);
    if (t.var) out.push_back({call, def, t.var, t.write});
  };
  for (auto [c, g] : cf.calls) look(c, g);
  for (auto [c, g] : cf.ctors) look(c, g);
  return out;
}

}  // namespace tascell::translator
