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
#include <map>
#include <set>

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

// Whether a @dowork has a priority() clause: priority decides which point
// gives first, and a lazy @dowork has no point to rank. (The other clauses
// say how a piece sees the frame, and the resume function's eager @dowork
// keeps them; if() is read when a frame is rebuilt.) Errors in the clauses
// are reported by the eager lowering.
bool has_priority(const dowork_site& d) {
  diagnostics discard("", "");
  return !parse_clauses(d.marker.clauses, d.marker.clauses_at, discard).priority.empty();
}

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
  struct stmt_point {
    const Stmt* stmt;
    const dowork_site* dowork;  // nullptr: a call statement
    const CallExpr* call;       // a call statement's call
    std::vector<const VarDecl*> saved;
    std::vector<lazy_function::part> parts;  // a @dowork's
  };
  std::vector<stmt_point> points;
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

// Whether f can be lazy; fills its candidate resume points.
bool analyse(const lowering& l, const FunctionDecl* f, const constructs& all,
             const std::set<const FunctionDecl*>& no_cancel, candidate& out) {
  if (!plain_function(f)) return false;
  range whole = body_range(l.src, f);
  for (const auto& w : all.winds)
    if (w.function == f) return false;
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
    candidate::stmt_point pt{s, nullptr, nullptr, in_scope, {}};
    if (auto it = doworks.find(s); it != doworks.end()) {
      if (!not_scalar.empty() || !lazy_dowork(l, *it->second, all, no_cancel, saved, pt.parts)) return false;
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
  body_scan scan(l.src.ast(), saved);
  scan.TraverseStmt(const_cast<Stmt*>(f->getBody()));
  if (!scan.ok) return false;
  out.fn = f;
  return true;
}

std::string joined_names(const std::vector<const VarDecl*>& saved) {
  std::string s;
  for (const VarDecl* v : saved) s += ", " + v->getNameAsString();
  return s;
}

std::string unwind_return(const lazy_function& f) {
  return f.fn->getReturnType()->isVoidType() ? "return;" : "return {};";
}

std::string line_directive(const lowering& l, std::size_t offset) {
  return "\n#line " + std::to_string(l.src.pos(offset).line) + " " + l.line_file + "\n";
}

// The text of [b, e) lowered as it is everywhere else (the calls of @task
// functions in it get the ctx; its @dowork statements are lowered eagerly):
// the edits go into a list of their own, and the span is cut out of the
// result. `quiet`: what the lowering reports has been reported already (the
// @dowork statements of the rest of a function, each lowered once before as
// its own resume point's).
std::string lowered(lowering& l, std::size_t b, std::size_t e, const constructs& all, bool quiet = false) {
  edit_list edits;
  diagnostics discard("", "");
  lowering own{l.src, quiet ? discard : l.diag, edits, false};
  own.line_file = l.line_file;
  for (const auto& d : all.doworks)
    if (range{b, e}.has(l.src.offset(d.body->getBeginLoc()))) lower_dowork(own, d, all);
  for (const auto& c : all.calls)
    if (range{b, e}.has(l.src.offset(c.call->getBeginLoc()))) lower_task_call(own, c);
  edits.insert_open(b, "\x01", -1000000);
  edits.insert_close(e, "\x02", 1000000);
  std::string text = edits.apply(l.src.text());
  std::size_t from = text.find('\x01'), to = text.find('\x02');
  return from == std::string::npos || to == std::string::npos ? "" : text.substr(from + 1, to - from - 1);
}

// The eager lowering of a @dowork, as the arguments of tascell::dowork.
std::string eager_arguments(lowering& l, const dowork_site& d, const constructs& all) {
  const auto* body = llvm::cast<CompoundStmt>(d.body);
  std::string cut = lowered(l, l.src.offset(body->getLBracLoc()), l.src.end_of_stmt(body), all);
  std::string head = std::string("tascell::dowork(") + ctx_name + ", ";
  if (cut.compare(0, head.size(), head) != 0 || cut.size() < head.size() + 2 || cut.substr(cut.size() - 2) != ");")
    return "";
  return cut.substr(head.size(), cut.size() - head.size() - 2);
}

// A statement whose call is replaced by the callee's resume function.
std::string resumed_call(const lowering& l, const Stmt* stmt, const CallExpr* call) {
  std::size_t b = l.src.offset(stmt->getBeginLoc()), e = l.src.end_of_stmt(stmt);
  std::size_t cb = l.src.offset(call->getBeginLoc()), ce = l.src.end_of_token(call->getRParenLoc());
  return line_directive(l, b) + std::string(l.src.text().substr(b, cb - b)) +
         call->getDirectCallee()->getNameAsString() + "__tascell_resume(" + ctx_name + ", _trec)" +
         std::string(l.src.text().substr(ce, e - ce)) + "\n";
}

// The resume function (lazy.hpp), emitted after the external entry: one
// case per resume point, which rebuilds the frame there and goes on with the
// rest of the function as eager code. Empty when a @dowork cannot be lowered.
std::string resume_text(lowering& l, const lazy_function& f, const constructs& all) {
  const std::string name = f.fn->getNameAsString();
  const bool is_void = f.fn->getReturnType()->isVoidType();
  std::string s = "\nstatic " + f.fn->getReturnType().getAsString(l.type_policy()) + " " + name +
                  "__tascell_resume([[maybe_unused]] tascell::ctx " + ctx_name +
                  ", [[maybe_unused]] tascell::detail::lazy_records& _trec) {\nswitch (tascell::detail::lazy_site(_trec) >> 16) {";
  std::size_t rbrace = l.src.offset(llvm::cast<CompoundStmt>(f.fn->getBody())->getRBracLoc());
  for (std::size_t j = 0; j < f.points.size(); ++j) {
    const lazy_function::point& pt = f.points[j];
    s += "\ncase " + std::to_string(j) + ": {";
    for (const VarDecl* v : pt.saved) s += " " + l.value_type(v) + " " + v->getNameAsString() + "{};";
    s += " [[maybe_unused]] const int _tsite = tascell::detail::lazy_restore(_trec" + joined_names(pt.saved) +
         ") & 0xffff;";
    if (pt.dowork) {
      std::string args = eager_arguments(l, *pt.dowork, all);
      if (args.empty()) return "";
      s += " auto _tgo = [&](std::int64_t _tk, auto&& _tfirst) { tascell::detail::dowork_resume(" +
           std::string(ctx_name) + ", _tk, _tfirst, ";
      s += line_directive(l, l.src.offset(llvm::cast<CompoundStmt>(pt.dowork->body)->getLBracLoc())) + args +
           "); };";
      s += "\nswitch (_tsite) {";
      for (std::size_t k = 0; k < pt.parts.size(); ++k) {
        if (!pt.parts[k].direct) continue;
        s += "\ncase " + std::to_string(2 * k + 1) + ": _tgo(" + std::to_string(k) + ", [&]([[maybe_unused]] tascell::ctx " +
             ctx_name + ") {" + resumed_call(l, pt.parts[k].stmt, pt.parts[k].call) + "}); break;";
      }
      s += "\ndefault: if (_tsite % 2 != 0) tascell::detail::lazy_bad_site(" + std::to_string(j << 16) +
           " + _tsite); _tgo(_tsite / 2, nullptr); break;\n}";
    } else {
      s += resumed_call(l, pt.stmt, pt.call);
    }
    std::size_t after = l.src.end_of_stmt(pt.stmt);
    s += line_directive(l, after) + lowered(l, after, rbrace, all, true) + (is_void ? "\nreturn;\n}" : "\n}");
  }
  // Every case returns (or falls off the end where the function itself does).
  s += "\ndefault: tascell::detail::lazy_bad_site(tascell::detail::lazy_site(_trec));\n}\n__builtin_unreachable();\n}" +
       line_directive(l, rbrace);
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
    for (const auto& pt : cands[fn].points) {
      lazy_function::point p{pt.stmt, pt.dowork, pt.call, pt.saved, pt.parts};
      if (p.call && !direct(p.call)) continue;  // through the callee's entry: not a resume point
      for (auto& part : p.parts) part.direct = direct(part.call);
      f.points.push_back(p);
    }
    out[fn] = f;
  }
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
    const std::string names = joined_names(pt.saved), base = std::to_string(j << 16);
    auto save = [&](const std::string& site) {
      return std::string("tascell::detail::lazy_save(") + ctx_name + ", " + site + names + "); " + ret;
    };
    auto direct_call = [&](const CallExpr* call, int depth) {
      const auto* ref = llvm::cast<DeclRefExpr>(call->getCallee()->IgnoreImpCasts());
      std::string callee = call->getDirectCallee()->getNameAsString();
      l.edits.replace(l.src.offset(ref->getLocation()), callee.size(), callee + "__tascell_body", depth);
    };
    if (!pt.dowork) {
      // A call statement: only its callee's unwinding passes here.
      direct_call(pt.call, 1);
      l.edits.insert_close(l.src.end_of_stmt(pt.stmt),
                           std::string(" if (tascell::detail::lazy_unwound(") + ctx_name + ")) [[unlikely]] { " +
                               save(base + " + 1") + " }",
                           0);
      continue;
    }
    const dowork_site& d = *pt.dowork;
    l.erase_marker(d.marker, d.depth);
    const auto* body = llvm::cast<CompoundStmt>(d.body);
    // if(cond) needs nothing here: a lazy @dowork writes no point either
    // way. It is evaluated when the frame is rebuilt (the eager @dowork's
    // when(), dowork_resume): when false, the rest runs as plain code.
    l.edits.replace(l.src.offset(body->getLBracLoc()), 1,
                    std::string("{ if (tascell::detail::lazy_poll(") + ctx_name + ")) [[unlikely]] { " + save(base) +
                        " }",
                    d.depth);
    const std::size_t n = pt.parts.size();
    for (std::size_t k = 0; k < n; ++k) {
      const lazy_function::part& p = pt.parts[k];
      if (p.direct) direct_call(p.call, d.depth + 1);
      // After part k: unwinding from the callee (site 2k+1), or from here
      // (site 2k+2: parts k+1.. not started; 2N after the last part).
      std::string site = "(_tlz == 1 ? " + base + " + " + std::to_string(2 * k + 1) + " : " + base + " + " +
                         std::to_string(2 * k + 2) + ")";
      l.edits.insert_close(l.src.end_of_stmt(p.stmt),
                           std::string(" if (int _tlz = tascell::detail::lazy_check(") + ctx_name +
                               ")) [[unlikely]] { " + save(site) + " }",
                           d.depth);
    }
  }
}

}  // namespace tascell::translator
