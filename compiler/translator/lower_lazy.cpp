// Lazy @task functions (runtime/include/tascell/lazy.hpp): which functions
// the translator compiles with spawn points that cost nothing until a
// request comes, and what it emits for them.
//
// A function is lazy when its frame can be saved and rebuilt from scalars
// alone (docs/language.md "Lazy spawn points"):
//   - a plain function (not a template, member, variadic, main, inline, or
//     with default arguments) whose scalar parameters are never bound to a
//     reference or have their address taken;
//   - exactly one @dowork, without if() or priority() (whose other clauses
//     the resume function's eager @dowork keeps), of two or more parts,
//     written at the top level of the function's body; no @wind, no runtime call, no
//     lambda, label or goto, no local static or local type;
//   - every part is `f(args);`, `x = f(args);` or `x op= f(args);` with f a
//     @task function of this file that cannot cancel the @dowork it runs
//     under (cancel_free), x a saved variable, and no @task call in args;
//   - @task calls before or after the @dowork go through the callee's
//     external entry (no unwinding passes them);
//   - the variables in scope at the @dowork (parameters and the top-level
//     locals declared before it: the saved ones) are scalars whose address
//     is never taken, and so is the return type (or void).
// Every other @task function keeps eager spawn points. A part's call is
// direct (the callee's fast body, unwinding through it) when the callee is
// this function or a lazy one defined before it; otherwise it goes through
// the callee's external entry, which is the bottom of the callee's own
// unwindings.
#include <cctype>
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

// Whether the clause list names `what(...)`: if() and priority() decide how
// the @dowork makes work available, which a lazy one does not (its other
// clauses say how a piece sees the frame: the resume function's eager
// @dowork keeps them).
bool has_clause(const std::string& text, const std::string& what) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    if (at > 0 && word(text[at - 1])) continue;
    std::size_t e = at + what.size();
    while (e < text.size() && std::isspace(static_cast<unsigned char>(text[e]))) ++e;
    if (e < text.size() && text[e] == '(') return true;
  }
  return false;
}

// Whether f, with its one @dowork d, can be lazy; fills its saved variables
// and parts.
bool analyse(const lowering& l, const dowork_site& d, const constructs& all,
             const std::set<const FunctionDecl*>& no_cancel, lazy_function& out) {
  const FunctionDecl* f = d.function;
  const auto* body = llvm::dyn_cast<CompoundStmt>(d.body);
  if (!f || !body || !plain_function(f) || d.depth != 0) return false;
  if (has_clause(d.marker.clauses, "if") || has_clause(d.marker.clauses, "priority")) return false;
  const auto* fbody = llvm::cast<CompoundStmt>(f->getBody());
  range whole = body_range(l.src, f);
  for (const auto& o : all.doworks)
    if (&o != &d && o.function == f) return false;
  for (const auto& w : all.winds)
    if (w.function == f) return false;
  for (const auto& r : all.runtime_calls)
    if (whole.has(l.src.offset(r.call->getBeginLoc()))) return false;
  // The @dowork at the top level; the variables declared before it.
  std::set<const VarDecl*> saved;
  out.saved.clear();
  for (const ParmVarDecl* p : f->parameters()) {
    saved.insert(p);
    out.saved.push_back(p);
  }
  bool found = false;
  for (const Stmt* s : fbody->body()) {
    if (s == d.stmt) {
      found = true;
      break;
    }
    if (const auto* ds = llvm::dyn_cast<DeclStmt>(s))
      for (const Decl* x : ds->decls()) {
        const auto* v = llvm::dyn_cast<VarDecl>(x);
        if (!v || !scalar(v->getType())) return false;
        saved.insert(v);
        out.saved.push_back(v);
      }
  }
  if (!found || body->size() < 2) return false;
  // The parts, and no other @task call anywhere in the function.
  out.parts.clear();
  std::set<const CallExpr*> part_calls;
  for (const Stmt* s : body->body()) {
    const CallExpr* call = part_call(s, saved);
    if (!call) return false;
    bool is_task_call = false;
    for (const auto& c : all.calls) is_task_call |= c.call == call;
    if (!is_task_call || !no_cancel.count(canonical(call->getDirectCallee()))) return false;
    part_calls.insert(call);
    out.parts.push_back({s, call, false});
  }
  range dowork{l.src.offset(d.stmt->getBeginLoc()), l.src.end_of_stmt(d.stmt)};
  for (const auto& c : all.calls)
    if (dowork.has(l.src.offset(c.call->getBeginLoc())) && !part_calls.count(c.call)) return false;
  body_scan scan(l.src.ast(), saved);
  scan.TraverseStmt(const_cast<Stmt*>(f->getBody()));
  if (!scan.ok) return false;
  out.fn = f;
  out.dowork = &d;
  return true;
}

std::string joined_names(const lazy_function& f) {
  std::string s;
  for (const VarDecl* v : f.saved) s += ", " + v->getNameAsString();
  return s;
}

std::string unwind_return(const lazy_function& f) {
  return f.fn->getReturnType()->isVoidType() ? "return;" : "return {};";
}

std::string line_directive(const lowering& l, std::size_t offset) {
  return "\n#line " + std::to_string(l.src.pos(offset).line) + " " + l.line_file + "\n";
}

// The text of [b, e) lowered as it is everywhere else (the calls of @task
// functions in it get the ctx; with `d`, that @dowork is lowered eagerly):
// the edits go into a list of their own, and the span is cut out of the
// result.
std::string lowered(lowering& l, std::size_t b, std::size_t e, const dowork_site* d, const constructs& all) {
  edit_list edits;
  lowering own{l.src, l.diag, edits, false};
  if (d) lower_dowork(own, *d, all);
  for (const auto& c : all.calls)
    if (range{b, e}.has(l.src.offset(c.call->getBeginLoc()))) lower_task_call(own, c);
  edits.insert_open(b, "\x01", -1000000);
  edits.insert_close(e, "\x02", 1000000);
  std::string text = edits.apply(l.src.text());
  std::size_t from = text.find('\x01'), to = text.find('\x02');
  return from == std::string::npos || to == std::string::npos ? "" : text.substr(from + 1, to - from - 1);
}

// The eager lowering of the @dowork, as the arguments of tascell::dowork.
std::string eager_arguments(lowering& l, const lazy_function& f, const constructs& all) {
  const auto* body = llvm::cast<CompoundStmt>(f.dowork->body);
  std::string cut = lowered(l, l.src.offset(body->getLBracLoc()), l.src.end_of_stmt(body), f.dowork, all);
  std::string head = std::string("tascell::dowork(") + ctx_name + ", ";
  if (cut.compare(0, head.size(), head) != 0 || cut.size() < head.size() + 2 || cut.substr(cut.size() - 2) != ");")
    return "";
  return cut.substr(head.size(), cut.size() - head.size() - 2);
}

// The resume function (lazy.hpp), emitted after the external entry.
std::string resume_text(lowering& l, const lazy_function& f, const std::string& args, const constructs& all) {
  const std::string name = f.fn->getNameAsString();
  clang::PrintingPolicy pp(l.src.ast().getLangOpts());
  pp.SuppressTagKeyword = true;
  pp.Bool = true;
  std::string ret = f.fn->getReturnType().getAsString(pp);
  const dowork_site& d = *f.dowork;
  std::string s = "\nstatic " + ret + " " + name + "__tascell_resume([[maybe_unused]] tascell::ctx " + ctx_name +
                  ", [[maybe_unused]] tascell::detail::lazy_records& _trec) {";
  for (const VarDecl* v : f.saved) s += " " + l.value_type(v) + " " + v->getNameAsString() + "{};";
  std::string names = joined_names(f);
  s += " const int _tsite = tascell::detail::lazy_restore(_trec" + names + ");";
  s += " auto _tgo = [&](std::int64_t _tk, auto&& _tfirst) { tascell::detail::dowork_resume(" +
       std::string(ctx_name) + ", _tk, _tfirst, ";
  s += line_directive(l, l.src.offset(llvm::cast<CompoundStmt>(d.body)->getLBracLoc())) + args + "); };";
  s += "\nswitch (_tsite) {";
  for (std::size_t k = 0; k < f.parts.size(); ++k) {
    const lazy_function::part& p = f.parts[k];
    if (!p.direct) continue;
    std::size_t b = l.src.offset(p.stmt->getBeginLoc()), e = l.src.end_of_stmt(p.stmt);
    std::size_t cb = l.src.offset(p.call->getBeginLoc()), ce = l.src.end_of_token(p.call->getRParenLoc());
    std::string callee = p.call->getDirectCallee()->getNameAsString();
    std::string text = std::string(l.src.text().substr(b, cb - b)) + callee + "__tascell_resume(" + ctx_name +
                       ", _trec)" + std::string(l.src.text().substr(ce, e - ce));
    s += "\ncase " + std::to_string(2 * k + 1) + ": _tgo(" + std::to_string(k) +
         ", [&]([[maybe_unused]] tascell::ctx " + ctx_name + ") {" + line_directive(l, b) + text + "\n}); break;";
  }
  s += "\ndefault: if (_tsite % 2 != 0) tascell::detail::lazy_corrupt(0, 1); _tgo(_tsite / 2, nullptr); break;\n}";
  std::size_t after = l.src.end_of_stmt(d.stmt);
  std::size_t rbrace = l.src.offset(llvm::cast<CompoundStmt>(f.fn->getBody())->getRBracLoc());
  s += line_directive(l, after) + lowered(l, after, rbrace, nullptr, all) + "\n}";
  s += line_directive(l, rbrace);
  return s;
}

}  // namespace

std::map<const clang::FunctionDecl*, lazy_function> plan_lazy(lowering& l, const constructs& all) {
  std::map<const FunctionDecl*, lazy_function> out;
  if (l.serial) return out;
  std::set<const FunctionDecl*> no_cancel = cancel_free(l, all);
  for (const auto& d : all.doworks) {
    lazy_function f;
    if (analyse(l, d, all, no_cancel, f)) out[f.fn] = f;
  }
  // Direct calls: to itself, or to a lazy function defined before it (its
  // body and resume function are declared there), named without qualifier.
  for (auto& [fn, f] : out) {
    std::size_t begin = l.src.offset(fn->getOuterLocStart());
    for (auto& p : f.parts) {
      const FunctionDecl* callee = p.call->getDirectCallee();
      const FunctionDecl* def = callee ? callee->getDefinition() : nullptr;
      const auto* ref = llvm::dyn_cast<DeclRefExpr>(p.call->getCallee()->IgnoreImpCasts());
      bool lazy = def && out.count(def);
      p.direct = lazy && ref && !ref->hasQualifier() && !ref->hasExplicitTemplateArgs() &&
                 (def == fn || l.src.end_of_stmt(def->getBody()) <= begin);
    }
  }
  // The eager form of each @dowork, which the resume function hands over.
  for (auto it = out.begin(); it != out.end();) {
    int errors = l.diag.count();
    std::string args = eager_arguments(l, it->second, all);
    // A @dowork the eager lowering refused has had its errors reported:
    // it stays in the plan, so that it is not lowered (and reported) again.
    if (l.diag.count() > errors) {
      ++it;
      continue;
    }
    if (args.empty()) {
      it = out.erase(it);
      continue;
    }
    it->second.resume = resume_text(l, it->second, args, all);
    ++it;
  }
  return out;
}

void lower_lazy_dowork(lowering& l, const lazy_function& f) {
  const dowork_site& d = *f.dowork;
  l.erase_marker(d.marker, d.depth);
  const std::string names = joined_names(f), ret = unwind_return(f);
  const auto* body = llvm::cast<CompoundStmt>(d.body);
  l.edits.replace(l.src.offset(body->getLBracLoc()), 1,
                  std::string("{ if (tascell::detail::lazy_poll(") + ctx_name +
                      ")) [[unlikely]] { tascell::detail::lazy_save(" + ctx_name + ", 0" + names + "); " + ret +
                      " }",
                  d.depth);
  const std::size_t n = f.parts.size();
  for (std::size_t k = 0; k < n; ++k) {
    const lazy_function::part& p = f.parts[k];
    if (p.direct) {
      const auto* ref = llvm::cast<DeclRefExpr>(p.call->getCallee()->IgnoreImpCasts());
      std::string callee = p.call->getDirectCallee()->getNameAsString();
      l.edits.replace(l.src.offset(ref->getLocation()), callee.size(), callee + "__tascell_body", d.depth + 1);
    }
    // After part k: unwinding from the callee (site 2k+1), or, while parts
    // after the next one have not started, from here (site 2k+2).
    bool has_work = k + 3 <= n;
    std::string site = has_work ? "_tlz == 1 ? " + std::to_string(2 * k + 1) + " : " + std::to_string(2 * k + 2)
                                : std::to_string(2 * k + 1);
    std::string check = std::string("tascell::detail::lazy_check(") + ctx_name + ", " + (has_work ? "true" : "false") + ")";
    l.edits.insert_close(l.src.end_of_stmt(p.stmt),
                         std::string(" if (") + (has_work ? "int _tlz = " : "") + check +
                             ") [[unlikely]] { tascell::detail::lazy_save(" + ctx_name + ", " + site + names + "); " +
                             ret + " }",
                         d.depth);
  }
}

}  // namespace tascell::translator
