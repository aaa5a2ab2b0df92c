#include "clauses.hpp"

#include <cctype>

namespace tascell::translator {
namespace {

// A cursor over the clause text that keeps the user's line and column.
struct cursor {
  const std::string& s;
  std::size_t i = 0;
  source_pos pos;

  bool done() const { return i >= s.size(); }
  char peek() const { return done() ? '\0' : s[i]; }
  void advance() {
    if (s[i] == '\n') {
      ++pos.line;
      pos.column = 1;
    } else {
      ++pos.column;
    }
    ++i;
  }
  void skip_space() {
    while (!done() && (std::isspace(static_cast<unsigned char>(s[i])) || s[i] == ',')) advance();
  }
  std::string word() {
    std::string w;
    while (!done() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) {
      w += s[i];
      advance();
    }
    return w;
  }
  // The text up to the ')' that closes the current group (not included),
  // skipping balanced brackets and string/char literals. False if unclosed.
  bool group(std::string& out) {
    int depth = 0;
    while (!done()) {
      char c = s[i];
      if (c == '"' || c == '\'') {
        char q = c;
        out += c;
        advance();
        while (!done() && s[i] != q) {
          if (s[i] == '\\' && i + 1 < s.size()) {
            out += s[i];
            advance();
          }
          out += s[i];
          advance();
        }
        if (done()) return false;
        out += s[i];
        advance();
        continue;
      }
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') {
        if (depth == 0) {
          if (c != ')') return false;
          advance();
          return true;
        }
        --depth;
      }
      out += c;
      advance();
    }
    return false;
  }
};

std::string trim(const std::string& s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// p[lo:len]
bool parse_section(const std::string& text, source_pos at, array_section& out) {
  auto open = text.find('[');
  auto colon = text.find(':', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || colon == std::string::npos || text.back() != ']') return false;
  out.name = trim(text.substr(0, open));
  out.lo = trim(text.substr(open + 1, colon - open - 1));
  out.len = trim(text.substr(colon + 1, text.size() - colon - 2));
  out.at = at;
  return is_identifier(out.name) && !out.lo.empty() && !out.len.empty();
}

}  // namespace

std::vector<std::pair<std::string, source_pos>> split_top_level(const std::string& s, source_pos at) {
  std::vector<std::pair<std::string, source_pos>> out;
  std::string cur;
  source_pos start = at, pos = at;
  int depth = 0;
  bool lead = true;
  char quote = 0;
  auto advance = [&](char c) {
    if (c == '\n') {
      ++pos.line;
      pos.column = 1;
    } else {
      ++pos.column;
    }
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {  // inside a literal: copy up to its closing quote
      cur += c;
      if (c == '\\' && i + 1 < s.size()) {
        advance(c);
        c = s[++i];
        cur += c;
      } else if (c == quote) {
        quote = 0;
      }
      advance(c);
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.emplace_back(trim(cur), start);
      cur.clear();
      lead = true;
    } else {
      if (lead && !std::isspace(static_cast<unsigned char>(c))) {
        start = pos;
        lead = false;
      }
      cur += c;
    }
    advance(c);
  }
  out.emplace_back(trim(cur), start);
  return out;
}

std::string reduction_op_type(const std::string& op) {
  if (op == "+") return "tascell::op::plus";
  if (op == "*") return "tascell::op::times";
  if (op == "min") return "tascell::op::min";
  if (op == "max") return "tascell::op::max";
  if (op == "&") return "tascell::op::bit_and";
  if (op == "|") return "tascell::op::bit_or";
  if (op == "^") return "tascell::op::bit_xor";
  if (op == "&&") return "tascell::op::logical_and";
  if (op == "||") return "tascell::op::logical_or";
  return "";
}

clause_list parse_clauses(const std::string& text, source_pos at, diagnostics& diag) {
  clause_list out;
  cursor c{text, 0, at};
  for (;;) {
    c.skip_space();
    if (c.done()) break;
    source_pos name_at = c.pos;
    std::string name = c.word();
    if (name.empty()) {
      diag.error(name_at, std::string("expected a clause of @dowork, found '") + c.peek() + "'");
      return out;
    }
    c.skip_space();
    if (c.peek() != '(') {
      diag.error(c.pos, "expected '(' after clause '" + name + "'");
      return out;
    }
    c.advance();
    source_pos body_at = c.pos;
    std::string body;
    if (!c.group(body)) {
      diag.error(name_at, "clause '" + name + "' is not closed with ')'");
      return out;
    }
    if (name == "reduction") {
      auto colon = body.find(':');
      if (colon == std::string::npos) {
        diag.error(body_at, "reduction needs an operator and variables: reduction(op: v, ...)");
        continue;
      }
      std::string op = trim(body.substr(0, colon));
      if (reduction_op_type(op).empty()) {
        diag.error(body_at, "unknown reduction operator '" + op +
                                "' (allowed: + * min max & | ^ && ||)");
        continue;
      }
      source_pos vars_at = body_at;
      for (std::size_t k = 0; k <= colon; ++k) {
        if (body[k] == '\n') {
          ++vars_at.line;
          vars_at.column = 1;
        } else {
          ++vars_at.column;
        }
      }
      for (auto& [v, vat] : split_top_level(body.substr(colon + 1), vars_at)) {
        if (!is_identifier(v)) {
          diag.error(vat, "reduction variable must be a name, not '" + v + "'");
          continue;
        }
        out.reductions.push_back({op, v, vat});
      }
    } else if (name == "copy" || name == "copyout") {
      for (auto& [v, vat] : split_top_level(body, body_at)) {
        array_section sec;
        if (!parse_section(v, vat, sec)) {
          diag.error(vat, name + " takes array sections p[lo:len], not '" + v + "'");
          continue;
        }
        (name == "copy" ? out.copies : out.copyouts).push_back(sec);
      }
    } else if (name == "shared") {
      for (auto& [v, vat] : split_top_level(body, body_at)) {
        if (!is_identifier(v)) {
          diag.error(vat, "shared takes pointer names, not '" + v + "'");
          continue;
        }
        out.shareds.push_back({v, "", "", vat});
      }
    } else if (name == "priority" || name == "if") {
      std::string e = trim(body);
      if (e.empty()) {
        diag.error(body_at, name + " needs an expression");
        continue;
      }
      if (name == "priority") {
        out.priority = e;
        out.priority_at = body_at;
      } else {
        out.condition = e;
        out.condition_at = body_at;
      }
    } else {
      diag.error(name_at, "unknown clause '" + name +
                              "' of @dowork (allowed: reduction, copy, copyout, shared, priority, if)");
    }
  }
  return out;
}

}  // namespace tascell::translator
