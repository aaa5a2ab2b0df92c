#include "collect.hpp"


#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace tascell::translator {

bool is_task_function(const clang::FunctionDecl* f) {
  if (!f) return false;
  for (const clang::FunctionDecl* d : f->redecls())
    for (const auto* a : d->specific_attrs<clang::AnnotateAttr>())
      if (a->getAnnotation() == task_annotation) return true;
  return false;
}

namespace {

using namespace clang;

class collector : public RecursiveASTVisitor<collector> {
 public:
  collector(const source& src, diagnostics& diag, constructs& out) : src_(src), diag_(diag), out_(out) {}

  // Templates are translated as written, once: not per instantiation.
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl* d) {
    // What a system header (the standard library, the runtime) or the
    // precompiled prelude declares holds no markers: not walked (the
    // prelude's PCH would be read whole).
    if (d && !llvm::isa<TranslationUnitDecl>(d) &&
        (d->isFromASTFile() || src_.ast().getSourceManager().isInSystemHeader(d->getLocation())))
      return true;
    auto* f = llvm::dyn_cast_or_null<FunctionDecl>(d);
    if (f) functions_.push_back(f);
    bool r = RecursiveASTVisitor::TraverseDecl(d);
    if (f) functions_.pop_back();
    return r;
  }

  bool VisitFunctionDecl(FunctionDecl* f) {
    if (!src_.in_this_file(f->getLocation())) return true;
    for (const auto* a : f->specific_attrs<AnnotateAttr>()) {
      if (a->getAnnotation() != task_annotation || a->isInherited()) continue;
      out_.tasks.push_back({f, marker_of(a->getLocation())});
    }
    return true;
  }

  bool VisitVarDecl(VarDecl* v) {
    if (!src_.in_this_file(v->getLocation())) return true;
    for (const auto* a : v->specific_attrs<AnnotateAttr>()) {
      if (a->isInherited()) continue;
      if (a->getAnnotation() == task_annotation) {
        marker_of(a->getLocation());
        diag_.error(src_.pos(a->getLocation()), "@task must precede a function declaration");
      } else if (a->getAnnotation() == shared_annotation) {
        marker_site m = marker_of(a->getLocation());
        if (v->hasLocalStorage() || !v->isFileVarDecl())
          diag_.error(src_.pos(a->getLocation()), "@shared declares a variable at namespace scope");
        else
          out_.shareds.push_back({v, m, ""});  // its op is checked once the marker's text is known
      }
    }
    return true;
  }

  // e, when it names a @shared variable (declared here or in a translated
  // header) outside a macro.
  static const DeclRefExpr* shared_ref(const Expr* e) {
    const auto* ref = llvm::dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    if (!ref || ref->getLocation().isMacroID()) return nullptr;
    const auto* v = llvm::dyn_cast<VarDecl>(ref->getDecl());
    if (!v) return nullptr;
    for (const auto* a : v->getCanonicalDecl()->specific_attrs<AnnotateAttr>())
      if (a->getAnnotation() == shared_annotation) return ref;
    return nullptr;
  }

  // A read of a @shared variable: its value taken (lvalue to rvalue).
  bool VisitImplicitCastExpr(ImplicitCastExpr* c) {
    if (c->getCastKind() != CK_LValueToRValue || !src_.in_this_file(c->getBeginLoc())) return true;
    if (const auto* ref = shared_ref(c->getSubExpr())) out_.shared_reads.push_back(ref);
    return true;
  }

  bool VisitAttributedStmt(AttributedStmt* s) {
    if (!src_.in_this_file(s->getBeginLoc())) return true;
    for (const Attr* a : s->getAttrs()) {
      const auto* sup = llvm::dyn_cast<SuppressAttr>(a);
      if (!sup || sup->diagnosticIdentifiers_size() == 0) continue;
      llvm::StringRef id = *sup->diagnosticIdentifiers_begin();
      const Stmt* body = s->getSubStmt();
      if (id == dowork_suppression) {
        if (!llvm::isa<CompoundStmt>(body) && !llvm::isa<ForStmt>(body) && !llvm::isa<CXXForRangeStmt>(body)) {
          marker_of(a->getLocation());
          diag_.error(src_.pos(a->getLocation()),
                      "@dowork must be followed by a compound statement { ... } or a for loop");
          continue;
        }
        out_.doworks.push_back({s, body, current_function(), marker_of(a->getLocation()), 0});
      } else if (id == wind_suppression) {
        out_.winds.push_back({s, body, current_function(), marker_of(a->getLocation()), 0});
      }
    }
    return true;
  }

  bool VisitDeclStmt(DeclStmt* d) {
    // `@dowork int x;` lands on the declaration statement.
    if (!src_.in_this_file(d->getBeginLoc())) return true;
    for (const Decl* x : d->decls())
      for (const auto* a : x->attrs())
        if (const auto* sup = llvm::dyn_cast<SuppressAttr>(a))
          if (sup->diagnosticIdentifiers_size() > 0) {
            llvm::StringRef id = *sup->diagnosticIdentifiers_begin();
            if (id == dowork_suppression || id == wind_suppression) marker_of(a->getLocation());
            if (id == dowork_suppression)
              diag_.error(src_.pos(a->getLocation()),
                          "@dowork must be followed by a compound statement { ... } or a for loop, "
                          "not a declaration");
            else if (id == wind_suppression)
              diag_.error(src_.pos(a->getLocation()), "@wind must be followed by a statement, not a declaration");
          }
    return true;
  }

  bool VisitCallExpr(CallExpr* c) {
    if (!src_.in_this_file(c->getBeginLoc())) return true;
    const FunctionDecl* callee = c->getDirectCallee();
    // A @shared variable bound to a parameter `const T&` is read too
    // (std::max(best, 0L)): it becomes best.get(), a temporary the
    // reference binds to.
    if (callee)
      for (unsigned i = 0; i < c->getNumArgs() && i < callee->getNumParams(); ++i) {
        QualType t = callee->getParamDecl(i)->getType();
        if (!t->isReferenceType() || !t->getPointeeType().isConstQualified()) continue;
        if (const auto* ref = shared_ref(c->getArg(i))) out_.shared_reads.push_back(ref);
      }
    bool in_task = is_task_function(current_function());
    if (!callee) {
      // In a template, a call that depends on a template parameter names
      // its candidates only: it is a call of a worker function when they are.
      int tasks = 0, others = 0;
      const Expr* e = c->getCallee()->IgnoreParenImpCasts();
      auto count = [&](const NamedDecl* d) {
        d = d->getUnderlyingDecl();
        if (const auto* t = llvm::dyn_cast<FunctionTemplateDecl>(d)) d = t->getTemplatedDecl();
        if (const auto* f = llvm::dyn_cast<FunctionDecl>(d)) ++(is_task_function(f) ? tasks : others);
      };
      if (const auto* u = llvm::dyn_cast<UnresolvedLookupExpr>(e))
        for (const NamedDecl* d : u->decls()) count(d);
      else if (const auto* m = llvm::dyn_cast<UnresolvedMemberExpr>(e))
        for (const NamedDecl* d : m->decls()) count(d);
      if (tasks > 0 && others > 0)
        diag_.error(src_.pos(c->getBeginLoc()),
                    "this call may resolve to a @task function or to an ordinary one, depending on the template "
                    "arguments: give them different names");
      else if (tasks > 0)
        out_.calls.push_back({c, !in_task});
      return true;
    }
    if (is_task_function(callee)) {
      out_.calls.push_back({c, !in_task});
      return true;
    }
    std::string name = callee->getQualifiedNameAsString();
    if (name == "tascell::cancel" || name == "tascell::cancelled" || is_improve(name))
      out_.runtime_calls.push_back({c, name, in_task});
    return true;
  }

 private:
  const FunctionDecl* current_function() const {
    return functions_.empty() ? nullptr : functions_.back();
  }

  // The marker a macro-made attribute came from; the rest of its record is
  // filled from the pre-lexer's table (translate.cpp).
  marker_site marker_of(SourceLocation attr_loc) const {
    marker_site m;
    m.begin = src_.offset(attr_loc);
    out_.seen_markers.push_back(m.begin);
    return m;
  }

  const source& src_;
  diagnostics& diag_;
  constructs& out_;
  std::vector<const FunctionDecl*> functions_;
};

template <class T>
void assign_depths(std::vector<T>& sites, const std::vector<std::pair<std::size_t, std::size_t>>& all,
                   const source& src) {
  for (auto& s : sites) {
    std::size_t b = src.offset(s.stmt->getBeginLoc()), e = src.end_of_stmt(s.body);
    for (auto [ob, oe] : all)
      if (ob <= b && e <= oe && !(ob == b && oe == e)) ++s.depth;
  }
}

}  // namespace

constructs collect(const source& src, diagnostics& diag) {
  constructs out;
  collector c(src, diag, out);
  c.TraverseDecl(src.ast().getTranslationUnitDecl());
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (auto& d : out.doworks) ranges.emplace_back(src.offset(d.stmt->getBeginLoc()), src.end_of_stmt(d.body));
  for (auto& w : out.winds) ranges.emplace_back(src.offset(w.stmt->getBeginLoc()), src.end_of_stmt(w.body));
  assign_depths(out.doworks, ranges, src);
  // Pieces that may run elsewhere: parts after the first and loop bodies.
  std::vector<std::pair<const FunctionDecl*, std::pair<std::size_t, std::size_t>>> pieces;
  for (auto& d : out.doworks) {
    if (const auto* c = llvm::dyn_cast<CompoundStmt>(d.body)) {
      for (unsigned i = 1; i < c->size(); ++i) {
        const Stmt* p = c->body_begin()[i];
        pieces.push_back({d.function, {src.offset(p->getBeginLoc()), src.end_of_stmt(p)}});
      }
    } else if (const auto* f = llvm::dyn_cast<ForStmt>(d.body)) {
      pieces.push_back({d.function, {src.offset(f->getBody()->getBeginLoc()), src.end_of_stmt(f->getBody())}});
    } else if (const auto* r = llvm::dyn_cast<CXXForRangeStmt>(d.body)) {
      pieces.push_back({d.function, {src.offset(r->getBody()->getBeginLoc()), src.end_of_stmt(r->getBody())}});
    }
  }
  for (auto& d : out.doworks) {
    std::size_t b = src.offset(d.stmt->getBeginLoc()), e = src.end_of_stmt(d.body);
    for (auto& [f, r] : pieces)
      if (f == d.function && r.first <= b && e <= r.second) d.in_piece = true;
  }
  assign_depths(out.winds, ranges, src);
  return out;
}

}  // namespace tascell::translator
