// @wind(before, after) statement, and @shared(min|max) incumbents.
#include <cctype>
#include <cstdint>
#include <cstring>
#include <set>

#include <algorithm>
#include <string_view>
#include <vector>

#include "captures.hpp"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "lower.hpp"

namespace tascell::translator {
namespace {

using namespace clang;

// The tokens of an expression as the user wrote it (before/after of a
// @wind, which Clang never parses): identifiers and punctuators; literals
// and comments are dropped.
struct token {
  std::string text;
  bool ident;
};

std::vector<token> tokens_of(std::string_view s) {
  static const char* const puncts[] = {"->*", "<<=", ">>=", "...", "->", "::", "++", "--", "+=", "-=", "*=", "/=",
                                       "%=",  "&=",  "|=",  "^=",  "==", "!=", "<=", ">=", "&&", "||", "<<", ">>",
                                       ".*"};
  std::vector<token> out;
  auto ident_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::size_t i = 0, n = s.size();
  while (i < n) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (s.substr(i, 2) == "//") {
      while (i < n && s[i] != '\n') ++i;
    } else if (s.substr(i, 2) == "/*") {
      std::size_t e = s.find("*/", i + 2);
      i = e == std::string_view::npos ? n : e + 2;
    } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      // A pp-number, digit separators and exponent signs included.
      ++i;
      while (i < n && (ident_char(s[i]) || s[i] == '.' ||
                       (s[i] == '\'' && i + 1 < n && ident_char(s[i + 1])) ||
                       ((s[i] == '+' || s[i] == '-') && std::strchr("eEpP", s[i - 1]))))
        ++i;
    } else if (ident_char(c)) {
      std::size_t b = i;
      while (i < n && ident_char(s[i])) ++i;
      std::string_view id = s.substr(b, i - b);
      bool prefix = id == "L" || id == "u" || id == "U" || id == "u8" || id == "R" || id == "LR" || id == "uR" ||
                    id == "UR" || id == "u8R";
      if (prefix && i < n && (s[i] == '"' || s[i] == '\'')) {
        if (id.back() == 'R' && s[i] == '"') {  // a raw string: R"delim( ... )delim"
          std::size_t open = s.find('(', i);
          if (open == std::string_view::npos) return out;
          std::string close = ")" + std::string(s.substr(i + 1, open - i - 1));
          close += '"';
          std::size_t e = s.find(close, open);
          i = e == std::string_view::npos ? n : e + close.size();
        }
        continue;  // the literal itself is skipped below
      }
      out.push_back({std::string(id), true});
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < n && s[i] != c) i += s[i] == '\\' ? 2 : 1;
      ++i;
    } else {
      std::string p(1, c);
      for (const char* q : puncts)
        if (s.substr(i, std::strlen(q)) == q) {
          p = q;
          break;
        }
      out.push_back({p, false});
      i += p.size();
    }
  }
  return out;
}

bool is_assignment(const std::string& t) {
  return t == "=" || t == "+=" || t == "-=" || t == "*=" || t == "/=" || t == "%=" || t == "&=" || t == "|=" ||
         t == "^=" || t == "<<=" || t == ">>=";
}

// The names the expression uses as variables, and those it may change
// (assigns, increments, takes the address of), also through parentheses.
void names_of(const std::vector<token>& ts, std::set<std::string>& used, std::set<std::string>& changed) {
  for (std::size_t k = 0; k < ts.size(); ++k) {
    if (!ts[k].ident) continue;
    const std::string prev = k > 0 ? ts[k - 1].text : "";
    const std::string next = k + 1 < ts.size() ? ts[k + 1].text : "";
    // A member's name after . or ->; after .* or ->* a variable (the
    // member pointer) is named.
    if (prev == "." || prev == "->" || prev == "::" || next == "::") continue;
    used.insert(ts[k].text);
    // What `s.*x = v` or `*p = v` changes is the member or the pointee.
    if (prev == ".*" || prev == "->*") continue;
    std::size_t b = k, e = k + 1;
    while (b > 0 && ts[b - 1].text == "(") --b;
    while (e < ts.size() && ts[e].text == ")") ++e;
    std::string before = b > 0 ? ts[b - 1].text : "", after = e < ts.size() ? ts[e].text : "";
    // A unary * (after an operator or an opening bracket, not after an
    // operand) reads the pointer: `*p = v` changes what p points to.
    const std::string before_star = b > 1 ? ts[b - 2].text : "";
    const bool operand_before = b > 1 && (ts[b - 2].ident || before_star == ")" || before_star == "]");
    if (before == "*" && !operand_before && !(after == "++" || after == "--")) continue;
    if (before == "++" || before == "--" || before == "&" || after == "++" || after == "--" || is_assignment(after))
      changed.insert(ts[k].text);
  }
}

bool contains(const Stmt* s, const Stmt* x) {
  if (s == x) return true;
  for (const Stmt* c : s->children())
    if (c && contains(c, x)) return true;
  return false;
}

// The statement a local variable is visible in (from its declaration on).
const Stmt* scope_of(ASTContext& ctx, const VarDecl* v) {
  if (const auto* p = llvm::dyn_cast<ParmVarDecl>(v)) {
    const auto* f = llvm::dyn_cast_or_null<FunctionDecl>(p->getDeclContext());
    return f ? f->getBody() : nullptr;
  }
  for (const auto& n : ctx.getParents(*v))
    if (const auto* d = n.get<DeclStmt>())
      for (const auto& m : ctx.getParents(*d))
        if (const auto* s = m.get<Stmt>()) return s;
  return nullptr;
}

// The parent of e, parentheses skipped.
DynTypedNode parent_of(ASTContext& ctx, const Stmt* e) {
  DynTypedNode n = DynTypedNode::create(*e);
  for (;;) {
    auto ps = ctx.getParents(n);
    if (ps.empty()) return DynTypedNode();
    if (!ps[0].get<ParenExpr>()) return ps[0];
    n = ps[0];
  }
}

bool in_lambda(ASTContext& ctx, const Stmt* e, const Stmt* stop) {
  DynTypedNode n = DynTypedNode::create(*e);
  for (;;) {
    auto ps = ctx.getParents(n);
    if (ps.empty()) return false;
    if (ps[0].get<LambdaExpr>()) return true;
    if (const auto* s = ps[0].get<Stmt>(); s == stop) return false;
    n = ps[0];
  }
}

class local_finder : public RecursiveASTVisitor<local_finder> {
 public:
  std::vector<const VarDecl*> vars;
  std::vector<const DeclRefExpr*> refs;
  bool VisitVarDecl(VarDecl* v) {
    if (v->hasLocalStorage()) vars.push_back(v);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    refs.push_back(e);
    return true;
  }
};

// The innermost variable named `name` of w's function visible at w (its
// parameters and the locals declared before w in a scope around it), or
// nullptr: before and after are text Clang never parses, so their names are
// looked up here.
const VarDecl* visible_at(lowering& l, const wind_site& w, const std::string& name,
                          const std::vector<const VarDecl*>& vars) {
  ASTContext& ctx = l.src.ast();
  std::size_t at = l.src.offset(w.stmt->getBeginLoc());
  const VarDecl* v = nullptr;
  std::size_t v_at = 0;
  for (const VarDecl* c : vars) {
    if (c->getName() != name || !l.src.in_this_file(c->getLocation())) continue;
    std::size_t c_at = l.src.offset(c->getLocation());
    const Stmt* scope = scope_of(ctx, c);
    if (c_at >= at || !scope || !contains(scope, w.stmt)) continue;
    if (!v || c_at > v_at) v = c, v_at = c_at;
  }
  return v;
}

// The locals and parameters of f.
std::vector<const VarDecl*> locals_of(const FunctionDecl* f) {
  local_finder finder;
  for (const ParmVarDecl* p : f->parameters()) finder.vars.push_back(p);
  finder.TraverseStmt(const_cast<Stmt*>(f->getBody()));
  return finder.vars;
}

// The variables of the enclosing function that before or after can keep by
// value (docs/decisions.md): scalars (numbers, pointers, enums) that nothing
// can change while the @wind runs. The statement must not write them; the
// function must only read or assign them (no address taken, no reference
// bound, no write from a lambda); no @wind of the function may change them
// in its before or after. Their values are then the same at every run of
// before and after, and a copy lets them stay in registers: the wind node
// keeps the closures by value (tascell/wind.hpp) instead of pointing at
// variables in memory.
std::vector<std::string> by_value_names(lowering& l, const wind_site& w, const constructs& all,
                                        const std::set<std::string>& used) {
  std::vector<std::string> out;
  std::vector<std::pair<std::uint64_t, std::string>> sized;
  if (!w.function || !w.function->getBody() || used.empty()) return out;
  ASTContext& ctx = l.src.ast();
  const Stmt* body = w.function->getBody();
  std::set<std::string> changed, ignored;
  for (const auto& o : all.winds) {
    if (o.function != w.function) continue;
    auto args = split_top_level(o.marker.clauses, o.marker.clauses_at);
    for (const auto& a : args) names_of(tokens_of(a.first), ignored, changed);
  }
  local_finder f;
  for (const ParmVarDecl* p : w.function->parameters()) f.vars.push_back(p);
  f.TraverseStmt(const_cast<Stmt*>(body));
  for (const std::string& name : used) {
    if (changed.count(name)) continue;
    const VarDecl* v = visible_at(l, w, name, f.vars);
    if (!v) continue;
    QualType t = v->getType();
    if (t->isReferenceType() || t->isDependentType() || !t->isScalarType() || t.isVolatileQualified()) continue;
    bool ok = true;
    for (const DeclRefExpr* e : f.refs) {
      if (e->getDecl() != v) continue;
      DynTypedNode p = parent_of(ctx, e);
      if (const auto* c = p.get<ImplicitCastExpr>(); c && c->getCastKind() == CK_LValueToRValue) continue;
      bool write = false;
      if (const auto* b = p.get<BinaryOperator>(); b && b->isAssignmentOp() && contains(b->getLHS(), e)) write = true;
      if (const auto* u = p.get<UnaryOperator>(); u && u->isIncrementDecrementOp()) write = true;
      if (write && !contains(w.body, e) && !in_lambda(ctx, e, body)) continue;
      ok = false;
      break;
    }
    if (ok) sized.emplace_back(ctx.getTypeSize(t), name);
  }
  // Largest first, so that the closure has no padding (the wind node keeps
  // closures of at most 32 bytes by value: five pointers and ints fit).
  std::stable_sort(sized.begin(), sized.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (auto& [size, name] : sized) out.push_back(name);
  return out;
}

// The capture list of before or after: by reference, with the names of
// `by_value` the expression uses copied.
std::string capture_list(const std::string& expr, const std::vector<std::string>& by_value) {
  std::set<std::string> used, changed;
  names_of(tokens_of(expr), used, changed);
  std::string list = "[&";
  for (const auto& n : by_value)
    if (used.count(n)) list += ", " + n;
  return list + "]";
}

}  // namespace

void add_wind_uses(lowering& l, const clang::Stmt* s, const constructs& all, std::vector<captured_var>& uses) {
  ASTContext& ctx = l.src.ast();
  std::vector<const VarDecl*> vars;  // of the function the winds in s are in
  for (const auto& w : all.winds) {
    if (!w.function || !w.function->getBody() || !contains(s, w.stmt)) continue;
    auto args = split_top_level(w.marker.clauses, w.marker.clauses_at);
    std::set<std::string> used, changed;
    for (const auto& a : args) names_of(tokens_of(a.first), used, changed);
    if (used.empty()) continue;
    if (vars.empty()) vars = locals_of(w.function);
    for (const std::string& name : used) {
      const VarDecl* v = visible_at(l, w, name, vars);
      // Only what the statement takes from around it: a variable declared
      // in it is the piece's own.
      if (!v || !v->hasLocalStorage() || l.src.offset(v->getLocation()) >= l.src.offset(s->getBeginLoc())) continue;
      // A use at the marker, for the diagnostics that point at one.
      auto* ref = DeclRefExpr::Create(ctx, NestedNameSpecifierLoc(), SourceLocation(), const_cast<VarDecl*>(v),
                                      false, w.stmt->getBeginLoc(), v->getType().getNonReferenceType(),
                                      VK_LValue);
      auto it = std::find_if(uses.begin(), uses.end(), [&](const captured_var& u) { return u.var == v; });
      if (it == uses.end()) {
        uses.push_back({v, ref, nullptr});
        it = uses.end() - 1;
      }
      if (changed.count(name) && !it->write) it->write = ref;
    }
  }
}

std::string wind_open(lowering& l, const wind_site& w, const constructs& all, bool lazy) {
  auto args = split_top_level(w.marker.clauses, w.marker.clauses_at);
  if (args.size() != 2 || args[0].first.empty() || args[1].first.empty()) return "";
  const std::string& before = args[0].first;
  const std::string& after = args[1].first;
  std::set<std::string> used, changed;
  names_of(tokens_of(before), used, changed);
  names_of(tokens_of(after), used, changed);
  std::vector<std::string> by_value = by_value_names(l, w, all, used);
  // Around a resume point of a lazy body: no node (lazy.hpp, lazy_wind).
  std::string text = lazy ? "if (tascell::translated::lazy_wind(" : "tascell::wind(";
  text += names::ctx;
  text += ", " + capture_list(before, by_value) + " { " + before + "; }, " + capture_list(after, by_value) + " { " +
          after + "; }, [&]([[maybe_unused]] tascell::ctx " + names::ctx + (lazy ? ") -> bool { " : ") { ");
  return text;
}

void lower_wind(lowering& l, const wind_site& w, const constructs& all, const std::string* unwind_exit) {
  auto args = split_top_level(w.marker.clauses, w.marker.clauses_at);
  if (args.size() != 2 || args[0].first.empty() || args[1].first.empty()) {
    l.diag.error(l.marker_pos(w.marker), "@wind needs two expressions: @wind(before, after)");
    return;
  }
  exits x = find_exits(w.body);
  bool ok = true;
  for (auto* s : x.returns) l.diag.error(l.src.pos(s->getBeginLoc()), "return inside @wind"), ok = false;
  for (auto* s : x.gotos) l.diag.error(l.src.pos(s->getBeginLoc()), "goto out of @wind"), ok = false;
  for (auto* s : x.breaks) l.diag.error(l.src.pos(s->getBeginLoc()), "break out of @wind"), ok = false;
  for (auto* s : x.continues) l.diag.error(l.src.pos(s->getBeginLoc()), "continue out of @wind"), ok = false;
  if (!ok) return;
  std::size_t end = l.src.end_of_stmt(w.body);
  if (l.serial) {
    l.edits.replace(w.marker.begin, w.marker.end - w.marker.begin, "{ " + args[0].first + "; ", w.depth);
    l.edits.insert_close(end, " " + args[1].first + "; }", w.depth);
    return;
  }
  l.edits.replace(w.marker.begin, w.marker.end - w.marker.begin, wind_open(l, w, all, unwind_exit != nullptr),
                  w.depth);
  l.edits.insert_close(end, unwind_exit ? " return false; })) [[unlikely]] { " + *unwind_exit + " }" : " });",
                       w.depth);
}

// @shared(min) long best = LONG_MAX;
//   -> tascell::incumbent<tascell::op::min, long> best = LONG_MAX;
void lower_shared(lowering& l, shared_var& v) {
  std::string op;
  for (char c : v.marker.clauses)
    if (!std::isspace(static_cast<unsigned char>(c))) op += c;
  if (op != "min" && op != "max") {
    l.diag.error(l.marker_pos(v.marker), "@shared takes (min) or (max), not (" + op + ")");
    return;
  }
  v.op = op;
  l.erase_marker(v.marker, 0);
  if (l.serial) return;
  clang::TypeSourceInfo* tsi = v.var->getTypeSourceInfo();
  if (!tsi) return;
  clang::SourceRange r = tsi->getTypeLoc().getSourceRange();
  std::size_t b = l.src.offset(r.getBegin()), e = l.src.end_of_token(r.getEnd());
  if (!v.var->getType()->isArithmeticType()) {
    l.diag.error(l.src.pos(v.var->getLocation()), "@shared needs an arithmetic type (an integer or floating point value)");
    return;
  }
  l.edits.replace(b, e - b, "tascell::incumbent<tascell::op::" + v.op + ", " + l.value_type(v.var) + ">", 0);
}

// A read of a @shared variable: best -> best.get() (the incumbent's value;
// it converts implicitly too, but not where no conversion is asked for: a
// variadic argument, `auto`, a deduced template argument). The serial
// program keeps the plain variable.
void lower_shared_read(lowering& l, const clang::DeclRefExpr* r) {
  if (l.serial) return;
  l.edits.insert_close(l.src.end_of_token(r->getEndLoc()), ".get()", 0);
}

}  // namespace tascell::translator
