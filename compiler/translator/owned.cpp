#include "owned.hpp"

#include <algorithm>
#include <optional>

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

namespace tascell::translator {
namespace {

using namespace clang;

class index_reader {
 public:
  index_reader(const source& src, const Stmt* body, const VarDecl* induction,
               const std::set<const VarDecl*>& written)
      : src_(src), body_(body), induction_(induction), written_(written) {}

  // scale when e is scale * i + (something invariant), scale != 0.
  std::optional<std::int64_t> scale_of(const Expr* e) const {
    e = strip(e);
    if (const auto* r = llvm::dyn_cast<DeclRefExpr>(e)) {
      if (r->getDecl() == induction_) return 1;
      return std::nullopt;
    }
    const auto* b = llvm::dyn_cast<BinaryOperator>(e);
    if (!b) return std::nullopt;
    const Expr* l = b->getLHS();
    const Expr* r = b->getRHS();
    switch (b->getOpcode()) {
      case BO_Add:
        if (invariant(r)) return scale_of(l);
        if (invariant(l)) return scale_of(r);
        return std::nullopt;
      case BO_Sub:
        if (invariant(r)) return scale_of(l);
        if (invariant(l)) {
          auto s = scale_of(r);
          if (s) return -*s;
        }
        return std::nullopt;
      case BO_Mul: {
        if (auto c = constant(l)) {
          auto s = scale_of(r);
          if (s && *c != 0) return *c * *s;
        } else if (auto c = constant(r)) {
          auto s = scale_of(l);
          if (s && *c != 0) return *c * *s;
        }
        return std::nullopt;
      }
      default: return std::nullopt;
    }
  }

  // An expression whose value is the same in every iteration.
  bool invariant(const Expr* e) const {
    if (e->HasSideEffects(src_.ast())) return false;
    bool ok = true;
    check_invariant(e, ok);
    return ok;
  }

  // The index text with the induction variable replaced by 0.
  std::string at_zero(const Expr* e) const {
    std::size_t b = src_.offset(e->getBeginLoc());
    std::string text = src_.text_of(e->getSourceRange());
    std::vector<std::size_t> at;
    collect_induction(e, at);
    // From the last, so that earlier offsets stay valid.
    for (auto it = at.rbegin(); it != at.rend(); ++it) {
      std::size_t o = *it - b;
      text.replace(o, induction_->getName().size(), "0");
    }
    return text;
  }

  static const Expr* strip(const Expr* e) {
    while (true) {
      e = e->IgnoreParenImpCasts();
      if (const auto* c = llvm::dyn_cast<ExplicitCastExpr>(e); c && c->getType()->isIntegerType()) {
        e = c->getSubExpr();
        continue;
      }
      return e;
    }
  }

 private:
  std::optional<std::int64_t> constant(const Expr* e) const {
    if (e->isValueDependent() || e->isTypeDependent()) return std::nullopt;
    if (auto v = e->getIntegerConstantExpr(src_.ast())) return v->getExtValue();
    return std::nullopt;
  }
  void check_invariant(const Stmt* s, bool& ok) const {
    if (!ok || !s) return;
    if (const auto* r = llvm::dyn_cast<DeclRefExpr>(s)) {
      if (const auto* v = llvm::dyn_cast<VarDecl>(r->getDecl())) {
        if (v == induction_ || written_.count(v) || declared_in_body(v) || r->getBeginLoc().isMacroID()) ok = false;
      }
    }
    for (const Stmt* c : s->children()) check_invariant(c, ok);
  }
  bool declared_in_body(const VarDecl* v) const {
    std::size_t b = src_.offset(body_->getBeginLoc()), e = src_.end_of_stmt(body_);
    if (!src_.in_this_file(v->getLocation())) return false;
    std::size_t o = src_.offset(v->getLocation());
    return o >= b && o < e;
  }
  void collect_induction(const Stmt* s, std::vector<std::size_t>& at) const {
    if (!s) return;
    if (const auto* r = llvm::dyn_cast<DeclRefExpr>(s); r && r->getDecl() == induction_)
      at.push_back(src_.offset(r->getLocation()));
    for (const Stmt* c : s->children()) collect_induction(c, at);
  }

  const source& src_;
  const Stmt* body_;
  const VarDecl* induction_;
  const std::set<const VarDecl*>& written_;
};

class use_collector : public RecursiveASTVisitor<use_collector> {
 public:
  explicit use_collector(const ValueDecl* v) : var_(v) {}
  std::vector<const DeclRefExpr*> uses;
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    if (e->getDecl() == var_) uses.push_back(e);
    return true;
  }

 private:
  const ValueDecl* var_;
};

// The subscript whose base is the use e (through decay and parentheses):
// its index, and the subscript expression in `sub`.
const Expr* index_of_subscript(ASTContext& ctx, const Expr* e, const Expr*& sub) {
  const Expr* child = e;
  DynTypedNodeList parents = ctx.getParents(*child);
  while (!parents.empty()) {
    const auto* p = parents[0].get<Expr>();
    if (!p) return nullptr;
    if (llvm::isa<ImplicitCastExpr>(p) || llvm::isa<ParenExpr>(p)) {
      child = p;
      parents = ctx.getParents(*p);
      continue;
    }
    sub = p;
    if (const auto* a = llvm::dyn_cast<ArraySubscriptExpr>(p))
      return a->getBase() == child ? a->getIdx() : nullptr;
    if (const auto* op = llvm::dyn_cast<CXXOperatorCallExpr>(p);
        op && op->getOperator() == OO_Subscript && op->getNumArgs() == 2)
      return op->getArg(0) == child ? op->getArg(1) : nullptr;
    return nullptr;
  }
  return nullptr;
}

// The plain assignment whose left side is e (a[i] = v, through
// parentheses), so that what e held is never read; else nullptr.
const Expr* assignment_to(ASTContext& ctx, const Expr* e) {
  const Expr* child = e;
  for (int depth = 0; depth < 8; ++depth) {
    DynTypedNodeList parents = ctx.getParents(*child);
    if (parents.size() != 1) return nullptr;
    const auto* p = parents[0].get<Expr>();
    if (!p) return nullptr;
    if (llvm::isa<ParenExpr>(p)) {
      child = p;
      continue;
    }
    if (const auto* b = llvm::dyn_cast<BinaryOperator>(p))
      return b->getOpcode() == BO_Assign && b->getLHS() == child ? b : nullptr;
    if (const auto* op = llvm::dyn_cast<CXXOperatorCallExpr>(p))
      return op->getOperator() == OO_Equal && op->getNumArgs() == 2 && op->getArg(0) == child ? op : nullptr;
    return nullptr;
  }
  return nullptr;
}

// Whether the statement s is the body itself or one of its top-level
// statements (through the cleanups of temporaries): it runs in every
// iteration that reaches it, unless a statement before it leaves
// (`continue`, which the caller rules out).
bool top_level(ASTContext& ctx, const Stmt* s, const Stmt* body) {
  const Stmt* child = s;
  for (int depth = 0; depth < 4; ++depth) {
    if (child == body) return true;
    DynTypedNodeList parents = ctx.getParents(*child);
    if (parents.size() != 1) return false;
    if (const auto* c = parents[0].get<CompoundStmt>()) return c == body;
    const auto* p = parents[0].get<Expr>();
    if (!p || !(llvm::isa<ExprWithCleanups>(p) || llvm::isa<ParenExpr>(p))) return false;
    child = p;
  }
  return false;
}

std::string squeeze(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\n') out += c;
  return out;
}

}  // namespace

owned_index find_owned_index(const source& src, const Stmt* body, const ValueDecl* var, const VarDecl* induction,
                             const std::set<const VarDecl*>& written, bool one_index) {
  owned_index out;
  use_collector uc(var);
  uc.TraverseStmt(const_cast<Stmt*>(body));
  index_reader reader(src, body, induction, written);
  std::string first_text;
  ExprMutationAnalyzer mutations(*body, src.ast());
  for (const DeclRefExpr* e : uc.uses) {
    auto stray = [&](std::string why) {
      out.stray = e;
      out.why = std::move(why);
      out.ok = false;
      return out;
    };
    if (e->getBeginLoc().isMacroID()) return stray("it is used in a macro");
    if (e->hasQualifier()) return stray("it is named with a qualifier");
    const Expr* sub = nullptr;
    const Expr* idx = index_of_subscript(src.ast(), e, sub);
    if (!idx) return stray("it is used other than as " + var->getNameAsString() + "[index]");
    if (idx->getBeginLoc().isMacroID() || idx->getEndLoc().isMacroID()) return stray("its index is in a macro");
    if (!sub->isLValue())
      return stray("its elements are not objects of their own (a proxy such as std::vector<bool>'s)");
    auto scale = reader.scale_of(idx);
    if (!scale)
      return stray("its index is not one the iteration owns (i, i + d, c * i + d with c a non-zero constant and "
                   "d the same in every iteration)");
    if (!out.element_written && mutations.findMutation(sub)) out.element_written = true;
    if (const Expr* as = assignment_to(src.ast(), sub)) {
      if (top_level(src.ast(), as, body)) out.assigned_always = true;
    } else {
      out.only_assigned = false;
    }
    std::string text = squeeze(src.text_of(idx->getSourceRange()));
    if (!out.first_use) {
      out.first_use = e;
      out.element = sub->getType().getNonReferenceType();
      out.scale = *scale;
      out.offset = reader.at_zero(idx);
      out.offsets.push_back(out.offset);
      first_text = text;
    } else if (one_index && text != first_text) {
      return stray("it is used at another index than at its first use");
    } else if (!one_index && *scale != out.scale) {
      return stray("it is used at an index of another scale than at its first use");
    } else if (!one_index) {
      std::string at = reader.at_zero(idx);
      if (std::find(out.offsets.begin(), out.offsets.end(), at) == out.offsets.end()) out.offsets.push_back(at);
    }
  }
  out.ok = out.first_use != nullptr;
  return out;
}

}  // namespace tascell::translator
