#include "captures.hpp"

#include <map>
#include <set>

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "addresses.hpp"

namespace tascell::translator {
namespace {

using namespace clang;

class use_finder : public RecursiveASTVisitor<use_finder> {
 public:
  std::set<const VarDecl*> declared;
  std::vector<std::pair<const VarDecl*, const DeclRefExpr*>> uses;

  bool VisitVarDecl(VarDecl* v) {
    declared.insert(v);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    if (const auto* v = llvm::dyn_cast<VarDecl>(e->getDecl()))
      if (v->hasLocalStorage() || llvm::isa<ParmVarDecl>(v)) uses.emplace_back(v, e);
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

// Finds the uses of `this` in a statement and classifies them.
class this_finder : public RecursiveASTVisitor<this_finder> {
 public:
  this_finder(const Stmt* s, ASTContext& ctx) : mutations_(*s, ctx) {}
  this_use found;

  bool VisitMemberExpr(MemberExpr* m) {
    const auto* base = llvm::dyn_cast<CXXThisExpr>(m->getBase()->IgnoreParenImpCasts());
    if (!base || !m->isArrow()) return true;
    consumed_.insert(base);
    use(m);
    if (base->isImplicit()) implicit(m);
    if (const auto* method = llvm::dyn_cast<CXXMethodDecl>(m->getMemberDecl())) {
      if (!method->isStatic() && !method->isConst()) write(m);
    } else if (const Stmt* w = mutations_.findMutation(m); w && !is_dependent_call(w, m)) {
      write(w);
    }
    return true;
  }
  // this->x in a class template (x not known yet), and calls of overloaded
  // member functions.
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr* m) {
    if (!member_of_this(m, m->isImplicitAccess() ? nullptr : m->getBase(), m->isArrow())) return true;
    if (const Stmt* w = mutations_.findMutation(m); w && !is_dependent_call(w, m)) write(w);
    return true;
  }
  bool VisitUnresolvedMemberExpr(UnresolvedMemberExpr* m) {
    if (!member_of_this(m, m->isImplicitAccess() ? nullptr : m->getBase(), m->isArrow())) return true;
    for (const NamedDecl* d : m->decls()) {
      const auto* f = llvm::dyn_cast<CXXMethodDecl>(d->getUnderlyingDecl());
      if (const auto* t = llvm::dyn_cast<FunctionTemplateDecl>(d->getUnderlyingDecl()))
        f = llvm::dyn_cast<CXXMethodDecl>(t->getTemplatedDecl());
      if (!f || (!f->isStatic() && !f->isConst())) write(m);
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator* u) {
    if (u->getOpcode() != UO_Deref) return true;
    const auto* base = llvm::dyn_cast<CXXThisExpr>(u->getSubExpr()->IgnoreParenImpCasts());
    if (!base) return true;
    consumed_.insert(base);
    use(u);
    if (const Stmt* w = mutations_.findMutation(u); w && !is_dependent_call(w, u)) write(w);
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr* e) {
    if (e->getLocation().isMacroID()) found.in_macros.push_back(e->getLocation());
    if (e->isImplicit()) return true;  // the base of an implicit member access: VisitMemberExpr
    found.this_tokens.push_back(e->getLocation());
    all_.push_back(e);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr* l) {
    for (const LambdaCapture& c : l->explicit_captures()) {
      if (!c.capturesThis()) continue;
      if (c.getCaptureKind() == LCK_StarThis) found.star_this_captures.push_back(c.getLocation());
      else if (l->getCaptureDefault() == LCD_ByCopy) found.copy_default_captures.push_back(c.getLocation());
      else found.captures.push_back(c.getLocation());
    }
    return true;
  }

  void finish() {
    // `this` used as a pointer value (passed, stored, captured, compared): a
    // write when ExprMutationAnalyzer finds that what it points to may change.
    for (const CXXThisExpr* e : all_) {
      if (consumed_.count(e)) continue;
      use(e);
      if (const Stmt* w = mutations_.findPointeeMutation(e); w && !is_dependent_call(w, e)) write(w);
    }
  }

 private:
  // True when m accesses a member of *this (base null: implicitly); records it.
  bool member_of_this(const Expr* m, const Expr* base, bool arrow) {
    if (!base) {
      use(m);
      implicit(m);
      return true;
    }
    const auto* t = llvm::dyn_cast<CXXThisExpr>(base->IgnoreParenImpCasts());
    if (!t || !arrow) return false;
    consumed_.insert(t);
    use(m);
    if (t->isImplicit()) implicit(m);
    return true;
  }
  void implicit(const Expr* m) {
    if (m->getBeginLoc().isMacroID()) found.in_macros.push_back(m->getBeginLoc());
    else found.implicit_members.push_back(m->getBeginLoc());
  }
  void use(const Stmt* s) {
    if (!found.first_use) found.first_use = s;
  }
  void write(const Stmt* s) {
    if (!found.write) found.write = s;
  }

  ExprMutationAnalyzer mutations_;
  std::set<const CXXThisExpr*> consumed_;
  std::vector<const CXXThisExpr*> all_;
};

}  // namespace

namespace {
bool contains(const Stmt* s, const Stmt* x) {
  if (s == x) return true;
  for (const Stmt* c : s->children())
    if (c && contains(c, x)) return true;
  return false;
}
}  // namespace

bool is_dependent_call(const Stmt* m, const Expr* use) {
  if (llvm::isa_and_nonnull<CXXUnresolvedConstructExpr>(m)) return true;
  if (const auto* b = llvm::dyn_cast_or_null<BinaryOperator>(m); b && b->isTypeDependent())
    return !(b->isAssignmentOp() && use && contains(b->getLHS(), use));
  if (const auto* u = llvm::dyn_cast_or_null<UnaryOperator>(m); u && u->isTypeDependent())
    return !(u->isIncrementDecrementOp() && use && contains(u->getSubExpr(), use));
  const auto* c = llvm::dyn_cast_or_null<CallExpr>(m);
  if (!c) return false;
  if (const FunctionDecl* f = c->getDirectCallee()) {
    // A known function called with a dependent result or argument (a member
    // function of a class template, say): the analyzer assumes every
    // argument is written; only a non-const reference parameter is.
    if (llvm::isa<CXXOperatorCallExpr>(c) || !(c->isTypeDependent() || c->isValueDependent()) || !use) return false;
    for (unsigned i = 0; i < c->getNumArgs(); ++i) {
      if (!contains(c->getArg(i), use)) continue;
      if (i >= f->getNumParams()) return false;
      QualType t = f->getParamDecl(i)->getType();
      return !(t->isReferenceType() && !t.getNonReferenceType().isConstQualified());
    }
    return false;
  }
  if (const auto* op = llvm::dyn_cast<CXXOperatorCallExpr>(c)) {
    // An operator on operands of dependent types: only an assignment or an
    // increment writes, and only its left operand.
    bool writes = op->isAssignmentOp() || op->getOperator() == OO_PlusPlus || op->getOperator() == OO_MinusMinus;
    return !(writes && op->getNumArgs() > 0 && use && contains(op->getArg(0), use));
  }
  const Expr* callee = c->getCallee()->IgnoreParenImpCasts();
  return llvm::isa<UnresolvedLookupExpr>(callee) || llvm::isa<UnresolvedMemberExpr>(callee) ||
         llvm::isa<CXXDependentScopeMemberExpr>(callee) || callee->isTypeDependent();
}

namespace {

// Whether `m`, a non-const member function, is an accessor: its class also
// has a const member function of the same name and arity (operator[], at,
// front, data, begin, ...), so calling it on a non-const object is chosen
// by overload resolution, not by what the caller does with the object.
bool is_accessor(const CXXMethodDecl* m) {
  if (!m || m->isConst() || m->isStatic()) return false;
  const CXXRecordDecl* rd = m->getParent();
  for (const NamedDecl* d : rd->lookup(m->getDeclName())) {
    const auto* o = llvm::dyn_cast<CXXMethodDecl>(d->getUnderlyingDecl());
    if (const auto* t = llvm::dyn_cast<FunctionTemplateDecl>(d->getUnderlyingDecl()))
      o = llvm::dyn_cast<CXXMethodDecl>(t->getTemplatedDecl());
    if (o && o != m && o->isConst() && o->getNumParams() == m->getNumParams()) return true;
  }
  return false;
}

}  // namespace

const Stmt* write_through(ExprMutationAnalyzer& mutations, const Stmt* w, const Expr* use) {
  for (int depth = 0; w && depth < 16; ++depth) {
    const Expr* call = nullptr;
    const CXXMethodDecl* m = nullptr;
    if (const auto* op = llvm::dyn_cast<CXXOperatorCallExpr>(w); op && op->getNumArgs() > 0 &&
                                                                   contains(op->getArg(0), use)) {
      m = llvm::dyn_cast_or_null<CXXMethodDecl>(op->getDirectCallee());
      call = op;
    } else if (const auto* mc = llvm::dyn_cast<CXXMemberCallExpr>(w);
               mc && mc->getImplicitObjectArgument() && contains(mc->getImplicitObjectArgument(), use)) {
      m = mc->getMethodDecl();
      call = mc;
    }
    if (!call || !is_accessor(m)) return w;
    // Only a write through what the accessor returns writes the object.
    QualType r = m->getReturnType();
    if (r->isReferenceType()) {
      use = call;
      w = mutations.findMutation(call);
    } else if (r->isPointerType()) {
      if (!r->getPointeeType().isConstQualified() && mutations.findPointeeMutation(call)) return w;
      return nullptr;
    } else if (r->isRecordType()) {
      // An iterator: what is written through it is not followed.
      return w;
    } else {
      return nullptr;  // a value
    }
  }
  return w;
}

bool is_table_type(QualType t) {
  const auto* rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  if (!rd || rd->getName() != "table") return false;
  const auto* ns = llvm::dyn_cast<NamespaceDecl>(rd->getDeclContext());
  return ns && ns->getName() == "tascell";
}

namespace {
// Whether the pointer use `e` is p[i] or *p itself, with no conversion
// between: in a template, a pointer of dependent type (T (*p)[4]) used so
// has no lvalue-to-rvalue conversion around it yet, and ExprMutationAnalyzer
// takes a write of the element (p[i][0] = v) for a write of p.
bool dereferenced_directly(ASTContext& ctx, const Expr* e) {
  const Expr* cur = e;
  for (int depth = 0; depth < 16; ++depth) {
    auto parents = ctx.getParents(*cur);
    if (parents.size() != 1) return false;
    if (const auto* p = parents[0].get<ParenExpr>()) {
      cur = p;
      continue;
    }
    if (const auto* a = parents[0].get<ArraySubscriptExpr>()) return a->getBase() == cur;
    if (const auto* u = parents[0].get<UnaryOperator>()) return u->getOpcode() == UO_Deref;
    return false;
  }
  return false;
}
}  // namespace

namespace {
// A write of what the span `e` views: x[i], x.front(), x.back() written,
// x.data() written through, or an iterator of it taken (what is written
// through an iterator is not followed: taken as a write).
const Stmt* write_through_span(ASTContext& ctx, ExprMutationAnalyzer& mutations, const Expr* e) {
  const Expr* cur = e;
  for (int depth = 0; depth < 16; ++depth) {
    auto parents = ctx.getParents(*cur);
    if (parents.size() != 1) return nullptr;
    if (const auto* p = parents[0].get<Expr>(); p && (llvm::isa<ParenExpr>(p) || llvm::isa<ImplicitCastExpr>(p))) {
      cur = p;
      continue;
    }
    if (const auto* op = parents[0].get<CXXOperatorCallExpr>()) {
      if (op->getOperator() != OO_Subscript || op->getNumArgs() == 0 || op->getArg(0) != cur) return nullptr;
      return mutations.findMutation(op);
    }
    const auto* m = parents[0].get<MemberExpr>();
    if (!m || m->getBase() != cur) return nullptr;
    auto up = ctx.getParents(*m);
    const auto* call = up.size() == 1 ? up[0].get<CXXMemberCallExpr>() : nullptr;
    const auto* method = call ? call->getMethodDecl() : nullptr;
    if (!method) return nullptr;
    QualType r = method->getReturnType();
    if (r->isReferenceType()) return r.getNonReferenceType().isConstQualified() ? nullptr : mutations.findMutation(call);
    if (r->isPointerType()) return r->getPointeeType().isConstQualified() ? nullptr : mutations.findPointeeMutation(call);
    std::string name = method->getNameAsString();
    if (name == "begin" || name == "end" || name == "rbegin" || name == "rend") return call;
    return nullptr;  // size(), empty(), first(n), subspan(...): a value
  }
  return nullptr;
}
}  // namespace

namespace {
// A write of what `e` points to, e a value whose class holds an address to
// write through (writable_through): through a pointer or reference member
// (w.p[i] = v, *w.p = v, w.p->x = v, w.r = v, also of w.inner.p), through
// what an operator or a member function returns (it[i] = v, *it = v,
// it->x = v, (it + k)[0] = v, w.get()[i] = v), or by the value copied,
// passed to a function or bound to a reference that is not const, which
// is not followed (taken as a write).
class address_walk {
 public:
  address_walk(ASTContext& ctx, ExprMutationAnalyzer& mutations) : ctx_(ctx), mutations_(mutations) {}

  const Stmt* from(const Expr* e) {
    const Expr* cur = e;
    bool pointer = false;  // cur is a pointer taken from the object
    for (int depth = 0; depth < 32; ++depth) {
      auto parents = ctx_.getParents(*cur);
      if (parents.size() != 1) return nullptr;
      const DynTypedNode& p = parents[0];
      if (const auto* x = p.get<Expr>(); x && (llvm::isa<ParenExpr>(x) || llvm::isa<ImplicitCastExpr>(x) ||
                                                llvm::isa<MaterializeTemporaryExpr>(x) ||
                                                llvm::isa<CXXBindTemporaryExpr>(x) || llvm::isa<ExprWithCleanups>(x))) {
        cur = x;
        continue;
      }
      if (pointer) {
        if (const auto* a = p.get<ArraySubscriptExpr>()) return a->getBase() == cur ? mutations_.findMutation(a) : nullptr;
        if (const auto* u = p.get<UnaryOperator>(); u && u->getOpcode() == UO_Deref) return mutations_.findMutation(u);
        if (const auto* m = p.get<MemberExpr>(); m && m->isArrow() && m->getBase() == cur)
          return mutations_.findMutation(m);
        if (const auto* b = p.get<BinaryOperator>(); b && b->isAdditiveOp()) {
          cur = b;  // p + k: still into the same elements
          continue;
        }
        return mutations_.findPointeeMutation(cur);  // passed on, stored: the analyzer's view
      }
      if (const auto* m = p.get<MemberExpr>(); m && m->getBase() == cur && !m->isArrow()) {
        if (const auto* f = llvm::dyn_cast<FieldDecl>(m->getMemberDecl())) {
          QualType t = f->getType();
          if (t->isReferenceType()) return t.getNonReferenceType().isConstQualified() ? nullptr : mutations_.findMutation(m);
          if (t->isPointerType()) {
            if (t->getPointeeType().isConstQualified()) return nullptr;
            pointer = true;
            cur = m;
            continue;
          }
          if (t->isRecordType()) {
            cur = m;
            continue;
          }
          if (t->isArrayType()) return writable_through_array(t) ? m : nullptr;
          return nullptr;  // a value member: writing it writes the object (findMutation)
        }
        auto up = ctx_.getParents(*m);
        const auto* call = up.size() == 1 ? up[0].get<CXXMemberCallExpr>() : nullptr;
        if (!call) return nullptr;
        if (result(call, cur, pointer) == step::done) return found_;
        continue;
      }
      if (const auto* op = p.get<CXXOperatorCallExpr>(); op && op->getNumArgs() > 0 && op->getArg(0) == cur) {
        if (result(op, cur, pointer) == step::done) return found_;
        continue;
      }
      // Copied (a variable, a function's argument by value) or bound to a
      // reference that is not const: what is written through the copy is
      // not followed.
      if (const auto* c = p.get<CXXConstructExpr>()) return c;
      if (const auto* call = p.get<CallExpr>()) {
        const FunctionDecl* f = call->getDirectCallee();
        for (unsigned i = 0; i < call->getNumArgs(); ++i) {
          if (call->getArg(i) != cur) continue;
          if (!f || i >= f->getNumParams()) return call;
          QualType t = f->getParamDecl(i)->getType();
          return t->isReferenceType() && t.getNonReferenceType().isConstQualified() ? nullptr : call;
        }
        return nullptr;
      }
      if (const auto* v = p.get<VarDecl>()) {
        QualType t = v->getType();
        return t->isReferenceType() && t.getNonReferenceType().isConstQualified() ? nullptr : v->getInit();
      }
      return nullptr;
    }
    return nullptr;
  }

 private:
  enum class step { done, go_on };
  // What a call on the object returns: a reference written, a pointer or
  // another such object to follow.
  step result(const CallExpr* call, const Expr*& cur, bool& pointer) {
    QualType r = call->getCallReturnType(ctx_);
    found_ = nullptr;
    if (r->isReferenceType()) {
      QualType t = r.getNonReferenceType();
      if (t.isConstQualified()) return step::done;
      if (t->isPointerType() || writable_through(ctx_, t)) {
        found_ = mutations_.findMutation(call);  // it.operator*() of a pointer element: written as a whole
        if (found_) return step::done;
        cur = call;
        pointer = t->isPointerType();
        return step::go_on;
      }
      found_ = mutations_.findMutation(call);
      return step::done;
    }
    if (r->isPointerType()) {
      if (r->getPointeeType().isConstQualified()) return step::done;
      cur = call;
      pointer = true;
      return step::go_on;
    }
    if (writable_through(ctx_, r)) {
      cur = call;
      return step::go_on;
    }
    return step::done;  // a value: a comparison, a difference, a size
  }
  bool writable_through_array(QualType t) {
    QualType e = ctx_.getBaseElementType(t);
    return (e->isPointerType() && !e->getPointeeType().isConstQualified()) || writable_through(ctx_, e);
  }

  ASTContext& ctx_;
  ExprMutationAnalyzer& mutations_;
  const Stmt* found_ = nullptr;
};
}  // namespace

bool is_writable_span(QualType t) {
  const auto* rd = llvm::dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      t.getNonReferenceType()->getAsCXXRecordDecl());
  if (!rd || rd->getName() != "span" || !rd->isInStdNamespace()) return false;
  const TemplateArgumentList& args = rd->getTemplateArgs();
  return args.size() > 0 && args[0].getKind() == TemplateArgument::Type && !args[0].getAsType().isConstQualified();
}

std::vector<captured_var> free_variables(const Stmt* s, ASTContext& ctx) {
  use_finder f;
  f.TraverseStmt(const_cast<Stmt*>(s));
  std::vector<captured_var> out;
  std::map<const VarDecl*, std::size_t> index;
  ExprMutationAnalyzer mutations(*s, ctx);
  for (auto [v, e] : f.uses) {
    if (f.declared.count(v)) continue;
    auto [it, fresh] = index.emplace(v, out.size());
    if (fresh) out.push_back({v, e, nullptr});
    captured_var& u = out[it->second];
    // A function cannot be written: passing a reference to one is a read.
    if (v->getType()->isReferenceType() && v->getType().getNonReferenceType()->isFunctionType()) continue;
    if (!u.pointee_write && v->getType().getNonReferenceType()->isPointerType())
      if (const Stmt* pw = mutations.findPointeeMutation(e); pw && !is_dependent_call(pw, e)) u.pointee_write = pw;
    if (u.write) continue;
    const Stmt* w = mutations.findMutation(e);
    // A table's entries are written in place through its own rules below.
    if (!is_table_type(v->getType())) w = write_through(mutations, w, e);
    // A std::span's const members give its elements to write: the analyzer
    // does not count that as writing the span, but a piece in another
    // process works on a copy of them.
    if (!w && is_writable_span(v->getType())) w = write_through_span(ctx, mutations, e);
    // An iterator or a struct with a pointer member: a write of what it
    // points to (a race between iterations the analyzer does not see).
    if (!u.pointee_write && writable_through(ctx, v->getType()))
      if (const Stmt* pw = address_walk(ctx, mutations).from(e); pw && !is_dependent_call(pw, e)) u.pointee_write = pw;
    if (!w || is_dependent_call(w, e)) continue;
    if (v->getType().getNonReferenceType()->isPointerType() && dereferenced_directly(ctx, e)) {
      if (!u.pointee_write) u.pointee_write = w;  // a write through the pointer
      continue;
    }
    if (is_table_type(v->getType())) {
      // t[i] through the non-const operator[] is a read unless the entry
      // it returns is written.
      const auto* op = llvm::dyn_cast<CXXOperatorCallExpr>(w);
      if (op && op->getOperator() == OO_Subscript && op->getNumArgs() > 0 && contains(op->getArg(0), e)) {
        if (const Stmt* ew = mutations.findMutation(op); ew && !u.entry_write) u.entry_write = ew;
        continue;
      }
    }
    u.write = w;
  }
  return out;
}

namespace {
bool in_tascell_namespace(QualType t) {
  const auto* rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  if (!rd) return false;
  for (const DeclContext* dc = rd->getDeclContext(); dc; dc = dc->getParent())
    if (const auto* ns = llvm::dyn_cast<NamespaceDecl>(dc); ns && ns->getName() == "tascell") return true;
  return false;
}

// The program's own variables of static storage; not those a system header
// declares (std::cout, std::cerr: a piece's output goes to its process's
// streams, which mpirun forwards, not to a copy that is lost).
class global_finder : public RecursiveASTVisitor<global_finder> {
 public:
  explicit global_finder(const SourceManager& sm) : sm_(sm) {}
  std::vector<std::pair<const VarDecl*, const DeclRefExpr*>> uses;
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    if (const auto* v = llvm::dyn_cast<VarDecl>(e->getDecl()))
      if (!v->hasLocalStorage() && !llvm::isa<ParmVarDecl>(v) && !v->getType().isConstQualified() &&
          !v->isConstexpr() && !in_tascell_namespace(v->getType()) &&
          !sm_.isInSystemHeader(sm_.getExpansionLoc(v->getLocation())))
        uses.emplace_back(v, e);
    return true;
  }

 private:
  const SourceManager& sm_;
};
}  // namespace

std::vector<captured_var> global_writes(const Stmt* s, ASTContext& ctx) {
  global_finder f(ctx.getSourceManager());
  f.TraverseStmt(const_cast<Stmt*>(s));
  std::vector<captured_var> out;
  std::set<const VarDecl*> done;
  ExprMutationAnalyzer mutations(*s, ctx);
  for (auto [v, e] : f.uses) {
    if (done.count(v)) continue;
    const Stmt* w = write_through(mutations, mutations.findMutation(e), e);
    if (!w || is_dependent_call(w, e)) continue;
    // The variable itself passed by reference to a function: what the
    // callee does with it is the callee's (the translator does not follow
    // calls: known-issues.md). An element passed so (f(g[i])) is written here.
    if (const auto* c = llvm::dyn_cast<CallExpr>(w);
        c && !llvm::isa<CXXOperatorCallExpr>(c) && !llvm::isa<CXXMemberCallExpr>(c)) {
      bool whole = false;
      for (const Expr* a : c->arguments()) whole |= a->IgnoreParenImpCasts() == e;
      if (whole) continue;
    }
    done.insert(v);
    out.push_back({v, e, w});
  }
  return out;
}

this_use find_this(const Stmt* s, ASTContext& ctx) {
  this_finder f(s, ctx);
  f.TraverseStmt(const_cast<Stmt*>(s));
  f.finish();
  return f.found;
}

exits find_exits(const Stmt* s) {
  exit_finder f;
  f.TraverseStmt(const_cast<Stmt*>(s));
  return f.found;
}

}  // namespace tascell::translator
