// @task functions, calls between them, root calls, and the runtime calls a
// user writes without the hidden context (cancel, cancelled, improve).
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/TypeLoc.h"
#include "collect.hpp"
#include "lower.hpp"

namespace tascell::translator {

std::string lowering::value_type(const clang::VarDecl* v) const {
  clang::PrintingPolicy pp(src.ast().getLangOpts());
  pp.SuppressTagKeyword = true;
  pp.Bool = true;
  return v->getType().getNonReferenceType().getUnqualifiedType().getAsString(pp);
}

void lowering::erase_marker(const marker_site& m, int depth) const {
  std::string blank;
  for (char c : src.text().substr(m.begin, m.end - m.begin)) blank += c == '\n' ? '\n' : ' ';
  edits.replace(m.begin, m.end - m.begin, blank, depth);
}

// @task long fib(int n) -> long fib([[maybe_unused]] tascell::ctx _tc, int n)
void lower_task_function(lowering& l, const task_function& f) {
  l.erase_marker(f.marker, 0);
  // Every declaration of a worker function must say @task, so that each one
  // gets the hidden parameter.
  for (const clang::FunctionDecl* d : f.decl->redecls()) {
    if (d == f.decl || !l.src.in_main_file(d->getLocation())) continue;
    bool marked = false;
    for (const auto* a : d->specific_attrs<clang::AnnotateAttr>())
      if (a->getAnnotation() == task_annotation && !a->isInherited()) marked = true;
    if (!marked && d->getPreviousDecl() == f.decl) {
      l.diag.error(l.src.pos(d->getLocation()),
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
  param.append(ctx_name);
  if (f.decl->getNumParams() > 0) param.append(", ");
  l.edits.insert_open(at, param, 0);
}

void lower_task_call(lowering& l, const task_call& c) {
  if (l.serial) return;
  const clang::Expr* callee = c.call->getCallee();
  std::size_t paren = l.src.find_next(l.src.end_of_token(callee->getEndLoc()), '(');
  if (paren == std::string_view::npos) {
    l.diag.error(l.src.pos(c.call->getBeginLoc()), "cannot find the arguments of this call to a @task function");
    return;
  }
  std::string arg = ctx_name;
  if (c.call->getNumArgs() > 0) arg.append(", ");
  l.edits.insert_open(paren + 1, arg, 1000);
  if (c.root) {
    // A root call from ordinary code: run it as the root task.
    std::string head = "tascell::root([&](tascell::ctx ";
    head.append(ctx_name).append(") { return ");
    l.edits.insert_open(l.src.offset(c.call->getBeginLoc()), head, -1);
    l.edits.insert_close(l.src.end_of_token(c.call->getEndLoc()), "; })", -1);
  }
}

void lower_runtime_call(lowering& l, const runtime_call& c, const constructs& all) {
  if (c.name == "tascell::improve") {
    if (!l.serial) return;  // the runtime's improve(incumbent&, v)
    // --serial: the incumbent is a plain variable.
    const clang::Expr* first = c.call->getNumArgs() > 0 ? c.call->getArg(0)->IgnoreParenImpCasts() : nullptr;
    const auto* ref = first ? llvm::dyn_cast<clang::DeclRefExpr>(first) : nullptr;
    std::string op;
    for (const auto& s : all.shareds)
      if (ref && ref->getDecl() == s.var) op = s.op;
    if (op.empty()) {
      l.diag.error(l.src.pos(c.call->getBeginLoc()),
                   "tascell::improve needs a variable declared @shared(min) or @shared(max)");
      return;
    }
    const clang::Expr* callee = c.call->getCallee();
    std::size_t b = l.src.offset(callee->getBeginLoc()), e = l.src.end_of_token(callee->getEndLoc());
    l.edits.replace(b, e - b, "tascell_serial_improve_" + op, 0);
    return;
  }
  if (!c.in_task) {
    l.diag.error(l.src.pos(c.call->getBeginLoc()),
                 c.name + "() is called outside a @task function (it acts on the innermost @dowork)");
    return;
  }
  if (l.serial) return;  // the serial prelude defines them without a context
  std::size_t paren = l.src.find_next(l.src.end_of_token(c.call->getCallee()->getEndLoc()), '(');
  if (paren != std::string_view::npos) l.edits.insert_open(paren + 1, ctx_name, 1000);
}

}  // namespace tascell::translator
