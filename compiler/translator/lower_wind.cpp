// @wind(before, after) statement, and @shared(min|max) incumbents.
#include <cctype>

#include "captures.hpp"
#include "clang/AST/Decl.h"
#include "clang/AST/TypeLoc.h"
#include "lower.hpp"

namespace tascell::translator {
void lower_wind(lowering& l, const wind_site& w) {
  auto args = split_top_level(w.marker.clauses, w.marker.clauses_at);
  if (args.size() != 2 || args[0].first.empty() || args[1].first.empty()) {
    l.diag.error(l.marker_pos(w.marker), "@wind needs two expressions: @wind(before, after)");
    return;
  }
  const std::string& before = args[0].first;
  const std::string& after = args[1].first;
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
