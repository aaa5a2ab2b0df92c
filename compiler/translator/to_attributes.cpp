// tascellc --to-attributes (to_attributes.hpp).
#include "to_attributes.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace tascell::translator {

namespace {

bool starts_identifier(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// Where the program's first #include is (the start of its line), or where
// its first line of code is; the attribute spelling needs <tascell/api.hpp>
// (TASCELL_WIND, improve_min and the rest of the API a plain compiler
// lacks).
std::size_t include_point(std::string_view text) {
  std::size_t line = 0;
  std::size_t first_code = std::string_view::npos;
  bool in_comment = false;
  while (line < text.size()) {
    std::size_t eol = text.find('\n', line);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view l = text.substr(line, eol - line);
    std::size_t b = l.find_first_not_of(" \t");
    std::string_view t = b == std::string_view::npos ? std::string_view{} : l.substr(b);
    if (in_comment) {
      if (t.find("*/") != std::string_view::npos) in_comment = false;
    } else if (t.starts_with("/*")) {
      in_comment = t.find("*/") == std::string_view::npos;
    } else if (t.starts_with("#") && t.substr(std::min(t.size(), t.find_first_not_of("# \t"))).starts_with("include")) {
      return line;
    } else if (!t.empty() && !t.starts_with("//") && first_code == std::string_view::npos) {
      first_code = line;
    }
    line = eol + 1;
  }
  return first_code == std::string_view::npos ? text.size() : first_code;
}

}  // namespace

std::string clauses_with_commas(std::string_view clauses) {
  std::string out;
  int depth = 0;
  bool after_clause = false;  // a clause's ')' at depth 0, then only blanks
  std::size_t i = 0;
  while (i < clauses.size()) {
    char c = clauses[i];
    if (c == '"' || c == '\'') {  // a literal inside a clause: copied whole
      std::size_t j = i + 1;
      while (j < clauses.size() && clauses[j] != c) j += clauses[j] == '\\' ? 2 : 1;
      out.append(clauses.substr(i, j + 1 - i));
      i = j + 1;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      --depth;
      if (depth == 0 && c == ')') {
        out.push_back(c);
        after_clause = true;
        ++i;
        continue;
      }
    }
    if (after_clause && depth == 0) {
      if (c == ',') after_clause = false;
      else if (starts_identifier(c)) {
        // The blanks after the ')' stay; the comma goes right after it.
        std::size_t k = out.size();
        while (k > 0 && (out[k - 1] == ' ' || out[k - 1] == '\t' || out[k - 1] == '\n' || out[k - 1] == '\r')) --k;
        out.insert(k, ",");
        after_clause = false;
      }
    }
    out.push_back(c);
    ++i;
  }
  return out;
}

std::string to_attributes(std::string_view original, const prelex::result& pre, const source& src,
                          const constructs& found) {
  // Replacements in the original text: [from, to) -> text, by position.
  std::map<std::size_t, std::pair<std::size_t, std::string>> edits;
  for (const prelex::marker& m : pre.markers) {
    if (m.written != prelex::spelling::at_sign) continue;
    std::size_t at = m.at.offset;
    switch (m.kind) {
      case prelex::marker_kind::task:
        edits[at] = {at + 5, "[[tascell::task]]"};
        break;
      case prelex::marker_kind::wind:
        edits[at] = {at + 5, "TASCELL_WIND"};
        break;
      case prelex::marker_kind::shared:
        edits[at] = {m.end.offset, "[[tascell::shared(" + m.clauses + ")]]"};
        break;
      case prelex::marker_kind::dowork:
        if (m.clauses.empty()) edits[at] = {at + 7, "[[tascell::dowork]]"};
        else
          edits[at] = {m.clauses_at.offset + m.clauses.size(),
                       "[[tascell::dowork(" + clauses_with_commas(m.clauses) + ")]]"};
        break;
    }
  }
  // tascell::improve names its direction: improve_min or improve_max.
  for (const runtime_call& c : found.runtime_calls) {
    if (c.name != "tascell::improve" || c.call->getNumArgs() == 0) continue;
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(c.call->getArg(0)->IgnoreParenImpCasts());
    std::string op;
    for (const auto& s : found.shareds)  // the marker's text (lower_shared has not run)
      if (ref && ref->getDecl() == s.var)
        for (char ch : s.marker.clauses)
          if (!std::isspace(static_cast<unsigned char>(ch))) op += ch;
    if (op != "min" && op != "max") continue;
    clang::SourceLocation name = c.call->getCallee()->IgnoreParenImpCasts()->getEndLoc();
    if (!src.in_this_file(name)) continue;
    std::size_t o = src.offset(name);
    if (original.substr(o, 7) == "improve") edits[o] = {o + 7, "improve_" + op};
  }
  std::string out;
  std::size_t pos = 0;
  bool has_api = original.find("<tascell/api.hpp>") != std::string_view::npos;
  std::size_t include_at = has_api || edits.empty() ? std::string_view::npos : include_point(original);
  for (const auto& [from, edit] : edits) {
    if (include_at != std::string_view::npos && include_at <= from) {
      out.append(original.substr(pos, include_at - pos));
      out.append("#include <tascell/api.hpp>\n");
      pos = include_at;
      include_at = std::string_view::npos;
    }
    out.append(original.substr(pos, from - pos));
    out.append(edit.second);
    pos = edit.first;
  }
  if (include_at != std::string_view::npos && include_at >= pos) {
    out.append(original.substr(pos, include_at - pos));
    out.append("#include <tascell/api.hpp>\n");
    pos = include_at;
  }
  out.append(original.substr(pos));
  return out;
}

}  // namespace tascell::translator
