// Lazy @task functions (runtime/include/tascell/lazy.hpp): which functions
// the translator compiles with spawn points that cost nothing until a
// request comes, and what it emits for them.
//
// A function is lazy when its frame can be saved and rebuilt from scalars
// alone (docs/language.md "Lazy spawn points"):
//   - a plain function (not a template, member, variadic, main, inline, or
//     with default arguments) with scalar parameters and a scalar (or void)
//     return type;
//   - its @dowork statements are top-level statements of its body, without
//     priority() (the other clauses the resume function's eager @dowork
//     keeps), of two or more parts, each `f(args);`, `x = f(args);` or
//     `x op= f(args);` with f a @task function of this file that cannot
//     reach cancel() (cancel_free), x a saved variable, and no @task call
//     in args;
//   - no @wind, runtime call, lambda, label, goto, local static or local
//     type;
//   - the variables in scope at its resume points (parameters and the
//     top-level locals declared before them: the saved ones) are scalars
//     whose address is never taken;
//   - it has a @dowork, or a top-level call statement of a lazy function
//     declared before it (the other resume point; a least fixpoint).
// Every other @task function keeps eager spawn points. A call is direct
// (the callee's fast body, unwinding through it) when the callee is lazy,
// named without qualifier, and declared before the call in this file;
// other @task calls go through the callee's external entry, which is the
// bottom of the callee's own unwindings.
#include <algorithm>
#include <map>
#include <set>

#include "captures.hpp"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "lower.hpp"

namespace tascell::translator {
namespace {

using namespace clang;

struct range {
  std::size_t b, e;
  bool has(std::size_t o) const { return o >= b && o < e; }
};

range body_range(const source& src, const FunctionDecl* f) {
  const Stmt* body = f->getBody();
  return {src.offset(body->getBeginLoc()), src.end_of_stmt(body)};
}

// Whatever in the function's body rules the lazy form out, and the uses of
// the saved variables.
class body_scan : public RecursiveASTVisitor<body_scan> {
 public:
  body_scan(ASTContext& ctx, const std::set<const VarDecl*>& saved) : ctx_(ctx), saved_(saved) {}
  bool ok = true;

  bool shouldVisitImplicitCode() const { return false; }
  bool VisitLambdaExpr(LambdaExpr*) { return ok = false; }
  bool VisitLabelStmt(LabelStmt*) { return ok = false; }
  bool VisitGotoStmt(GotoStmt*) { return ok = false; }
  bool VisitIndirectGotoStmt(IndirectGotoStmt*) { return ok = false; }
  bool VisitCoroutineBodyStmt(CoroutineBodyStmt*) { return ok = false; }
  bool VisitDeclStmt(DeclStmt* s) {
    for (const Decl* d : s->decls()) {
      const auto* v = llvm::dyn_cast<VarDecl>(d);
      if (!v || v->isStaticLocal() || v->getTLSKind() != VarDecl::TLS_None) return ok = false;
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    const auto* v = llvm::dyn_cast<VarDecl>(e->getDecl());
    if (!v || !saved_.count(v)) return true;
    if (!plain_use(e)) ok = false;
    return ok;
  }

 private:
  // Read, assigned, or incremented: nothing else keeps the variable's address.
  bool plain_use(const Expr* e) {
    const Expr* child = e;
    for (;;) {
      auto parents = ctx_.getParents(*child);
      if (parents.size() != 1) return false;
      if (const auto* p = parents[0].get<ParenExpr>()) {
        child = p;
        continue;
      }
      if (const auto* c = parents[0].get<ImplicitCastExpr>()) return c->getCastKind() == CK_LValueToRValue;
      if (const auto* b = parents[0].get<BinaryOperator>())
        return b->isAssignmentOp() && b->getLHS()->IgnoreParens() == e;
      if (const auto* u = parents[0].get<UnaryOperator>()) return u->isIncrementDecrementOp();
      return false;
    }
  }
  ASTContext& ctx_;
  const std::set<const VarDecl*>& saved_;
};

bool scalar(QualType t) {
  return !t->isReferenceType() && t->isScalarType() && !t->isMemberPointerType() && !t.isVolatileQualified();
}

bool plain_function(const FunctionDecl* d) {
  if (d->isTemplated() || d->isVariadic() || llvm::isa<CXXMethodDecl>(d) || d->isInlineSpecified() || d->isMain() ||
      !d->getIdentifier() || !d->doesThisDeclarationHaveABody() || !llvm::isa<CompoundStmt>(d->getBody()))
    return false;
  for (const ParmVarDecl* p : d->parameters())
    if (p->hasDefaultArg() || !scalar(p->getType())) return false;
  QualType r = d->getReturnType();
  return r->isVoidType() || scalar(r);
}

// The part `x = f(args);`, `x op= f(args);` or `f(args);`: its call, or null.
const CallExpr* part_call(const Stmt* s, const std::set<const VarDecl*>& saved) {
  const auto* e = llvm::dyn_cast<Expr>(s);
  if (!e) return nullptr;
  e = e->IgnoreImplicit()->IgnoreParens();
  if (const auto* b = llvm::dyn_cast<BinaryOperator>(e)) {
    if (!b->isAssignmentOp()) return nullptr;
    const auto* lhs = llvm::dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParens());
    const auto* v = lhs ? llvm::dyn_cast<VarDecl>(lhs->getDecl()) : nullptr;
    if (!v || !saved.count(v)) return nullptr;
    e = b->getRHS()->IgnoreImpCasts()->IgnoreParens();
  }
  return llvm::dyn_cast<CallExpr>(e);
}

const FunctionDecl* canonical(const FunctionDecl* f) { return f ? f->getCanonicalDecl() : nullptr; }

// @task functions of this file that can neither call cancel() nor reach a
// function that might (greatest fixpoint: recursion does not spoil it).
std::set<const FunctionDecl*> cancel_free(const lowering& l, const constructs& all) {
  std::map<const FunctionDecl*, std::pair<const FunctionDecl*, range>> defs;
  for (const auto& t : all.tasks)
    if (t.decl->doesThisDeclarationHaveABody()) defs[canonical(t.decl)] = {t.decl, body_range(l.src, t.decl)};
  std::set<const FunctionDecl*> free;
  for (const auto& [c, d] : defs) {
    bool cancels = false;
    for (const auto& r : all.runtime_calls)
      if (r.name == "tascell::cancel" && d.second.has(l.src.offset(r.call->getBeginLoc()))) cancels = true;
    if (!cancels) free.insert(c);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [c, d] : defs) {
      if (!free.count(c)) continue;
      for (const auto& call : all.calls) {
        if (!d.second.has(l.src.offset(call.call->getBeginLoc()))) continue;
        if (!free.count(canonical(call.call->getDirectCallee()))) {
          free.erase(c);
          changed = true;
          break;
        }
      }
    }
  }
  return free;
}

// Whether a @task call other than `except` begins in [b, e).
bool task_call_in(const lowering& l, const constructs& all, range r, const CallExpr* except = nullptr) {
  for (const auto& c : all.calls)
    if (c.call != except && r.has(l.src.offset(c.call->getBeginLoc()))) return true;
  return false;
}

// The clauses of a @dowork, as the lazy lowering reads them: their errors
// are reported by the eager lowering.
clause_list clauses_of(const dowork_site& d) {
  diagnostics discard("", "");
  return parse_clauses(d.marker.clauses, d.marker.clauses_at, discard);
}

// Whether a @dowork has a priority() clause: priority decides which point
// gives first, and a lazy @dowork has no point to rank. (The other clauses
// say how a piece sees the frame, and the resume function's eager @dowork
// keeps them; the fast path reads if(), lower_lazy_function.)
bool has_priority(const dowork_site& d) { return !clauses_of(d).priority.empty(); }

// Whether call is a call of a @task function that cannot reach cancel().
bool cancel_free_call(const CallExpr* call, const constructs& all, const std::set<const FunctionDecl*>& no_cancel) {
  for (const auto& c : all.calls)
    if (c.call == call) return no_cancel.count(canonical(call->getDirectCallee())) > 0;
  return false;
}

// A top-level statement of a candidate: a @dowork, or a call statement of
// a @task function (a resume point if the callee turns out lazy), with the
// variables in scope there.
struct candidate {
  const FunctionDecl* fn = nullptr;
  std::vector<lazy_function::point> points;
};

// Whether the @dowork d, a top-level statement of its function, can be lazy:
// its parts are call statements of cancel-free @task functions.
bool lazy_dowork(const lowering& l, const dowork_site& d, const constructs& all,
                 const std::set<const FunctionDecl*>& no_cancel, const std::set<const VarDecl*>& saved,
                 std::vector<lazy_function::part>& parts) {
  const auto* body = llvm::dyn_cast<CompoundStmt>(d.body);
  if (!body || body->size() < 2 || d.depth != 0) return false;
  if (has_priority(d)) return false;
  std::set<const CallExpr*> part_calls;
  for (const Stmt* s : body->body()) {
    const CallExpr* call = part_call(s, saved);
    if (!call || !cancel_free_call(call, all, no_cancel)) return false;
    part_calls.insert(call);
    parts.push_back({s, call, false});
  }
  range whole{l.src.offset(d.stmt->getBeginLoc()), l.src.end_of_stmt(d.stmt)};
  for (const auto& c : all.calls)
    if (whole.has(l.src.offset(c.call->getBeginLoc())) && !part_calls.count(c.call)) return false;
  return true;
}

// Whether v can be saved: a scalar, or an lvalue reference bound to
// something outside the frames (a global, or through a pointer), saved as
// its address.
bool savable_reference(const VarDecl* v) {
  if (!v->getType()->isLValueReferenceType() || !v->getInit()) return false;
  const Expr* e = v->getInit();
  for (;;) {
    e = e->IgnoreParens();
    if (const auto* c = llvm::dyn_cast<ImplicitCastExpr>(e)) {
      if (c->getCastKind() != CK_NoOp && c->getCastKind() != CK_ArrayToPointerDecay &&
          c->getCastKind() != CK_UncheckedDerivedToBase && c->getCastKind() != CK_DerivedToBase)
        return false;
      e = c->getSubExpr();
    } else if (const auto* m = llvm::dyn_cast<MemberExpr>(e)) {
      if (m->isArrow()) return true;  // through a pointer
      e = m->getBase();
    } else if (const auto* a = llvm::dyn_cast<ArraySubscriptExpr>(e)) {
      const auto* base = llvm::dyn_cast<ImplicitCastExpr>(a->getBase()->IgnoreParens());
      if (!base || base->getCastKind() != CK_ArrayToPointerDecay) return true;  // through a pointer
      e = base->getSubExpr();
    } else if (const auto* u = llvm::dyn_cast<UnaryOperator>(e)) {
      return u->getOpcode() == UO_Deref;
    } else if (const auto* r = llvm::dyn_cast<DeclRefExpr>(e)) {
      const auto* w = llvm::dyn_cast<VarDecl>(r->getDecl());
      return w && (w->hasGlobalStorage() || (w->getType()->isLValueReferenceType() && savable_reference(w)));
    } else {
      return false;
    }
  }
}

bool savable(const VarDecl* v) { return scalar(v->getType()) || savable_reference(v); }

// The resume points of a lazy @dowork for's body: call statements of
// cancel-free @task functions (with no other @task call in them), found
// under compound, for, while, if and @wind statements. Fails when a point
// has a variable in scope that cannot be saved, a loop around it can be
// left by break, or an if or while around it declares a variable.
class loop_walk {
 public:
  loop_walk(const lowering& l, const constructs& all, const std::set<const FunctionDecl*>& no_cancel,
            std::set<const VarDecl*> saved)
      : l_(l), all_(all), no_cancel_(no_cancel), saved_(std::move(saved)) {}
  bool ok = true;
  std::vector<lazy_function::inner> found;

  void walk(const Stmt* s) {
    const std::size_t before = found.size();
    path_.push_back(s);
    if (const auto* c = llvm::dyn_cast<CompoundStmt>(s)) {
      const std::size_t vars = vars_.size();
      for (const Stmt* x : c->body()) {
        if (const auto* ds = llvm::dyn_cast<DeclStmt>(x)) {
          for (const Decl* d : ds->decls())
            if (const auto* v = llvm::dyn_cast<VarDecl>(d)) declare(v);
        } else {
          walk(x);
        }
      }
      vars_.resize(vars);
    } else if (const auto* f = llvm::dyn_cast<ForStmt>(s)) {
      const std::size_t vars = vars_.size();
      if (const auto* ds = llvm::dyn_cast_or_null<DeclStmt>(f->getInit()))
        for (const Decl* d : ds->decls())
          if (const auto* v = llvm::dyn_cast<VarDecl>(d)) declare(v);
      walk(f->getBody());
      vars_.resize(vars);
      loop_header(f->getConditionVariable() != nullptr || has_call(f->getCond()) || has_call(f->getInc()), before);
    } else if (const auto* w = llvm::dyn_cast<WhileStmt>(s)) {
      walk(w->getBody());
      loop_header(w->getConditionVariable() != nullptr || has_call(w->getCond()), before);
    } else if (const auto* i = llvm::dyn_cast<IfStmt>(s)) {
      walk(i->getThen());
      if (i->getElse()) walk(i->getElse());
      if (found.size() > before && (i->getInit() || i->getConditionVariable() || i->isConsteval())) ok = false;
    } else if (const wind_site* w = wind_of(s)) {
      winds_.push_back(w);
      walk(w->body);
      winds_.pop_back();
    } else if (const CallExpr* call = point_call(s)) {
      if (std::find(vars_.begin(), vars_.end(), nullptr) != vars_.end()) ok = false;
      found.push_back({s, call, path_, vars_, winds_});
    }
    path_.pop_back();
  }
  void declare(const VarDecl* v) { vars_.push_back(savable(v) ? v : nullptr); }

 private:
  bool has_call(const Stmt* s) const {
    return s && task_call_in(l_, all_, {l_.src.offset(s->getBeginLoc()), l_.src.end_of_stmt(s)});
  }
  // A loop around a point is re-entered in the middle of its body, and its
  // header is re-emitted as written (rest_of_iteration): no call or
  // condition variable in it.
  void loop_header(bool needs_care, std::size_t before) {
    if (found.size() > before && needs_care) ok = false;
  }
  const wind_site* wind_of(const Stmt* s) const {
    for (const auto& w : all_.winds)
      if (w.stmt == s) return &w;
    return nullptr;
  }
  const CallExpr* point_call(const Stmt* s) const {
    std::set<const VarDecl*> in_scope = saved_;
    for (const VarDecl* v : vars_)
      if (v) in_scope.insert(v);
    const CallExpr* call = part_call(s, in_scope);
    if (!call || !cancel_free_call(call, all_, no_cancel_)) return nullptr;
    return task_call_in(l_, all_, {l_.src.offset(s->getBeginLoc()), l_.src.end_of_stmt(s)}, call) ? nullptr : call;
  }
  const lowering& l_;
  const constructs& all_;
  const std::set<const FunctionDecl*>& no_cancel_;
  std::set<const VarDecl*> saved_;
  std::vector<const Stmt*> path_;
  std::vector<const VarDecl*> vars_;  // nullptr: a variable that cannot be saved
  std::vector<const wind_site*> winds_;
};

// Whether the @dowork for d, a top-level statement of its function, can be
// lazy; fills its range and resume points.
bool lazy_loop(const lowering& l, const dowork_site& d, const constructs& all, const std::set<const FunctionDecl*>& no_cancel,
               const std::set<const VarDecl*>& saved, lazy_function::point& pt) {
  const auto* f = llvm::dyn_cast<ForStmt>(d.body);
  if (!f || d.depth != 0 || has_priority(d)) return false;
  pt.range = canonical_range(l, f);
  if (pt.range.empty()) return false;
  if (task_call_in(l, all, {l.src.offset(f->getBeginLoc()), l.src.offset(f->getRParenLoc())})) return false;
  const auto* var = llvm::cast<VarDecl>(llvm::cast<DeclStmt>(f->getInit())->getSingleDecl());
  loop_walk w(l, all, no_cancel, saved);
  w.declare(var);
  w.walk(f->getBody());
  if (!w.ok) return false;
  pt.inners = std::move(w.found);
  // Each point's variables by distinct names (a case of the resume
  // function declares them all).
  for (const auto& in : pt.inners) {
    std::set<std::string> seen;
    for (const VarDecl* v : saved) seen.insert(v->getNameAsString());
    for (const VarDecl* v : in.vars)
      if (!seen.insert(v->getNameAsString()).second) return false;
  }
  return true;
}

// Whether f can be lazy; fills its candidate resume points.
bool analyse(const lowering& l, const FunctionDecl* f, const constructs& all,
             const std::set<const FunctionDecl*>& no_cancel, candidate& out) {
  if (!plain_function(f)) return false;
  range whole = body_range(l.src, f);
  for (const auto& r : all.runtime_calls)
    if (whole.has(l.src.offset(r.call->getBeginLoc()))) return false;
  std::map<const Stmt*, const dowork_site*> doworks;
  for (const auto& d : all.doworks)
    if (d.function == f) doworks[d.stmt] = &d;
  std::vector<const VarDecl*> in_scope(f->param_begin(), f->param_end());
  std::set<const VarDecl*> saved(in_scope.begin(), in_scope.end());
  std::vector<const VarDecl*> not_scalar;  // top-level locals that cannot be saved
  std::size_t top_doworks = 0;
  for (const Stmt* s : llvm::cast<CompoundStmt>(f->getBody())->body()) {
    if (const auto* ds = llvm::dyn_cast<DeclStmt>(s)) {
      for (const Decl* x : ds->decls()) {
        const auto* v = llvm::dyn_cast<VarDecl>(x);
        if (v && scalar(v->getType())) {
          in_scope.push_back(v);
          saved.insert(v);
        } else {
          not_scalar.push_back(v);
        }
      }
      continue;
    }
    lazy_function::point pt{s, nullptr, nullptr, in_scope, {}, {}, {}};
    if (auto it = doworks.find(s); it != doworks.end()) {
      if (!not_scalar.empty()) return false;
      if (llvm::isa<CompoundStmt>(it->second->body) ? !lazy_dowork(l, *it->second, all, no_cancel, saved, pt.parts)
                                                     : !lazy_loop(l, *it->second, all, no_cancel, saved, pt))
        return false;
      pt.dowork = it->second;
      ++top_doworks;
      out.points.push_back(pt);
    } else if (const CallExpr* call = part_call(s, saved);
               call && not_scalar.empty() && cancel_free_call(call, all, no_cancel)) {
      pt.call = call;
      out.points.push_back(pt);
    }
  }
  // Every @dowork of the function is one of its top-level statements.
  if (top_doworks != doworks.size()) return false;
  // The variables of resume points in loops are saved too; a reference
  // is saved as its address, whatever its uses.
  for (const auto& pt : out.points)
    for (const auto& in : pt.inners)
      for (const VarDecl* v : in.vars)
        if (!v->getType()->isReferenceType()) saved.insert(v);
  body_scan scan(l.src.ast(), saved);
  scan.TraverseStmt(const_cast<Stmt*>(f->getBody()));
  if (!scan.ok) return false;
  out.fn = f;
  return true;
}

// Saved variables (", a, b") as lazy_save takes them (a reference by its
// address), and as the resume function restores them (a reference as a
// pointer, bound after lazy_restore: declarations, bound_references).
std::string saved_values(const std::vector<const VarDecl*>& vars) {
  std::string s;
  for (const VarDecl* v : vars)
    s += v->getType()->isReferenceType() ? ", __builtin_addressof(" + v->getNameAsString() + ")"
                                         : ", " + v->getNameAsString();
  return s;
}
std::string restored_names(const std::vector<const VarDecl*>& vars) {
  std::string s;
  for (const VarDecl* v : vars)
    s += ", " + (v->getType()->isReferenceType() ? names::reference(v->getNameAsString()) : v->getNameAsString());
  return s;
}
// The call that saves a frame: its values (", a, b") by value, or, past
// four of them, as one tuple (lazy.hpp: lazy_save_tuple).
std::string save_call(const std::string& site, const std::string& values) {
  const auto n = std::count(values.begin(), values.end(), ',');  // names hold no comma
  if (n <= 4) return "tascell::translated::lazy_save(" + names::ctx + ", " + site + values + ");";
  return "tascell::translated::lazy_save_tuple(" + names::ctx + ", " + site + ", std::tuple(" +
         values.substr(2) + "));";
}

std::string unwind_return(const lazy_function& f) {
  return f.fn->getReturnType()->isVoidType() ? "return;" : "return {};";
}

std::string line_directive(const lowering& l, std::size_t offset) {
  return "\n#line " + std::to_string(l.src.pos(offset).line) + " " + l.line_file + "\n";
}

// The text of [b, e) lowered as it is everywhere else (the calls of @task
// functions in it get the ctx; its @dowork statements are lowered eagerly),
// the edits in a list of their own. `quiet`: what the lowering reports has
// been reported already (the @dowork statements of the rest of a function,
// each lowered once before as its own resume point's). `arguments_only`:
// that @dowork's call is written as its arguments (lowering::arguments_only),
// a loop's over `loop_range` (*written tells whether it was lowered).
std::string lowered(lowering& l, std::size_t b, std::size_t e, const constructs& all, bool quiet = false,
                    const dowork_site* arguments_only = nullptr, const std::string& loop_range = "",
                    bool* written = nullptr) {
  edit_list edits;
  diagnostics discard("", "");
  lowering own{l.src, quiet ? discard : l.diag, edits, false};
  own.line_file = l.line_file;
  own.arguments_only = arguments_only;
  own.arguments_range = loop_range;
  for (const auto& d : all.doworks)
    if (range{b, e}.has(l.src.offset(d.body->getBeginLoc()))) lower_dowork(own, d, all);
  for (const auto& c : all.calls)
    if (range{b, e}.has(l.src.offset(c.call->getBeginLoc()))) lower_task_call(own, c);
  for (const auto& w : all.winds)
    if (range{b, e}.has(l.src.offset(w.stmt->getBeginLoc()))) lower_wind(own, w, all);
  if (written) *written = own.arguments_written;
  return edits.apply(l.src.text(), b, e);
}

// The eager lowering of a @dowork, as the arguments of tascell::dowork (a
// lazy function's resume function passes them to dowork_resume); of a
// @dowork for, as those of tascell::dowork_for over `loop_range` instead of
// its own (for dowork_for_resume). "" when it cannot be lowered.
std::string eager_arguments(lowering& l, const dowork_site& d, const constructs& all,
                            const std::string& loop_range = "") {
  std::size_t b = llvm::isa<ForStmt>(d.body) ? l.src.offset(llvm::cast<ForStmt>(d.body)->getForLoc())
                                             : l.src.offset(llvm::cast<CompoundStmt>(d.body)->getLBracLoc());
  bool written = false;
  std::string args = lowered(l, b, l.src.end_of_stmt(d.body), all, false, &d, loop_range, &written);
  return written ? args : "";
}

// A lazy @dowork for's range as a list of its parts ("first, count, step"),
// and its induction variable's value at the iteration the loop is at.
std::string range_list() { return names::range_first + ", " + names::range_count + ", " + names::range_step; }
std::string induction_value() {
  return names::range_first + " + " + names::lazy_iteration + " * " + names::range_step;
}

// The variables a loop's resume point saves: those after the induction
// variable, which is computed from the iteration _tk (the body cannot
// write it).
std::vector<const VarDecl*> after_induction(const lazy_function::inner& in) {
  return {in.vars.begin() + 1, in.vars.end()};
}

std::string declarations(const lowering& l, const std::vector<const VarDecl*>& vars) {
  std::string s;
  for (const VarDecl* v : vars)
    s += " " +
         (v->getType()->isReferenceType()
              ? l.declaration(l.src.ast().getPointerType(v->getType().getNonReferenceType()),
                              names::reference(v->getNameAsString()))
              : l.declaration(l.value_qual_type(v), v->getNameAsString())) +
         "{};";
  return s;
}
std::string bound_references(const lowering& l, const std::vector<const VarDecl*>& vars) {
  std::string s;
  for (const VarDecl* v : vars)
    if (v->getType()->isReferenceType())
      s += " " + l.declaration(v->getType(), v->getNameAsString()) + " = *" + names::reference(v->getNameAsString()) +
           ";";
  return s;
}

// A statement whose call is replaced by the callee's resume function.
std::string resumed_call(const lowering& l, const Stmt* stmt, const CallExpr* call) {
  std::size_t b = l.src.offset(stmt->getBeginLoc()), e = l.src.end_of_stmt(stmt);
  std::size_t cb = l.src.offset(call->getBeginLoc()), ce = l.src.end_of_token(call->getRParenLoc());
  return line_directive(l, b) + std::string(l.src.text().substr(b, cb - b)) +
         names::resume(call->getDirectCallee()->getNameAsString()) + "(" + names::ctx + ", " + names::records + ")" +
         std::string(l.src.text().substr(ce, e - ce)) + "\n";
}

// What is left of a loop's iteration at its resume point `in`, from the
// statement in.path[k] on, as eager code: the statement (with its call
// resumed, or, `resumed` false, done), the rest of each block around it, a
// loop around it finished and then run on as written, each @wind around it
// entered again (its before run again: the unwinding ran its after). ""
// when a @wind cannot be lowered.
//
// The rest of a loop's iteration runs as the body of a loop of one turn,
// `for (; _tbK < 1; ++_tbK) { rest }`, so that its continue ends the
// iteration (_tbK becomes 1: the loop runs on from its increment) and its
// break leaves it (_tbK stays 0: the loop is done).
std::string rest_of_iteration(lowering& l, const lazy_function::inner& in, std::size_t k, bool resumed,
                              const constructs& all) {
  const Stmt* s = in.path[k];
  if (k + 1 == in.path.size()) return resumed ? resumed_call(l, s, in.call) : "";
  const Stmt* child = in.path[k + 1];
  std::string inner = rest_of_iteration(l, in, k + 1, resumed, all);
  if (inner.empty() && resumed) return "";
  auto whole = [&](const Stmt* x) {
    std::size_t b = l.src.offset(x->getBeginLoc());
    return line_directive(l, b) + lowered(l, b, l.src.end_of_stmt(x), all, true);
  };
  auto expr = [&](const Expr* x) -> std::string {
    if (!x) return "";
    std::size_t b = l.src.offset(x->getBeginLoc());
    return lowered(l, b, l.src.end_of_token(x->getEndLoc()), all, true);
  };
  if (const auto* c = llvm::dyn_cast<CompoundStmt>(s)) {
    std::size_t after = l.src.end_of_stmt(child);
    return "{ " + inner + line_directive(l, after) +
           lowered(l, after, l.src.offset(c->getRBracLoc()), all, true) + "\n}";
  }
  const std::string turn = names::turn(k);
  auto one_turn = [&](const std::string& then) {
    return "{ int " + turn + " = 0; for (; " + turn + " < 1; ++" + turn + ") { " + inner + " } if (" + turn +
           " == 1) " + then + " }";
  };
  if (const auto* f = llvm::dyn_cast<ForStmt>(s))
    return one_turn("for (" + expr(f->getInc()) + "; " + expr(f->getCond()) + "; " + expr(f->getInc()) + ") " +
                    whole(f->getBody()));
  if (const auto* w = llvm::dyn_cast<WhileStmt>(s))
    return one_turn("while (" + expr(w->getCond()) + ") " + whole(w->getBody()));
  if (llvm::isa<IfStmt>(s)) return "{ " + inner + " }";
  for (const wind_site* w : in.winds)
    if (w->stmt == s) {
      std::string open = wind_open(l, *w, all, false);
      return open.empty() ? "" : open + inner + " });";
    }
  return "";
}

// The case of a resume function for a lazy @dowork for (resume point j):
// its frame's variables, then by place: 0, iteration _tk not started;
// 2m+1, in the call of the loop's resume point m (its callee unwinding);
// 2m+2, after that call. Each rebuilds the loop as an eager @dowork for
// from iteration _tk (dowork_for_resume), the owner first finishing
// iteration _tk (rest_of_iteration). "" when it cannot be lowered.
std::string loop_case(lowering& l, const lazy_function::point& pt, std::size_t j, const constructs& all) {
  const std::string args = eager_arguments(l, *pt.dowork, all, "tascell::range::of_count(" + range_list() + ")");
  if (args.empty()) return "";
  const std::string &rec = names::records, &site = names::site, &go = names::rebuild, &k = names::lazy_iteration;
  const std::string frame = restored_names(pt.saved) + ", " + range_list() + ", " + k;
  std::string s = declarations(l, pt.saved) + " std::int64_t " + names::range_first + "{}, " + names::range_count +
                  "{}, " + names::range_step + "{}, " + k + "{};" + " const int " + site +
                  " = tascell::translated::lazy_site(" + rec + ") & 0xffff;" + " auto " + go +
                  " = [&](tascell::translated::resume_first " + names::first +
                  ") { tascell::translated::dowork_for_resume(" + names::ctx + ", " + k + ", " + names::first + ", " +
                  line_directive(l, l.src.offset(llvm::cast<ForStmt>(pt.dowork->body)->getForLoc())) + args +
                  "); };\nswitch (" + site +
                  ") {\ncase 0: tascell::translated::lazy_restore(" + rec + frame + "); " + go + "(nullptr); break;";
  for (std::size_t m = 0; m < pt.inners.size(); ++m) {
    const lazy_function::inner& in = pt.inners[m];
    for (bool resumed : {true, false}) {
      std::string iteration = rest_of_iteration(l, in, 0, resumed, all);
      if (iteration.empty() && resumed) return "";
      const std::vector<const VarDecl*> vars = after_induction(in);
      const std::string type = l.value_type(in.vars[0]);
      s += "\ncase " + std::to_string(2 * m + (resumed ? 1 : 2)) + ": {" + declarations(l, vars) +
           " tascell::translated::lazy_restore(" + rec + frame + restored_names(vars) + ");" +
           bound_references(l, vars) + " [[maybe_unused]] " +
           l.declaration(l.value_qual_type(in.vars[0]), in.vars[0]->getNameAsString()) + " = static_cast<" + type +
           ">(" + induction_value() + "); " + go + "([&]([[maybe_unused]] tascell::ctx " + names::ctx +
           ") { do { " + iteration + " } while (0); }); break; }";
    }
  }
  return s + "\ndefault: tascell::translated::lazy_bad_site(" + std::to_string(j << 16) + " + " + site + ");\n}";
}

// The resume function (lazy.hpp), emitted after the external entry: one
// case per resume point, which rebuilds the frame there and goes on with the
// rest of the function as eager code. Empty when a @dowork cannot be lowered.
std::string resume_text(lowering& l, const lazy_function& f, const constructs& all) {
  const std::string name = f.fn->getNameAsString();
  const bool is_void = f.fn->getReturnType()->isVoidType();
  const std::string &rec = names::records, &site = names::site, &go = names::rebuild;
  std::string s = "\nstatic " +
                  l.declaration(f.fn->getReturnType(),
                                names::resume(name) + "([[maybe_unused]] tascell::ctx " + names::ctx +
                                    ", [[maybe_unused]] tascell::translated::lazy_records& " + rec + ")") +
                  " {\nswitch (tascell::translated::lazy_site(" + rec + ") >> 16) {";
  std::size_t rbrace = l.src.offset(llvm::cast<CompoundStmt>(f.fn->getBody())->getRBracLoc());
  for (std::size_t j = 0; j < f.points.size(); ++j) {
    const lazy_function::point& pt = f.points[j];
    s += "\ncase " + std::to_string(j) + ": {";
    if (!pt.range.empty()) {
      std::string c = loop_case(l, pt, j, all);
      if (c.empty()) return "";
      s += c;
    } else {
      s += declarations(l, pt.saved);
      s += " [[maybe_unused]] const int " + site + " = tascell::translated::lazy_restore(" + rec +
           restored_names(pt.saved) + ") & 0xffff;";
      if (pt.dowork) {
        std::string args = eager_arguments(l, *pt.dowork, all);
        if (args.empty()) return "";
        s += " auto " + go + " = [&](std::int64_t " + names::lazy_iteration + ", tascell::translated::resume_first " +
             names::first + ") { tascell::translated::dowork_resume(" + names::ctx + ", " + names::lazy_iteration +
             ", " + names::first + ", ";
        s += line_directive(l, l.src.offset(llvm::cast<CompoundStmt>(pt.dowork->body)->getLBracLoc())) + args +
             "); };";
        s += "\nswitch (" + site + ") {";
        for (std::size_t k = 0; k < pt.parts.size(); ++k) {
          if (!pt.parts[k].direct) continue;
          s += "\ncase " + std::to_string(2 * k + 1) + ": " + go + "(" + std::to_string(k) +
               ", [&]([[maybe_unused]] tascell::ctx " + names::ctx + ") {" +
               resumed_call(l, pt.parts[k].stmt, pt.parts[k].call) + "}); break;";
        }
        s += "\ndefault: if (" + site + " % 2 != 0) tascell::translated::lazy_bad_site(" + std::to_string(j << 16) +
             " + " + site + "); " + go + "(" + site + " / 2, nullptr); break;\n}";
      } else {
        s += resumed_call(l, pt.stmt, pt.call);
      }
    }
    std::size_t after = l.src.end_of_stmt(pt.stmt);
    s += line_directive(l, after) + lowered(l, after, rbrace, all, true) + (is_void ? "\nreturn;\n}" : "\n}");
  }
  // Every case returns (or falls off the end where the function itself does).
  s += "\ndefault: tascell::translated::lazy_bad_site(tascell::translated::lazy_site(" + rec +
       "));\n}\n__builtin_unreachable();\n}" + line_directive(l, rbrace);
  return s;
}

// Whether a declaration of g in this file ends before offset `at`, so that
// its body and resume functions are declared there (lower_task.cpp).
bool declared_before(const lowering& l, const FunctionDecl* g, std::size_t at) {
  for (const FunctionDecl* d : g->redecls()) {
    if (!l.src.in_this_file(d->getLocation()) || !d->getLexicalDeclContext()->isFileContext()) continue;
    if (l.src.offset(d->getOuterLocStart()) < at) return true;
  }
  return false;
}

}  // namespace

lazy_plan plan_lazy(lowering& l, const constructs& all) {
  lazy_plan out;
  if (l.serial) return out;
  std::set<const FunctionDecl*> no_cancel = cancel_free(l, all);
  std::map<const FunctionDecl*, candidate> cands;
  for (const auto& t : all.tasks) {
    if (!t.decl->doesThisDeclarationHaveABody() || cands.count(t.decl)) continue;
    candidate c;
    if (analyse(l, t.decl, all, no_cancel, c)) cands[t.decl] = c;
  }
  // Lazy: a candidate with a @dowork, or with a call statement of a lazy
  // function whose body it can call (least fixpoint). A call is direct when
  // the callee is lazy, named without qualifier, and declared before it.
  std::set<const FunctionDecl*> lazy;
  for (const auto& [fn, c] : cands)
    for (const auto& pt : c.points)
      if (pt.dowork) lazy.insert(fn);
  auto direct = [&](const CallExpr* call) {
    const FunctionDecl* callee = call->getDirectCallee();
    const FunctionDecl* def = callee ? callee->getDefinition() : nullptr;
    const auto* ref = llvm::dyn_cast<DeclRefExpr>(call->getCallee()->IgnoreImpCasts());
    return def && lazy.count(def) && ref && !ref->hasQualifier() && !ref->hasExplicitTemplateArgs() &&
           declared_before(l, def, l.src.offset(call->getBeginLoc()));
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [fn, c] : cands) {
      if (lazy.count(fn)) continue;
      for (const auto& pt : c.points)
        if (pt.call && direct(pt.call)) {
          lazy.insert(fn);
          changed = true;
          break;
        }
    }
  }
  for (const FunctionDecl* fn : lazy) {
    lazy_function f;
    f.fn = fn;
    const std::string exit = unwind_return(f);
    for (const auto& pt : cands[fn].points) {
      lazy_function::point p = pt;
      if (p.call && !direct(p.call)) continue;  // through the callee's entry: not a resume point
      for (auto& part : p.parts) part.direct = direct(part.call);
      // In a loop, a call through the callee's entry is no resume point.
      std::erase_if(p.inners, [&](const lazy_function::inner& in) { return !direct(in.call); });
      for (const auto& in : p.inners)
        for (std::size_t k = 0; k < in.winds.size(); ++k)
          f.wind_exits[in.winds[k]->stmt] = k == 0 ? exit : "return true;";
      f.points.push_back(p);
    }
    out[fn] = f;
  }
  // Winds around resume points write no node; the entries of a file that
  // has any push a lazy mark (lazy.hpp). Per file: the lazy bodies an
  // entry's frames call directly are all of this file.
  const bool marks = std::any_of(out.begin(), out.end(), [](const auto& f) { return !f.second.wind_exits.empty(); });
  for (auto& [fn, f] : out) f.marks = marks;
  // The resume functions. A @dowork the eager lowering refused has had its
  // errors reported: its function stays in the plan, so that the @dowork is
  // not lowered (and reported) again.
  for (auto it = out.begin(); it != out.end();) {
    int errors = l.diag.count();
    it->second.resume = resume_text(l, it->second, all);
    if (it->second.resume.empty() && l.diag.count() == errors) {
      it = out.erase(it);
      continue;
    }
    ++it;
  }
  return out;
}

void lower_lazy_function(lowering& l, const lazy_function& f) {
  const std::string ret = unwind_return(f);
  for (std::size_t j = 0; j < f.points.size(); ++j) {
    const lazy_function::point& pt = f.points[j];
    const std::string saved_names = saved_values(pt.saved), base = std::to_string(j << 16);
    auto save = [&](const std::string& site) {
      return save_call(site, saved_names) + " " + ret;
    };
    auto direct_call = [&](const CallExpr* call, int depth) {
      const auto* ref = llvm::cast<DeclRefExpr>(call->getCallee()->IgnoreImpCasts());
      std::string callee = call->getDirectCallee()->getNameAsString();
      l.edits.replace(l.src.offset(ref->getLocation()), callee.size(), names::body(callee), depth);
    };
    if (!pt.dowork) {
      // A call statement: only its callee's unwinding passes here.
      direct_call(pt.call, 1);
      l.edits.insert_close(l.src.end_of_stmt(pt.stmt),
                           " if (tascell::translated::lazy_unwound(" + names::ctx + ")) [[unlikely]] { " +
                               save(base + " + 1") + " }",
                           0);
      continue;
    }
    const dowork_site& d = *pt.dowork;
    l.erase_marker(d.marker, d.depth);
    // if(cond), as the eager @dowork reads it: once where the @dowork
    // starts. When false, the frame neither polls nor starts an unwinding
    // (an eager one writes no point and never polls), but still saves
    // itself when a callee unwinds. A rebuilt frame reads if() again (the
    // eager @dowork's when(), dowork_resume): when false, the rest runs as
    // plain code.
    const std::string cond = clauses_of(d).condition;
    const std::string when = names::condition(j);
    const std::string decl_when = cond.empty() ? "" : "const bool " + when + " = static_cast<bool>(" + cond + "); ";
    const std::string poll = cond.empty() ? "tascell::translated::lazy_poll(" + names::ctx + ")"
                                          : when + " && tascell::translated::lazy_poll(" + names::ctx + ")";
    const std::string check =
        cond.empty() ? "tascell::translated::lazy_check(" + names::ctx + ")"
                     : when + " ? tascell::translated::lazy_check(" + names::ctx +
                           ") : static_cast<int>(tascell::translated::lazy_unwound(" + names::ctx + "))";
    if (!pt.range.empty()) {
      // A @dowork for: a plain loop over the iterations of its range,
      // computed once as the eager lowering does, which checks after each
      // call of a resume point m (sites 2m+1 and 2m+2) and polls where an
      // iteration starts (site 0: iteration _tk not started): every
      // iteration when it has no resume point, otherwise only the first
      // (its checks poll; a poll at every iteration cost Pen and N-queens
      // 15-20% more instructions than the sequential search, spent on
      // iterations that test and skip). Under a @wind the frame saves
      // itself in the wind's body, which returns true: the wind runs its
      // after and the frame goes on unwinding (lower_wind, wind_exits).
      const auto* loop = llvm::cast<ForStmt>(d.body);
      const auto* var = llvm::cast<VarDecl>(llvm::cast<DeclStmt>(loop->getInit())->getSingleDecl());
      const std::string& k = names::lazy_iteration;
      const std::string type = l.value_type(var), frame = saved_names + ", " + range_list() + ", " + k;
      std::size_t b = l.src.offset(loop->getForLoc()), e = l.src.offset(loop->getRParenLoc()) + 1;
      const std::string polled = "if (" + poll + ") [[unlikely]] { " + save_call(base, frame) + " " + ret + " } ";
      const std::string loops = pt.inners.empty()
                                    ? "for (std::int64_t " + k + " = 0; " + k + " < " + names::range_count + "; ++" +
                                          k + ") { " + polled
                                    : "std::int64_t " + k + " = 0; " + polled + "for (; " + k + " < " +
                                          names::range_count + "; ++" + k + ") { ";
      l.edits.replace(b, e - b,
                      "{ " + decl_when + "const tascell::range " + names::range + " = " + pt.range +
                          "; const std::int64_t " + names::range_first + " = " + names::range + ".first, " +
                          names::range_count + " = " + names::range + ".count, " + names::range_step + " = " +
                          names::range + ".step; " + loops +
                          "[[maybe_unused]] " + l.declaration(l.value_qual_type(var), var->getNameAsString()) +
                          " = static_cast<" + type + ">(" + induction_value() + ");",
                      d.depth);
      l.edits.insert_close(l.src.end_of_stmt(loop->getBody()), " } }", d.depth);
      for (std::size_t m = 0; m < pt.inners.size(); ++m) {
        const lazy_function::inner& in = pt.inners[m];
        direct_call(in.call, d.depth + 1);
        std::string site = "(" + names::unwinding + " == 1 ? " + base + " + " + std::to_string(2 * m + 1) + " : " +
                           base + " + " + std::to_string(2 * m + 2) + ")";
        // In braces: the statement may be a branch of an if. The check is
        // deeper than any construct closing at the same offset.
        l.edits.insert_open(l.src.offset(in.stmt->getBeginLoc()), "{ ", d.depth);
        l.edits.insert_close(l.src.end_of_stmt(in.stmt),
                             " if (int " + names::unwinding + " = " + check + ") [[unlikely]] { " +
                                 save_call(site, frame + saved_values(after_induction(in))) + " " +
                                 (in.winds.empty() ? ret : "return true;") + " } }",
                             1000);
      }
      continue;
    }
    // A @dowork { }: no poll where it starts (site 0 is only the rebuilt
    // frame's); each part is a call whose callee polls, and the check
    // after it polls for this frame, but for the last part's: with no
    // part left here, it only looks whether the callee unwound (a plain
    // load of the worker's flag, which the compiler may merge with the
    // next one when it inlines a level of the recursion into another),
    // and leaves a request to the caller's check, right after the return
    // (fib: 1.34 instead of 1.71 times the sequential instructions at -O3,
    // docs/performance.md).
    const auto* body = llvm::cast<CompoundStmt>(d.body);
    l.edits.replace(l.src.offset(body->getLBracLoc()), 1, "{ " + decl_when, d.depth);
    const std::size_t n = pt.parts.size();
    for (std::size_t k = 0; k < n; ++k) {
      const lazy_function::part& p = pt.parts[k];
      if (p.direct) direct_call(p.call, d.depth + 1);
      // After part k: unwinding from the callee (site 2k+1), or from here
      // (site 2k+2: parts k+1.. not started; never after the last part).
      std::string site = "(" + names::unwinding + " == 1 ? " + base + " + " + std::to_string(2 * k + 1) + " : " +
                         base + " + " + std::to_string(2 * k + 2) + ")";
      const std::string unwound = "static_cast<int>(tascell::translated::lazy_unwound(" + names::ctx + "))";
      l.edits.insert_close(l.src.end_of_stmt(p.stmt),
                           " if (int " + names::unwinding + " = " + (k + 1 == n ? unwound : check) +
                               ") [[unlikely]] { " + save(site) + " }",
                           d.depth);
    }
  }
}

}  // namespace tascell::translator
