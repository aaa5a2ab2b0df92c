// @dowork { parts } and @dowork for: capture analysis and lowering onto
// tascell::dowork / tascell::dowork_for.
#include <map>
#include <set>

#include "captures.hpp"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/raw_ostream.h"
#include "addresses.hpp"
#include "lower.hpp"
#include "owned.hpp"

namespace tascell::translator {
namespace {

using clang::VarDecl;

// One clause of a piece and the parameter its body receives.
struct piece_clause {
  std::string clause, param;
  std::string prologue = {};  // a declaration the body needs first
};

bool is_pointer(const VarDecl* v) { return v->getType().getNonReferenceType()->isPointerType(); }

const array_section* find_section(const std::vector<array_section>& v, const std::string& name) {
  for (const auto& s : v)
    if (s.name == name) return &s;
  return nullptr;
}

std::string clause_list_text(const std::vector<piece_clause>& cs) {
  std::string out;
  for (const auto& c : cs) out += c.clause + ", ";
  return out;
}

std::string param_list_text(const std::vector<piece_clause>& cs) {
  std::string out;
  for (const auto& c : cs) out += ", " + c.param;
  return out;
}

std::string prologue_text(const std::vector<piece_clause>& cs) {
  std::string out;
  for (const auto& c : cs) out += c.prologue;
  return out;
}

// The options argument: if(...) and priority(...).
std::string options_text(const clause_list& cl) {
  if (!cl.priority.empty()) {
    std::string s = "tascell::priority([&] { return static_cast<std::int64_t>(" + cl.priority + "); }";
    if (!cl.condition.empty()) s += ", static_cast<bool>(" + cl.condition + ")";
    return s + "), ";
  }
  if (!cl.condition.empty()) return "tascell::when(static_cast<bool>(" + cl.condition + ")), ";
  return "";
}

// True when the part is only `x = expr;` with x not in expr: what x held
// before does not matter to the part (it need not be copied in).
bool only_assigns(const clang::Stmt* part, const VarDecl* v) {
  const auto* e = llvm::dyn_cast_or_null<clang::Expr>(part);
  const auto* a = e ? llvm::dyn_cast<clang::BinaryOperator>(e->IgnoreImplicit()->IgnoreParens()) : nullptr;
  if (!a || a->getOpcode() != clang::BO_Assign) return false;
  const auto* lhs = llvm::dyn_cast<clang::DeclRefExpr>(a->getLHS()->IgnoreParens());
  if (!lhs || lhs->getDecl() != v) return false;
  for (const auto& u : free_variables(a->getRHS(), v->getASTContext()))
    if (u.var == v) return false;
  return true;
}

// Whether a variable pieces only read is read in place in this process
// (tascell/read.hpp): a class that is not small and trivially copyable, so
// that a copy for each piece would cost (a std::vector, a std::string).
// Small trivially copyable values travel in the spawn point by value (in).
bool reads_in_place(clang::ASTContext& ctx, clang::QualType t) {
  // A class template over a template parameter (std::vector<T>) is a class.
  if (t->isDependentType()) return t->getAs<clang::TemplateSpecializationType>() != nullptr;
  if (!t->isRecordType() || t->isIncompleteType() || is_table_type(t)) return false;
  if (t.isTriviallyCopyableType(ctx) && ctx.getTypeSize(t) <= 16 * 8) return false;
  const auto* rd = t->getAsCXXRecordDecl();
  return !rd || !rd->isLambda();
}

// Whether t is a standard contiguous sized range whose elements a loop may
// read by index as a section (tascell/read_section.hpp): std::vector (not
// of bool), std::array, std::span, std::basic_string, not dependent.
bool sectionable(clang::QualType t) {
  t = t.getNonReferenceType();
  if (t->isDependentType()) return false;
  const auto* rd = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(t->getAsCXXRecordDecl());
  if (!rd || !rd->isInStdNamespace()) return false;
  llvm::StringRef n = rd->getName();
  if (n == "vector") {
    const clang::TemplateArgumentList& a = rd->getTemplateArgs();
    return !(a.size() > 0 && a[0].getKind() == clang::TemplateArgument::Type && a[0].getAsType()->isBooleanType());
  }
  return n == "array" || n == "span" || n == "basic_string";
}

// A variable holding a lambda that writes a variable it captures by
// reference: that variable and the write, else {nullptr, nullptr}.
struct capture_write {
  const VarDecl* var = nullptr;
  const clang::Stmt* at = nullptr;
};
capture_write lambda_writes_capture(const VarDecl* v, clang::ASTContext& ctx) {
  const clang::Expr* init = v->getType()->isReferenceType() ? nullptr : v->getInit();
  const auto* lam = init ? llvm::dyn_cast<clang::LambdaExpr>(init->IgnoreImplicit()) : nullptr;
  if (!lam || !lam->getBody()) return {};
  for (const clang::LambdaCapture& c : lam->captures()) {
    if (c.getCaptureKind() != clang::LCK_ByRef || !c.capturesVariable()) continue;
    const auto* cv = llvm::dyn_cast<VarDecl>(c.getCapturedVar());
    if (!cv) continue;
    // A non-const accessor whose result is only read (table[x] of a
    // vector) is a read, as in a piece (write_through).
    struct refs_to : clang::RecursiveASTVisitor<refs_to> {
      const VarDecl* var;
      std::vector<const clang::DeclRefExpr*> found;
      bool VisitDeclRefExpr(clang::DeclRefExpr* e) {
        if (e->getDecl() == var) found.push_back(e);
        return true;
      }
    } refs{{}, cv, {}};
    refs.TraverseStmt(lam->getBody());
    clang::ExprMutationAnalyzer m(*lam->getBody(), ctx);
    for (const clang::DeclRefExpr* e : refs.found)
      if (const clang::Stmt* w = write_through(m, m.findMutation(e), e); w && !is_dependent_call(w, e))
        return {cv, w};
  }
  return {};
}

// A variable used by a piece that may run on another worker: how it travels.
// Returns false (after an error) when it cannot. `part`: the part (after the
// first) it is used by, or nullptr in a loop body.
bool travel(lowering& l, const captured_var& u, const clause_list& cl, bool written,
            std::vector<piece_clause>& out, const char* where, const clang::Stmt* part = nullptr) {
  const VarDecl* v = u.var;
  std::string name = v->getNameAsString();
  clang::QualType type = l.value_qual_type(v);
  clang::ASTContext& ctx = l.src.ast();
  if (ctx.getBaseElementType(v->getType().getNonReferenceType()).isVolatileQualified()) {
    // The piece would get a copy, which is not the volatile object.
    l.diag.error(l.src.pos(u.first_use->getBeginLoc()),
                 "volatile variable '" + name + "' is used " + where +
                     ": a piece gets a copy of it, which would not be the volatile object; read it into a local "
                     "variable before the @dowork");
    return false;
  }
  if (v->getType()->isReferenceType() && !l.spellable(type)) {
    l.diag.error(l.src.pos(u.first_use->getBeginLoc()),
                 "reference '" + name + "' to a lambda or a value of an unnamed type is used " + where +
                     ": a piece cannot name its type; use the lambda itself, or a copy of it declared with auto "
                     "before the @dowork");
    return false;
  }
  if (capture_write cw = lambda_writes_capture(v, ctx); cw.var) {
    // Each piece calling it writes the variable itself: a race the
    // variable's own uses would not show.
    std::string c = cw.var->getNameAsString();
    l.diag.error(l.src.pos(u.first_use->getBeginLoc()),
                 "lambda '" + name + "' writes '" + c + "', which it captures by reference, and is used " + where +
                     ": the piece may run on another worker at the same time as the rest of the @dowork, writing '" +
                     c + "' too; return the value from the lambda and accumulate it in a variable named in "
                     "reduction(...) (in @dowork { }, call it in the first part only)");
    l.diag.note(l.src.pos(cw.at->getBeginLoc()), "'" + c + "' is written here");
    return false;
  }
  for (const auto& r : cl.reductions)
    if (r.var == name) {
      out.push_back({"tascell::reduce<" + reduction_op_type(r.op) + ">(" + name + ")", l.ref_declaration(type, name)});
      return true;
    }
  if (type->isFunctionType()) {
    // A reference to a function: the piece gets a pointer to it, which
    // travels as the function it is (tascell/function_address.hpp).
    std::string param = names::reference(name);
    out.push_back({"tascell::in(&" + name + ")", l.const_ref_declaration(ctx.getPointerType(type), param),
                   l.declaration(ctx.getLValueReferenceType(type), name) + " = *" + param + "; "});
    return true;
  }
  // Without the parentheses of a declarator (long (&a)[4]): const is added
  // to the array type below.
  clang::QualType vt = v->getType().getNonReferenceType().IgnoreParens();
  if (vt->isArrayType()) {
    // A C array travels as a copy of its elements (copy, or copyout when
    // this part writes it), and the body sees an array of the same type
    // over the piece's copy: `a` stays an array (sizeof, range for).
    const auto* at = ctx.getAsConstantArrayType(vt);
    if (!at) {
      l.diag.error(l.src.pos(u.first_use->getBeginLoc()),
                   "array '" + name + "' of unknown size is used " + where + ": only arrays of known size are copied");
      return false;
    }
    clang::PrintingPolicy pp = l.type_policy();
    clang::QualType elem = ctx.getBaseElementType(vt);
    if (!written) elem.addConst();
    std::string param = names::array(name);
    std::string count = std::to_string(ctx.getConstantArrayElementCount(at));
    clang::QualType whole = written || ctx.getBaseElementType(vt).isConstQualified()
                                ? vt
                                : ctx.getQualifiedType(vt, clang::Qualifiers::fromCVRMask(clang::Qualifiers::Const));
    std::string ptype;
    llvm::raw_string_ostream os(ptype);
    ctx.getPointerType(whole).print(os, pp);
    std::string first = llvm::isa<clang::ConstantArrayType>(at->getElementType().getCanonicalType().getTypePtr())
                            ? "reinterpret_cast<" + ctx.getPointerType(elem).getAsString(pp) + ">(" + name + ")"
                            : name;
    out.push_back({std::string(written ? "tascell::copyout(" : "tascell::copy(") + first + ", 0, " + count + ")",
                   l.declaration(ctx.getPointerType(elem), param),
                   std::string(written ? "auto& " : "const auto& ") + name + " = *reinterpret_cast<" + os.str() +
                       ">(" + param + "); "});
    return true;
  }
  if (is_pointer(v)) {
    const array_section* copy = find_section(cl.copies, name);
    const array_section* copyout = copy ? nullptr : find_section(cl.copyouts, name);
    if (copy || copyout) {
      const char* clause = copy ? "tascell::copy(" : "tascell::copyout(";
      const array_section* s = copy ? copy : copyout;
      // A pointer to an array of known size (char (*b)[4]) travels as its
      // elements' elements: the section of its arrays is a section of
      // their elements (arrays cannot be copied as values), and the body
      // gets the pointer back over the piece's copy.
      if (const auto* at = ctx.getAsConstantArrayType(type->getPointeeType())) {
        clang::QualType elem = ctx.getBaseElementType(type->getPointeeType());
        clang::QualType flat = ctx.getPointerType(elem);
        std::string count = std::to_string(ctx.getConstantArrayElementCount(at));
        std::string param = names::array(name);
        out.push_back({std::string(clause) + "reinterpret_cast<" + flat.getAsString(l.type_policy()) + ">(" + name +
                           "), (" + s->lo + ") * " + count + ", (" + s->len + ") * " + count + ")",
                       l.declaration(flat, param),
                       l.declaration(type, name) + " = reinterpret_cast<" + type.getAsString(l.type_policy()) + ">(" +
                           param + "); "});
        return true;
      }
      out.push_back({std::string(clause) + name + ", " + s->lo + ", " + s->len + ")", l.declaration(type, name)});
      return true;
    }
    if (find_section(cl.shareds, name)) {
      if (written) {
        // The piece gets the pointer's value: what it points to is shared,
        // the pointer itself is not, and its new value would be lost.
        l.diag.error(l.src.pos(u.write ? u.write->getBeginLoc() : u.first_use->getBeginLoc()),
                     "pointer '" + name + "' is assigned " + where + ", but shared(" + name +
                         ") shares only what it points to: each piece has its own copy of the pointer, so the "
                         "assignment would be lost; assign a variable declared in the body instead");
        return false;
      }
      out.push_back({"tascell::shared(" + name + ")", l.declaration(type, name)});
      return true;
    }
    if (type->getPointeeType()->isFunctionType() && !written) {
      // Travels as the function it points to (tascell/function_address.hpp).
      out.push_back({"tascell::in(" + name + ")", l.const_ref_declaration(type, name)});
      return true;
    }
    l.diag.error(l.src.pos(u.first_use->getBeginLoc()),
                 "pointer '" + name + "' is used " + where + " without a clause saying what it points to: " +
                     "add copy(" + name + "[lo:len]), copyout(" + name + "[lo:len]) or shared(" + name + ")");
    return false;
  }
  if (written && is_writable_span(type)) {
    // out(x) would bring back the view, not what a piece in another
    // process wrote through it (its own copy of the elements).
    l.diag.error(l.src.pos(u.write ? u.write->getBeginLoc() : u.first_use->getBeginLoc()),
                 "the std::span '" + name + "' or what it views is written " + where + ": a piece in another "
                 "process writes its own copy of the elements, which does not come back; write them in a "
                 "@dowork for, each iteration its own element (" + name + "[i] = ...), or use a pointer with "
                 "copyout(p[lo:len])");
    return false;
  }
  if (written) {
    // Unless the part only assigns it, it may read what the variable held
    // (x += 1, or an assignment under a condition): it is copied in too.
    // Where the part runs on its owner both refer to the variable itself.
    if (!part || !only_assigns(part, v))
      out.push_back({"tascell::in(" + name + ")", l.const_ref_declaration(type, names::input(name)),
                     "if (__builtin_addressof(" + name + ") != __builtin_addressof(" + names::input(name) + ")) " +
                         name + " = " + names::input(name) + "; "});
    out.push_back({"tascell::out(" + name + ")", l.ref_declaration(type, name)});
    return true;
  }
  if (holds_address(ctx, type)) {
    // Its bytes would be an address in another process.
    if (!l.serial && l.noted_local.insert(v).second)
      l.diag.note(l.src.pos(u.first_use->getBeginLoc()),
                  "'" + name + "' holds an address (a pointer or reference member, or a capture by reference): "
                  "the work of this @dowork stays in its process, unless its type has a cereal serialize "
                  "function");
    out.push_back({"tascell::in_here(" + name + ")", l.const_ref_declaration(type, name)});
    return true;
  }
  out.push_back({(reads_in_place(ctx, type) ? "tascell::read(" : "tascell::in(") + name + ")",
                 l.const_ref_declaration(type, name)});
  return true;
}

// How a piece that may run elsewhere uses *this: as an input (a copy), or,
// when it writes members, as an input and an output (copied back at the
// join). The body sees the object through `_tth`, a pointer to the piece's
// copy: explicit `this` tokens are renamed (same length: columns stay),
// implicit member accesses `x` become `_tth->x`, `[this]` captures become
// `[_tth]` (`[=, _tth = _tth]` after `=`). Returns false (after an error) when it cannot.
bool travel_this(lowering& l, const dowork_site& d, const this_use& t, bool written, std::vector<piece_clause>& cs,
                 std::string& prologue) {
  bool ok = true;
  for (auto at : t.star_this_captures) {
    l.diag.error(l.src.pos(at), "a lambda capturing [*this] inside a piece of @dowork is not supported: "
                                "capture [this] (the piece already works on its own copy of *this)");
    ok = false;
  }
  for (auto at : t.in_macros) {
    l.diag.error(l.src.pos(at), "'this' or a member used inside a macro cannot be used in a piece of @dowork "
                                "(the translator rewrites them to use the piece's copy of *this)");
    ok = false;
  }
  if (written)
    if (const auto* m = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(d.function); m && m->isConst()) {
      l.diag.error(l.src.pos(t.write->getBeginLoc()),
                   "a mutable member is written by a part of @dowork in a const member function: not supported");
      ok = false;
    }
  if (!ok) return false;
  const std::string& th = names::this_pointer;
  std::string obj = d.in_piece ? "*" + th : "*this";
  std::string type = "std::remove_cvref_t<decltype(*this)>";
  if (written) {
    cs.push_back({"tascell::in(" + obj + ")", "const " + type + "& " + names::self_in});
    cs.push_back({"tascell::out(" + obj + ")", type + "& " + names::self});
    prologue = "if (__builtin_addressof(" + names::self + ") != __builtin_addressof(" + names::self_in + ")) " +
               names::self + " = " + names::self_in + "; [[maybe_unused]] auto* const " + th +
               " = __builtin_addressof(" + names::self + "); ";
  } else {
    cs.push_back({"tascell::in(" + obj + ")", "const " + type + "& " + names::self});
    prologue = "[[maybe_unused]] const auto* const " + th + " = __builtin_addressof(" + names::self + "); ";
  }
  if (l.serial) return true;
  // [=, _tth] would capture explicitly what = captures: an init-capture.
  for (auto at : t.copy_default_captures)
    if (l.this_rewritten.insert(l.src.offset(at)).second) l.edits.replace(l.src.offset(at), 4, th + " = " + th, 1000);
  for (auto at : t.this_tokens)
    if (l.this_rewritten.insert(l.src.offset(at)).second) l.edits.replace(l.src.offset(at), 4, th, 1000);
  for (auto at : t.captures)
    if (l.this_rewritten.insert(l.src.offset(at)).second) l.edits.replace(l.src.offset(at), 4, th, 1000);
  for (auto at : t.implicit_members)
    if (l.this_rewritten.insert(l.src.offset(at)).second) l.edits.insert_open(l.src.offset(at), th + "->", 1000);
  return true;
}

// Whether a variable a part reads (and does not write) travels as a plain
// input: in(x), or shared(p) for a pointer with a shared clause. Such inputs,
// when several parts after the first read them, are given once in
// common(...) (tascell/dowork.hpp): the spawn point keeps one copy.
bool plain_input(const captured_var& u, const clause_list& cl) {
  if (u.write && !is_pointer(u.var)) return false;
  std::string name = u.var->getNameAsString();
  for (const auto& r : cl.reductions)
    if (r.var == name) return false;
  if (u.var->getType().getNonReferenceType()->isArrayType()) return false;
  if (is_pointer(u.var))
    return !find_section(cl.copies, name) && !find_section(cl.copyouts, name) && find_section(cl.shareds, name);
  return true;
}

void report_exits(lowering& l, const clang::Stmt* s, const char* what, bool allow_continue) {
  exits x = find_exits(s);
  for (auto* r : x.returns) l.diag.error(l.src.pos(r->getBeginLoc()), std::string("return out of ") + what);
  for (auto* g : x.gotos) l.diag.error(l.src.pos(g->getBeginLoc()), std::string("goto out of ") + what);
  for (auto* b : x.breaks) l.diag.error(l.src.pos(b->getBeginLoc()), std::string("break out of ") + what);
  if (!allow_continue)
    for (auto* c : x.continues) l.diag.error(l.src.pos(c->getBeginLoc()), std::string("continue out of ") + what);
}

// ------------------------------------------------------------------ parts ---

// Calls in a piece (`where`: "by a part of @dowork", "in the body of
// @dowork for") of functions that write a variable of static storage,
// themselves or deeper: each an error, with a note at the write. False
// when there was one.
bool calls_writing_globals(lowering& l, const clang::Stmt* piece, const std::string& where,
                           const std::string& who) {
  bool ok = true;
  for (const callee_write& c : l.callees.in(piece, l.src.ast())) {
    std::string fn = c.callee->getNameAsString(), var = c.var->getNameAsString();
    l.diag.error(l.src.pos(c.call->getBeginLoc()),
                 "'" + fn + "' writes '" + var + "', a variable of static storage (each process has its own), and "
                 "is called " + where + ": " + who + " may run on another worker or in another process, where the "
                 "write is a race or is lost; return what it computes and assign " + var + " after the @dowork, or "
                 "use a reduction");
    l.diag.note(l.src.pos_anywhere(c.write->getBeginLoc(), l.diag), "'" + var + "' is written here");
    ok = false;
  }
  return ok;
}

void lower_parts(lowering& l, const dowork_site& d, const clang::CompoundStmt* body, const clause_list& cl,
                 const constructs& all) {
  std::vector<const clang::Stmt*> parts(body->body_begin(), body->body_end());
  std::vector<std::vector<captured_var>> uses;
  for (const auto* p : parts) {
    uses.push_back(free_variables(p, l.src.ast()));
    add_wind_uses(l, p, all, uses.back());
  }
  std::set<std::string> reductions;
  for (const auto& r : cl.reductions) reductions.insert(r.var);

  // Races: a variable one part writes must not be used by another part
  // (reductions excepted: each piece has its own copy).
  std::map<const VarDecl*, std::vector<std::pair<std::size_t, const captured_var*>>> by_var;
  for (std::size_t i = 0; i < parts.size(); ++i)
    for (const auto& u : uses[i]) by_var[u.var].push_back({i, &u});
  bool ok = true;
  for (auto& [v, list] : by_var) {
    if (list.size() < 2 || reductions.count(v->getNameAsString())) continue;
    const captured_var* writer = nullptr;
    for (auto& [i, u] : list)
      if (u->write && !is_pointer(v)) writer = u;
    if (!writer) continue;
    ok = false;
    l.diag.error(l.src.pos(writer->write->getBeginLoc()),
                 "data race: '" + v->getNameAsString() + "' is written by one part of @dowork and used by another");
    for (auto& [i, u] : list)
      if (u != writer) l.diag.note(l.src.pos(u->first_use->getBeginLoc()), "also used by this part");
  }
  // *this is captured like a variable.
  std::vector<this_use> this_uses;
  for (const auto* p : parts) this_uses.push_back(find_this(p, l.src.ast()));
  {
    std::vector<std::size_t> users;
    const this_use* writer = nullptr;
    for (std::size_t i = 0; i < parts.size(); ++i)
      if (this_uses[i].first_use) {
        users.push_back(i);
        if (this_uses[i].write && !writer) writer = &this_uses[i];
      }
    if (users.size() >= 2 && writer) {
      ok = false;
      l.diag.error(l.src.pos(writer->write->getBeginLoc()),
                   "data race: a member of '*this' is written by one part of @dowork and '*this' is used by another");
      for (std::size_t i : users)
        if (&this_uses[i] != writer) l.diag.note(l.src.pos(this_uses[i].first_use->getBeginLoc()), "also used by this part");
    }
  }
  for (std::size_t i = 0; i < parts.size(); ++i) report_exits(l, parts[i], "a part of @dowork", false);
  // Variables of static storage: a part after the first may run elsewhere.
  for (std::size_t i = 1; i < parts.size(); ++i)
    for (const auto& g : global_writes(parts[i], l.src.ast())) {
      std::string name = g.var->getNameAsString();
      l.diag.error(l.src.pos(g.write->getBeginLoc()),
                   "'" + name + "', a variable of static storage (each process has its own), is written by a part "
                   "of @dowork: the part may run on another worker or in another process, where the write is a "
                   "race or is lost; assign a local variable in the part and " + name + " after the @dowork, or "
                   "use a reduction");
      ok = false;
    }
  for (std::size_t i = 1; i < parts.size(); ++i)
    if (!calls_writing_globals(l, parts[i], "by a part of @dowork", "the part")) ok = false;

  l.erase_marker(d.marker, d.depth);
  if (l.serial || !ok || parts.empty()) return;

  // The plain inputs read by two or more of the parts after the first, in
  // order of first use: given once, in common(...).
  std::vector<const captured_var*> common;
  {
    std::map<const VarDecl*, int> readers;
    for (std::size_t i = 1; i < parts.size(); ++i)
      for (const auto& u : uses[i])
        if (plain_input(u, cl)) ++readers[u.var];
    std::set<const VarDecl*> seen;
    for (std::size_t i = 1; i < parts.size(); ++i)
      for (const auto& u : uses[i])
        if (readers[u.var] >= 2 && seen.insert(u.var).second) common.push_back(&u);
  }
  std::vector<piece_clause> common_cs;
  for (const auto* u : common)
    if (!travel(l, *u, cl, false, common_cs, "by a part of @dowork")) return;
  std::string common_params;
  for (const auto& c : common_cs) common_params += ", [[maybe_unused]] " + c.param;
  auto is_common = [&](const VarDecl* v) {
    for (const auto* u : common)
      if (u->var == v) return true;
    return false;
  };

  const bool bare = l.arguments_only == &d;
  std::string head = (bare ? "" : "tascell::dowork(" + names::ctx + ", ") + options_text(cl);
  if (!common_cs.empty()) {
    std::string list = clause_list_text(common_cs);
    head += "tascell::common(" + list.substr(0, list.size() - 2) + "), ";
  }
  l.edits.replace(l.src.offset(body->getLBracLoc()), 1, head, d.depth);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::size_t b = l.src.offset(parts[i]->getBeginLoc()), e = l.src.end_of_stmt(parts[i]);
    std::string open, close;
    if (i == 0) {
      // Part 0 is always run by the owner: it may use the frame directly.
      open = "[&]([[maybe_unused]] tascell::ctx " + names::ctx + ") { ";
      close = " }";
    } else {
      std::vector<piece_clause> cs;
      std::string prologue;
      if (this_uses[i].first_use &&
          !travel_this(l, d, this_uses[i], this_uses[i].write != nullptr, cs, prologue))
        return;
      for (const auto& u : uses[i]) {
        if (is_common(u.var)) continue;
        if (u.entry_write) {
          l.diag.error(l.src.pos(u.entry_write->getBeginLoc()),
                       "an entry of table '" + u.var->getNameAsString() + "' is written in place by a part of "
                       "@dowork: the part may run in another process, on a copy of the entry; update it with " +
                           u.var->getNameAsString() + ".apply(i, f)");
          return;
        }
        bool written = u.write != nullptr;
        if (!travel(l, u, cl, written, cs, "by a part of @dowork", parts[i])) return;
      }
      open = "tascell::part(" + clause_list_text(cs) + "[]([[maybe_unused]] tascell::ctx " + names::ctx +
             common_params + param_list_text(cs) + ") { " + prologue + prologue_text(cs);
      close = " })";
    }
    if (i + 1 < parts.size()) close += ", ";
    l.edits.insert_open(b, open, d.depth);
    l.edits.insert_close(e, close, d.depth);
  }
  l.edits.replace(l.src.offset(body->getRBracLoc()), 1, bare ? "" : ");", d.depth);
  if (bare) l.arguments_written = true;
}

// ------------------------------------------------------------------ loops ---

struct canonical_loop {
  const VarDecl* var = nullptr;
  std::string first, bound, step, cmp;
};

bool refers_to(const clang::Expr* e, const VarDecl* v) {
  const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
  return r && r->getDecl() == v;
}

bool analyse_loop(lowering& l, const clang::ForStmt* f, canonical_loop& out) {
  auto fail = [&](clang::SourceLocation at, const std::string& why) {
    l.diag.error(l.src.pos(at), "@dowork for needs a loop in canonical form: " + why);
    return false;
  };
  const auto* init = llvm::dyn_cast_or_null<clang::DeclStmt>(f->getInit());
  if (!init || !init->isSingleDecl())
    return fail(f->getBeginLoc(), "declare one integer induction variable in the init, e.g. for (int i = 0; ...)");
  const auto* v = llvm::dyn_cast<VarDecl>(init->getSingleDecl());
  if (!v || !v->getType()->isIntegerType() || !v->getInit())
    return fail(init->getBeginLoc(), "the induction variable must be an initialised integer");
  out.var = v;
  out.first = l.src.text_of(v->getInit()->getSourceRange());
  const auto* cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(
      f->getCond() ? f->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!cond || !refers_to(cond->getLHS(), v))
    return fail(f->getCond() ? f->getCond()->getBeginLoc() : f->getBeginLoc(),
                "the condition must be i < e, i <= e, i > e or i >= e");
  switch (cond->getOpcode()) {
    case clang::BO_LT: out.cmp = "lt"; break;
    case clang::BO_LE: out.cmp = "le"; break;
    case clang::BO_GT: out.cmp = "gt"; break;
    case clang::BO_GE: out.cmp = "ge"; break;
    default: return fail(cond->getOperatorLoc(), "the condition must be i < e, i <= e, i > e or i >= e");
  }
  out.bound = l.src.text_of(cond->getRHS()->getSourceRange());
  const clang::Expr* inc = f->getInc();
  if (const auto* u = llvm::dyn_cast_or_null<clang::UnaryOperator>(inc); u && refers_to(u->getSubExpr(), v)) {
    out.step = u->isIncrementOp() ? "1" : "-1";
  } else if (const auto* c = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(inc);
             c && refers_to(c->getLHS(), v) &&
             (c->getOpcode() == clang::BO_AddAssign || c->getOpcode() == clang::BO_SubAssign)) {
    std::string by = l.src.text_of(c->getRHS()->getSourceRange());
    out.step = c->getOpcode() == clang::BO_AddAssign ? "(" + by + ")" : "-(" + by + ")";
  } else {
    return fail(inc ? inc->getBeginLoc() : f->getRParenLoc(),
                "the increment must be ++i, i++, --i, i--, i += c or i -= c");
  }
  bool up = out.cmp == "lt" || out.cmp == "le";
  if ((out.step == "1" && !up) || (out.step == "-1" && up))
    return fail(inc->getBeginLoc(), "the increment goes away from the bound; the loop would never end");
  return true;
}

std::string range_text(const canonical_loop& loop) {
  return "tascell::range::canonical(" + loop.first + ", " + loop.bound + ", " + loop.step + ", tascell::cmp::" +
         loop.cmp + ")";
}

// A variable whose elements a @dowork for's body writes (`write`: one such
// write): the iterations may each write the element they own, a[c*i + d]
// (owned.hpp), which travels as owned(a, c, d): in place in this process,
// only those elements to and from another. Else an error saying what can be
// written.
bool per_iteration_write(lowering& l, const clang::Stmt* body, const VarDecl* v, const VarDecl* induction,
                         const std::set<const VarDecl*>& written, const clang::Stmt* write,
                         std::vector<piece_clause>& cs) {
  std::string name = v->getNameAsString();
  owned_index o = find_owned_index(l.src, body, v, induction, written);
  if (o.ok) {
    // Elements only assigned, by every iteration (a statement of the body
    // itself, no `continue`), need not travel to a thief: it never reads
    // them, and writes each.
    bool assigned_only = o.only_assigned && o.assigned_always && find_exits(body).continues.empty();
    cs.push_back({"tascell::owned(" + name + ", " + std::to_string(o.scale) + ", static_cast<std::int64_t>(" +
                      o.offset + ")" + (assigned_only ? ", tascell::assigned_only" : "") + ")",
                  "decltype(tascell::owned(" + name + ", 1, 0).base) " + name});
    return true;
  }
  bool global = !v->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(v);
  std::string what = global ? "'" + name + "', a variable of static storage (each process has its own),"
                            : "'" + name + "'";
  const std::string spellings = name + "[i] = ..., " + name + "[i + d], " + name + "[c*i + d] or row " + name +
                                "[i][j], with every use of " + name + " in the body at that one index";
  if (o.first_use && o.stray) {
    l.diag.error(l.src.pos(o.stray->getBeginLoc()),
                 what + " is written element by element in the body of @dowork for, but here " + o.why +
                     ": another iteration, perhaps running at the same time, may own that element; an "
                     "iteration may use only the one element it owns (write the results into another array)");
    l.diag.note(l.src.pos(o.first_use->getBeginLoc()), "first use of '" + name + "', at the index this "
                                                       "iteration owns");
    return false;
  }
  clang::QualType t = v->getType().getNonReferenceType();
  bool elements = t->isArrayType() || t->isPointerType() || t->isRecordType() || t->isDependentType();
  std::string hint = global ? "; name a local variable in a reduction clause and assign " + name + " after the loop"
                            : "; name it in a reduction clause or declare it inside the loop";
  if (elements) hint += ", or write only the element each iteration owns: " + spellings;
  l.diag.error(l.src.pos((o.stray ? o.stray : write)->getBeginLoc()),
               what + " is written in the body of @dowork for: iterations may run in parallel" +
                   (global ? ", on other workers and in other processes" : "") + hint);
  return false;
}

// Whether the statement uses the hidden context: it calls a @task function or
// cancel()/cancelled(), or holds a @dowork or a @wind. A loop body that does
// not is a leaf: it is emitted without the ctx parameter, and the runtime
// runs its iterations in blocks between polls (loop_block, tascell/dowork/loop_site.hpp).
bool uses_ctx(const lowering& l, const clang::Stmt* s, const constructs& all) {
  std::size_t b = l.src.offset(s->getBeginLoc()), e = l.src.end_of_stmt(s);
  auto inside = [&](clang::SourceLocation at) {
    std::size_t o = l.src.offset(at);
    return o >= b && o < e;
  };
  for (const auto& c : all.calls)
    if (inside(c.call->getBeginLoc())) return true;
  for (const auto& c : all.runtime_calls)
    if (!is_improve(c.name) && inside(c.call->getBeginLoc())) return true;
  for (const auto& d : all.doworks)
    if (inside(d.stmt->getBeginLoc())) return true;
  for (const auto& w : all.winds)
    if (inside(w.stmt->getBeginLoc())) return true;
  return false;
}

// The body of a @dowork for, with induction variable `var`, lowered to a
// call of tascell::dowork_for over `range`; [head_begin, head_end) is the
// loop's head (`for (...)`), which the call replaces.
// `inline_body`: the body is inlined where the runtime calls it (a loop
// over a table's indices runs it for every position of a table, most of
// them doing little; the call cost 10-15% of KQKR's analysis).
// A loop over a range's elements (`@dowork for (auto& x : r)`): its
// element variable is declared from the piece's view of r at position i.
struct element_loop {
  const clang::CXXForRangeStmt* f = nullptr;
};

// A canonical loop whose body is a leaf (it takes no ctx): lowered as a
// block body, which runs the iterations it is given as the user's own loop
// (`for (int i = first; i < end; ++i) body`), so that the compiler
// optimises it as it does the sequential loop (tascell/dowork/loop_site.hpp).
struct block_loop {
  const clang::ForStmt* f = nullptr;
  bool up = true;  // i < e or i <= e: the values go up
};

void lower_loop_body(lowering& l, const dowork_site& d, const VarDecl* var, const std::string& range,
                     const clang::Stmt* body, std::size_t head_begin, std::size_t head_end, const clause_list& cl,
                     const constructs& all, bool inline_body = false, element_loop elements = {},
                     block_loop blocks = {}) {
  std::vector<piece_clause> cs;
  bool ok = true;
  std::set<std::string> used;
  std::vector<captured_var> body_uses = free_variables(body, l.src.ast());
  add_wind_uses(l, body, all, body_uses);
  std::set<const VarDecl*> written;
  for (const auto& u : body_uses)
    if (u.write) written.insert(u.var);
  for (const auto& u : body_uses) {
    std::string name = u.var->getNameAsString();
    used.insert(name);
    if (u.var == var && elements.f) continue;  // the element: below
    if (u.var == var) {
      if (u.write) {
        l.diag.error(l.src.pos(u.write->getBeginLoc()),
                     "the induction variable '" + name + "' is written inside the body of @dowork for");
        ok = false;
      }
      continue;
    }
    bool reduced = false;
    for (const auto& r : cl.reductions) reduced |= r.var == name;
    if (u.entry_write) {
      l.diag.error(l.src.pos(u.entry_write->getBeginLoc()),
                   "an entry of table '" + name + "' is written in place in the body of @dowork for: an iteration "
                   "may run in another process, on a copy of the entry; update it with " + name + ".apply(i, f)");
      ok = false;
      continue;
    }
    bool pointer_clause = is_pointer(u.var) && (find_section(cl.copies, name) || find_section(cl.copyouts, name) ||
                                                 find_section(cl.shareds, name));
    // A pointer without a clause whose elements the body writes: what the
    // analyzer finds of writes through it (u.pointee_write) misses p[i] = v.
    bool element_write = u.write != nullptr;
    if (is_pointer(u.var))
      element_write = !pointer_clause && !u.write &&
                      (u.pointee_write || find_owned_index(l.src, body, u.var, var, written).element_written);
    if (!is_pointer(u.var) && u.pointee_write && !u.write && !reduced) {
      // An iterator or a struct holding a pointer, written through: it
      // stays in this process (in_here), so each iteration may write the
      // one element it owns (it[i] = ...); any other write through it is a
      // race between iterations.
      owned_index o = find_owned_index(l.src, body, u.var, var, written);
      if (!o.ok) {
        const clang::Stmt* at = o.stray ? o.stray : u.pointee_write;
        l.diag.error(l.src.pos(at->getBeginLoc()),
                     "what '" + name + "' points to is written in the body of @dowork for, and not only as " +
                         name + "[i] at the index each iteration owns (it holds an address: an iterator, or a "
                         "pointer or reference member): iterations may run in parallel and write the same "
                         "element; index the container itself (v[i] = ..., each iteration its own element), "
                         "or name a local variable in a reduction clause");
        if (o.stray && o.stray->getBeginLoc() != u.pointee_write->getBeginLoc())
          l.diag.note(l.src.pos(u.pointee_write->getBeginLoc()), "written here");
        ok = false;
        continue;
      }
    }
    if (element_write && !reduced) {
      // Per-iteration writes: each iteration writes only the element it owns.
      if (!per_iteration_write(l, body, u.var, var, written,
                               u.write ? u.write : u.pointee_write, cs))
        ok = false;
      continue;
    }
    if (u.write && !reduced && !is_pointer(u.var)) {
      l.diag.error(l.src.pos(u.write->getBeginLoc()),
                   "'" + name + "' is written in the body of @dowork for: iterations may run in parallel; "
                   "name it in a reduction clause or declare it inside the loop");
      ok = false;
      continue;
    }
    if (!u.write && !u.pointee_write && !reduced && sectionable(u.var->getType())) {
      // Read only at indices c*i + d: a piece in another process carries
      // the elements its iterations read (read_section.hpp).
      owned_index o = find_owned_index(l.src, body, u.var, var, written, false);
      if (o.ok) {
        std::string offsets;
        for (const std::string& d : o.offsets) offsets += (offsets.empty() ? "" : ", ") + ("static_cast<std::int64_t>(" + d + ")");
        cs.push_back({"tascell::read_section(" + name + ", " + std::to_string(o.scale) + ", {" + offsets + "})",
                      "decltype(tascell::read_section(" + name + ", 1, {0}).base) " + name});
        continue;
      }
    }
    if (!travel(l, u, cl, false, cs, "in the body of @dowork for")) ok = false;
  }
  // Variables of static storage: each process has its own.
  for (const auto& g : global_writes(body, l.src.ast()))
    if (!per_iteration_write(l, body, g.var, var, written, g.write, cs)) ok = false;
  if (!calls_writing_globals(l, body, "in the body of @dowork for", "an iteration")) ok = false;
  for (const auto& r : cl.reductions)
    if (!used.count(r.var))
      l.diag.error(r.at, "reduction variable '" + r.var + "' is not used in the loop");
  // The range of an element loop: written through a non-const reference
  // element (x = ..., x.f = ...), each iteration its own element, in place
  // as a per-iteration write; else read.
  std::string element_init;
  if (elements.f) {
    const std::string& rv = names::range_of_loop;
    const clang::Expr* init = elements.f->getRangeInit();
    const auto* range_ref = llvm::dyn_cast<clang::DeclRefExpr>(init->IgnoreParenImpCasts());
    const clang::Stmt* element_write = nullptr;
    for (const auto& u : body_uses)
      if (u.var == var && u.write) element_write = u.write;
    clang::QualType et = var->getType();
    bool by_ref = et->isLValueReferenceType() && !et.getNonReferenceType().isConstQualified();
    if (element_write && by_ref) {
      if (range_ref)
        for (const auto& u : body_uses)
          if (u.var == range_ref->getDecl()) {
            l.diag.error(l.src.pos(u.first_use->getBeginLoc()),
                         "'" + u.var->getNameAsString() + "' is written element by element through '" +
                             var->getNameAsString() + "' in the body of @dowork for, and used here: another "
                             "iteration, perhaps running at the same time, is writing its elements; an "
                             "iteration may use only its own element");
            l.diag.note(l.src.pos(element_write->getBeginLoc()), "written here");
            ok = false;
          }
      cs.insert(cs.begin(), {"tascell::owned(" + rv + ", 1, 0)", "decltype(tascell::owned(" + rv + ", 1, 0).base) " + rv});
      element_init = rv + "[" + names::iteration + "]";
    } else if (init->getType()->isArrayType()) {
      cs.insert(cs.begin(), {"tascell::copy(std::ranges::data(" + rv + "), 0, std::ranges::ssize(" + rv + "))",
                             "const std::remove_extent_t<std::remove_reference_t<decltype(" + rv + ")>>* " + rv});
      element_init = rv + "[" + names::iteration + "]";
    } else {
      cs.insert(cs.begin(), {"tascell::in(" + rv + ")", "const std::remove_reference_t<decltype(" + rv + ")>& " + rv});
      element_init = "std::ranges::begin(" + rv + ")[" + names::iteration + "]";
    }
  }
  this_use t = find_this(body, l.src.ast());
  std::vector<piece_clause> this_cs;
  std::string prologue;
  if (t.write) {
    l.diag.error(l.src.pos(t.write->getBeginLoc()),
                 "a member of '*this' is written in the body of @dowork for: iterations may run in parallel; "
                 "accumulate into a local variable named in a reduction clause");
    ok = false;
  } else if (t.first_use && ok) {
    ok = travel_this(l, d, t, false, this_cs, prologue);
  }
  cs.insert(cs.begin(), this_cs.begin(), this_cs.end());
  exits x = find_exits(body);
  report_exits(l, body, "the body of @dowork for", true);
  ok = ok && x.returns.empty() && x.gotos.empty() && x.breaks.empty();

  l.erase_marker(d.marker, d.depth);
  if (l.serial || !ok) return;
  std::string name = var->getNameAsString();
  std::string type = l.value_type(var);
  const bool bare = l.arguments_only == &d;
  std::string head = (bare ? "" : "tascell::dowork_for(" + names::ctx + ", ") + options_text(cl) +
                     (bare ? l.arguments_range : range) + ", " + clause_list_text(cs) + "[](";
  const bool leaf = !uses_ctx(l, body, all);
  const bool block = leaf && blocks.f && !inline_body && !elements.f;
  if (!leaf) head.append("[[maybe_unused]] tascell::ctx ").append(names::ctx).append(", ");
  if (block) head.append("tascell::iterations ").append(names::block);
  else head.append("std::int64_t ").append(names::iteration);
  head.append(param_list_text(cs)).append(")");
  if (inline_body) head.append(" TASCELL_LAMBDA_INLINE");
  head.append(" { ");
  if (block) {
    // for (int i = static_cast<int>(_tblk.first); i < _tblk.end; ++i) { body }
    head.append(prologue).append(prologue_text(cs));
    head.append("for (").append(l.declaration(l.value_qual_type(var), name)).append(" = static_cast<");
    head.append(type).append(">(").append(names::block).append(".first); ").append(name);
    head.append(blocks.up ? " < " : " > ").append(names::block).append(".end; ");
    head.append(l.src.text_of(blocks.f->getInc()->getSourceRange())).append(") ");
    l.edits.replace(head_begin, head_end - head_begin, head, d.depth);
    l.edits.insert_close(l.src.end_of_stmt(body), bare ? " }" : " });", d.depth);
    if (bare) l.arguments_written = true;
    return;  // `continue` goes on to the next iteration of this loop
  }
  if (elements.f) {
    // The element as the user declared it: `auto& x = _tro[_ti]; `.
    head.append("[[maybe_unused]] ").append(l.src.text_of({var->getBeginLoc(), var->getLocation()}));
    head.append(" = ").append(element_init).append("; ");
  } else {
    // The iteration is a value of the induction variable's type: said to
    // the compiler, which can then index with the 64-bit number (i - 1,
    // i + 1 without sign extensions, as in the sequential loop).
    if (!var->getType()->isDependentType() && l.src.ast().getTypeSize(var->getType()) < 64)
      head.append("if (").append(names::iteration).append(" != static_cast<").append(type).append(">(")
          .append(names::iteration).append(")) __builtin_unreachable(); ");
    head.append("[[maybe_unused]] ").append(l.declaration(l.value_qual_type(var), name)).append(" = static_cast<").append(type).append(">(");
    head.append(names::iteration).append("); ");
  }
  head.append(prologue).append(prologue_text(cs));
  if (elements.f) {
    // for (DECL : RANGE) -> { auto&& _tro = (RANGE); dowork_for(..., range::over(_tro), ...
    // RANGE stays where it is, with the edits made in it.
    l.edits.replace(head_begin, l.src.offset(elements.f->getColonLoc()) + 1 - head_begin,
                    "{ auto&& " + names::range_of_loop + " = (", d.depth);
    l.edits.replace(l.src.offset(elements.f->getRParenLoc()), 1, "); " + head, d.depth);
    l.edits.insert_close(l.src.end_of_stmt(body), bare ? " } }" : " }); }", d.depth);
  } else {
    l.edits.replace(head_begin, head_end - head_begin, head, d.depth);
    l.edits.insert_close(l.src.end_of_stmt(body), bare ? " }" : " });", d.depth);
  }
  if (bare) l.arguments_written = true;
  // `continue` ends this iteration: a return from the body.
  for (const auto* c : x.continues) l.edits.replace(l.src.offset(c->getBeginLoc()), 8, "return  ", d.depth + 1);
}

void lower_loop(lowering& l, const dowork_site& d, const clang::ForStmt* f, const clause_list& cl,
                const constructs& all) {
  canonical_loop loop;
  if (!analyse_loop(l, f, loop)) return;
  lower_loop_body(l, d, loop.var, range_text(loop), f->getBody(), l.src.offset(f->getForLoc()),
                  l.src.offset(f->getRParenLoc()) + 1, cl, all, false, {},
                  block_loop{f, loop.cmp == "lt" || loop.cmp == "le"});
}

// Whether t is tascell::index_space<...> (a table's indices()).
bool is_index_space(clang::QualType t) {
  const auto* rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  if (!rd || rd->getName() != "index_space") return false;
  const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(rd->getDeclContext());
  return ns && ns->getName() == "tascell";
}

// `@dowork for (long i : t.indices())`: a loop over a table's indices.
void lower_range_loop(lowering& l, const dowork_site& d, const clang::CXXForRangeStmt* f, const clause_list& cl,
                      const constructs& all) {
  const clang::Expr* range = f->getRangeInit();
  const VarDecl* var = f->getLoopVariable();
  bool ok = true;
  if (range && !is_index_space(range->getType())) {
    // A loop over a range's elements, by their positions.
    if (f->getInit()) {
      l.diag.error(l.src.pos(f->getInit()->getBeginLoc()),
                   "@dowork for (init; x : r) is not supported: declare the variable before the @dowork");
      l.erase_marker(d.marker, d.depth);
      return;
    }
    lower_loop_body(l, d, var, "tascell::range::over(" + names::range_of_loop + ")", f->getBody(),
                    l.src.offset(f->getForLoc()), l.src.offset(f->getRParenLoc()) + 1, cl, all, false,
                    element_loop{f});
    return;
  }
  if (!range) {
    l.diag.error(l.src.pos(f->getBeginLoc()), "@dowork for over a range needs a range");
    ok = false;
  }
  if (!var->getType()->isIntegerType()) {
    l.diag.error(l.src.pos(var->getBeginLoc()),
                 "the induction variable of @dowork for over a table's indices must be an integer, e.g. long i");
    ok = false;
  }
  if (!cl.priority.empty()) {
    l.diag.error(d.marker.clauses_at, "a @dowork for over a table's indices takes no priority()");
    ok = false;
  }
  if (!ok) {
    l.erase_marker(d.marker, d.depth);
    return;
  }
  lower_loop_body(l, d, var, l.src.text_of(range->getSourceRange()), f->getBody(), l.src.offset(f->getForLoc()),
                  l.src.offset(f->getRParenLoc()) + 1, cl, all, true);
}

}  // namespace

std::string canonical_range(const lowering& l, const clang::ForStmt* f) {
  diagnostics discard("", "");
  lowering quiet{l.src, discard, l.edits, l.serial};
  canonical_loop loop;
  return analyse_loop(quiet, f, loop) ? range_text(loop) : "";
}

void lower_dowork(lowering& l, const dowork_site& d, const constructs& all) {
  int before = l.diag.count();
  clause_list cl = parse_clauses(d.marker.clauses, d.marker.clauses_at, l.diag);
  // A wrong clause list would make every later check guess: stop here.
  if (l.diag.count() > before) return;
  if (l.serial && (!cl.priority.empty() || !cl.condition.empty())) {
    // The clauses vanish from the serial program; what they use must not
    // become unused (and so warned about). sizeof evaluates nothing.
    std::string keep = "{ ";
    if (!cl.priority.empty()) keep += "static_cast<void>(sizeof(" + cl.priority + ")); ";
    if (!cl.condition.empty()) keep += "static_cast<void>(sizeof(" + cl.condition + ")); ";
    l.edits.insert_open(d.marker.end, keep, d.depth);
    l.edits.insert_close(l.src.end_of_stmt(d.body), " }", d.depth);
  }
  if (const auto* body = llvm::dyn_cast<clang::CompoundStmt>(d.body)) lower_parts(l, d, body, cl, all);
  else if (const auto* r = llvm::dyn_cast<clang::CXXForRangeStmt>(d.body)) lower_range_loop(l, d, r, cl, all);
  else lower_loop(l, d, llvm::cast<clang::ForStmt>(d.body), cl, all);
}

}  // namespace tascell::translator
