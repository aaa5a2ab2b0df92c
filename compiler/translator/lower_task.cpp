// @task functions, calls between them, root calls, and the runtime calls a
// user writes without the hidden context (cancel, cancelled, improve).
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/Support/raw_ostream.h"
#include "collect.hpp"
#include "lower.hpp"

namespace tascell::translator {

clang::PrintingPolicy lowering::type_policy() const {
  clang::PrintingPolicy pp(src.ast().getLangOpts());
  pp.SuppressTagKeyword = true;
  pp.Bool = true;
  return pp;
}

bool lowering::spellable(clang::QualType t) const {
  // A lambda's closure type, or a class without a name (`struct { } s;`).
  if (const auto* rd = t.getNonReferenceType()->getAsCXXRecordDecl();
      rd && (rd->isLambda() || (!rd->getIdentifier() && !rd->getTypedefNameForAnonDecl())))
    return false;
  // Clang prints what has no name in the source with where it was written:
  // "(lambda at f.tcpp:3:14)", "(unnamed struct at ...)".
  const std::string s = t.getAsString(type_policy());
  return s.find("(lambda at ") == std::string::npos && s.find("(unnamed ") == std::string::npos &&
         s.find("(anonymous ") == std::string::npos;
}

clang::QualType lowering::value_qual_type(const clang::VarDecl* v) const {
  clang::QualType t = v->getType().getNonReferenceType().getUnqualifiedType();
  if (spellable(t) || v->getType()->isReferenceType()) return t;
  // A lambda (or a variable of an unnamed type) is spelled decltype(name),
  // where the variable is in scope: the pieces' parameters and the loop
  // variables the lowering declares next to the @dowork.
  clang::ASTContext& ctx = src.ast();
  auto* ref = clang::DeclRefExpr::Create(ctx, clang::NestedNameSpecifierLoc(), clang::SourceLocation(),
                                         const_cast<clang::VarDecl*>(v), false, clang::SourceLocation(),
                                         v->getType(), clang::VK_LValue);
  // Not getUnqualifiedType(): for a `const` lambda it would desugar the
  // decltype into the closure type to drop the const. decltype(name) keeps
  // the variable's own const, which a piece's parameter has anyway.
  return ctx.getDecltypeType(ref, v->getType());
}

std::string lowering::value_type(const clang::VarDecl* v) const {
  return value_qual_type(v).getAsString(type_policy());
}

std::string lowering::declaration(clang::QualType t, const std::string& declarator) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os, type_policy(), declarator);
  return os.str();
}

std::string lowering::const_ref_declaration(clang::QualType t, const std::string& name) const {
  return declaration(src.ast().getLValueReferenceType(t.withConst()), name);
}

std::string lowering::ref_declaration(clang::QualType t, const std::string& name) const {
  return declaration(src.ast().getLValueReferenceType(t), name);
}

std::string lowering::param_types(const clang::FunctionDecl* d) const {
  std::string types = "tascell::ctx";
  for (const clang::ParmVarDecl* p : d->parameters()) types += ", " + p->getType().getAsString(type_policy());
  return types;
}

void lowering::erase_marker(const marker_site& m, int depth) const {
  std::string blank;
  for (char c : src.text().substr(m.begin, m.end - m.begin)) blank += c == '\n' ? '\n' : ' ';
  edits.replace(m.begin, m.end - m.begin, blank, depth);
}

namespace {

// GCC inlines a recursive function into itself (unrolling the recursion, as
// it does for the sequential program) only when it is declared inline, and
// `inline` must not be added to the user's function: it would change its
// linkage. So a @task function's definition becomes an internal inline
// function, `f__tascell_body`, behind the user's external `f`:
//
//   long fib(tascell::ctx, int); static inline long fib__tascell_body(ctx _tc, int n) {
//     ... user's body, on its own lines, calling fib ...
//   } long fib(tascell::ctx _tc, int _tp0) { return fib__tascell_body(_tc, ...); }
//
// The wrapper is inlined into the body, so the body calls itself. Templates,
// member functions, variadic functions and functions with default arguments
// are left as they are.
//
// The prototypes of a lazy function's fast body and resume function (with
// the body's unless the body itself follows), so that other lazy functions
// can call them directly.
std::string lazy_prototypes(const lowering& l, const clang::FunctionDecl* d, bool with_body) {
  clang::QualType ret = d->getReturnType();
  std::string name = d->getNameAsString();
  std::string s;
  if (with_body) s += "static inline " + l.declaration(ret, names::body(name) + "(" + l.param_types(d) + ")") + "; ";
  return s + "static " +
         l.declaration(ret, names::resume(name) + "(tascell::ctx, tascell::translated::lazy_records&)") +
         "; ";
}

// A lazy function (lower_lazy.cpp) has a resume function too, declared with
// the prototype and defined after the entry, and its entry is the bottom of
// its unwindings: when the body returns unwinding, it rebuilds the frames.
void inline_body(lowering& l, const clang::FunctionDecl* d, const lazy_function* lazy) {
  if (d->isTemplated() || d->isVariadic() || llvm::isa<clang::CXXMethodDecl>(d) || d->isInlineSpecified() ||
      d->isMain() || !d->getIdentifier())
    return;
  for (const clang::ParmVarDecl* p : d->parameters())
    if (p->hasDefaultArg()) return;  // the external prototype would lose it
  std::string name = d->getNameAsString(), body = names::body(name);
  std::string params = "tascell::ctx " + names::ctx, types = l.param_types(d);
  // The body of a file whose lazy winds write no node runs above a lazy mark.
  std::string args = lazy && lazy->marks ? "tascell::translated::lazy_enter(" + names::ctx + ")"
                                         : names::ctx;
  for (unsigned i = 0; i < d->getNumParams(); ++i) {
    std::string p = names::parameter(i);
    params += ", " + l.declaration(d->getParamDecl(i)->getType(), p);
    args += ", static_cast<decltype(" + p + ")&&>(" + p + ")";
  }
  bool is_static = d->getStorageClass() == clang::SC_Static;
  std::string linkage = is_static ? "static " : "";
  // A prototype of the external function, so the body may call it.
  std::size_t start = l.src.offset(d->getOuterLocStart());
  std::string resume = names::resume(name);
  std::string protos = linkage + l.declaration(d->getReturnType(), name + "(" + types + ")") + "; ";
  if (lazy) protos += lazy_prototypes(l, d, false);
  l.edits.insert_open(start, protos + (is_static ? "inline " : "static inline "), 0);
  std::size_t name_at = l.src.offset(d->getLocation());
  l.edits.replace(name_at, name.size(), body, 0);
  std::size_t end = l.src.end_of_token(d->getBodyRBrace());
  std::string call = body + "(" + args + ")";
  std::string entry = "return " + call + ";";
  if (lazy) {
    std::string unwound = "if (tascell::translated::lazy_unwound(" + names::ctx + ")) [[unlikely]] ";
    std::string bottom = "tascell::translated::lazy_bottom(" + names::ctx + ", &" + resume + ");";
    entry = d->getReturnType()->isVoidType() ? call + "; " + unwound + bottom
                                              : l.declaration(d->getReturnType(), names::result) + " = " + call + "; " +
                                                    unwound + "return " + bottom +
                                                    " return " + names::result + ";";
  }
  l.edits.insert_close(end, " " + linkage + l.declaration(d->getReturnType(), name + "(" + params + ")") + " { " +
                                entry + " }" +
                                (lazy ? lazy->resume : ""), 0);
}

}  // namespace

// @task long fib(int n) -> long fib([[maybe_unused]] tascell::ctx _tc, int n)
void lower_task_function(lowering& l, const task_function& f, const lazy_function* lazy) {
  l.erase_marker(f.marker, 0);
  // Every declaration of a worker function must say @task, so that each one
  // gets the hidden parameter.
  // A declaration in another user file (a header's prototype, or the
  // definition after a header's @task prototype) is checked here too: the
  // one that follows this one, and the one this one follows when it is in
  // another file.
  for (const clang::FunctionDecl* d : f.decl->redecls()) {
    if (d == f.decl || !l.src.in_user_file(d->getLocation())) continue;
    bool here = l.src.in_this_file(d->getLocation());
    bool marked = false;
    for (const auto* a : d->specific_attrs<clang::AnnotateAttr>())
      if (a->getAnnotation() == task_annotation && !a->isInherited()) marked = true;
    if (!marked && (d->getPreviousDecl() == f.decl || (!here && f.decl->getPreviousDecl() == d))) {
      l.diag.error(l.src.pos_anywhere(d->getLocation(), l.diag),
                   "'" + d->getNameAsString() + "' was declared @task; every declaration of it must say @task");
      l.diag.note(l.src.pos(f.decl->getLocation()), "declared @task here");
    }
  }
  if (l.serial) return;
  clang::FunctionTypeLoc ftl = f.decl->getFunctionTypeLoc();
  if (ftl.isNull()) {
    l.diag.error(l.src.pos(f.decl->getLocation()), "cannot find the parameter list of this @task function");
    return;
  }
  std::size_t at = l.src.offset(ftl.getLParenLoc()) + 1;
  std::string param = "[[maybe_unused]] tascell::ctx ";
  param.append(names::ctx);
  if (f.decl->getNumParams() > 0) param.append(", ");
  l.edits.insert_open(at, param, 0);
  if (f.decl->doesThisDeclarationHaveABody()) {
    inline_body(l, f.decl, lazy);
  } else if (lazy && l.src.in_this_file(f.decl->getLocation()) && f.decl->getLexicalDeclContext()->isFileContext()) {
    // A prototype: the fast body and the resume function are declared with
    // it, so a lazy caller before the definition calls them directly.
    std::size_t semi = l.src.find_next(l.src.end_of_token(f.decl->getEndLoc()), ';');
    if (semi != std::string_view::npos) l.edits.insert_close(semi + 1, " " + lazy_prototypes(l, f.decl, true), 0);
  }
}

void lower_task_call(lowering& l, const task_call& c) {
  if (l.serial) return;
  const clang::Expr* callee = c.call->getCallee();
  std::size_t paren = l.src.find_next(l.src.end_of_token(callee->getEndLoc()), '(');
  if (paren == std::string_view::npos) {
    l.diag.error(l.src.pos(c.call->getBeginLoc()), "cannot find the arguments of this call to a @task function");
    return;
  }
  std::string arg = names::ctx;
  if (c.call->getNumArgs() > 0) arg.append(", ");
  l.edits.insert_open(paren + 1, arg, 1000);
  if (c.root) {
    // A root call from ordinary code: run it as the root task.
    std::string head = "tascell::root([&](tascell::ctx ";
    head.append(names::ctx).append(") { return ");
    l.edits.insert_open(l.src.offset(c.call->getBeginLoc()), head, -1);
    l.edits.insert_close(l.src.end_of_token(c.call->getEndLoc()), "; })", -1);
  }
}

void lower_runtime_call(lowering& l, const runtime_call& c, const constructs& all) {
  if (is_improve(c.name)) {
    const clang::Expr* first = c.call->getNumArgs() > 0 ? c.call->getArg(0)->IgnoreParenImpCasts() : nullptr;
    const auto* ref = first ? llvm::dyn_cast<clang::DeclRefExpr>(first) : nullptr;
    std::string op;
    for (const auto& s : all.shareds)
      if (ref && ref->getDecl() == s.var) op = s.op;
    std::string named = c.name == "tascell::improve_min" ? "min" : c.name == "tascell::improve_max" ? "max" : "";
    if (op.empty()) {
      l.diag.error(l.src.pos(c.call->getBeginLoc()),
                   c.name + " needs a variable declared @shared(" + (named.empty() ? "min) or @shared(max" : named) +
                       ") (or [[tascell::shared(" + (named.empty() ? "min|max" : named) + ")]])");
      return;
    }
    if (!named.empty() && named != op) {
      l.diag.error(l.src.pos(c.call->getBeginLoc()),
                   "'" + ref->getDecl()->getNameAsString() + "' is declared shared(" + op + "): write tascell::improve_" +
                       op + ", not " + c.name);
      return;
    }
    if (!l.serial || !named.empty()) return;  // the runtime's improve(incumbent&, v); api.hpp's improve_min/max
    // --serial: the incumbent is a plain variable; api.hpp's improve_min or
    // improve_max know what is better.
    const clang::Expr* callee = c.call->getCallee();
    std::size_t b = l.src.offset(callee->getBeginLoc()), e = l.src.end_of_token(callee->getEndLoc());
    l.edits.replace(b, e - b, "tascell::improve_" + op, 0);
    return;
  }
  if (!c.in_task) {
    l.diag.error(l.src.pos(c.call->getBeginLoc()),
                 c.name + "() is called outside a @task function (it acts on the innermost @dowork)");
    return;
  }
  if (l.serial) return;  // the serial prelude defines them without a context
  std::size_t paren = l.src.find_next(l.src.end_of_token(c.call->getCallee()->getEndLoc()), '(');
  if (paren != std::string_view::npos) l.edits.insert_open(paren + 1, names::ctx, 1000);
}

}  // namespace tascell::translator
