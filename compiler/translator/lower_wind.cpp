// @wind(before, after) statement, and @shared(min|max) incumbents.
#include <cctype>

#include "captures.hpp"
#include "clang/AST/Decl.h"
#include "clang/AST/TypeLoc.h"
#include "lower.hpp"

namespace tascell::translator {
namespace {

// Splits "before, after" at its one top-level comma.
bool split_two(const std::string& s, std::string& a, std::string& b) {
  int depth = 0;
  std::size_t cut = std::string::npos;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"' || c == '\'') {
      for (++i; i < s.size() && s[i] != c; ++i)
        if (s[i] == '\\') ++i;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      if (cut != std::string::npos) return false;
      cut = i;
    }
  }
  if (cut == std::string::npos) return false;
  a = s.substr(0, cut);
  b = s.substr(cut + 1);
  auto blank = [](const std::string& x) { return x.find_first_not_of(" \t\n") == std::string::npos; };
  return !blank(a) && !blank(b);
}

}  // namespace

void lower_wind(lowering& l, const wind_site& w) {
  std::string before, after;
  if (!split_two(w.marker.clauses, before, after)) {
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
    l.edits.replace(w.marker.begin, w.marker.end - w.marker.begin, "{ " + before + "; ", w.depth);
    l.edits.insert_close(end, " " + after + "; }", w.depth);
    return;
  }
  l.edits.replace(w.marker.begin, w.marker.end - w.marker.begin,
                  std::string("tascell::wind(") + ctx_name + ", [&] { " + before + "; }, [&] { " + after +
                      "; }, [&]([[maybe_unused]] tascell::ctx " + ctx_name + ") { ",
                  w.depth);
  l.edits.insert_close(end, " });", w.depth);
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

}  // namespace tascell::translator
