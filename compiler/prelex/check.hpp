// The pre-lexer's invariant as a checker, shared by the unit tests and the
// fuzzer (header only, written independently of prelex.cpp).
//
// check_invariants(source, r) returns "" when r = run(source) keeps the
// contract of prelex.hpp, else a description of the first violation:
//   - the output is as long as the input and every line break byte (\n, \r)
//     is unchanged, so every line keeps its number and length;
//   - every changed byte lies in a reported marker's span [at, end);
//   - markers are in order, do not overlap, start at an '@' of the input
//     that is no longer an '@' in the output (a '[' for an attribute, the
//     'T' of TASCELL_WIND for the macro), and their positions (line, column,
//     offset) agree with each other; so do the errors';
//   - the clause/argument text is the input's text at clauses_at (and, for
//     the standard spellings, also the output's: it stays in place);
//   - the span was rewritten as its kind and spelling say (compared without
//     blanks and line splices, since a multi-line @dowork may move one blank
//     and the standard spellings are padded with blanks);
//   - when there are no errors, pre-lexing the output finds no marker and
//     no error (nothing was left behind, nothing new appeared).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "prelex.hpp"

namespace tascell::prelex {

namespace check_detail {

inline std::vector<std::size_t> line_starts(std::string_view s) {
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n' || (s[i] == '\r' && !(i + 1 < s.size() && s[i + 1] == '\n'))) starts.push_back(i + 1);
  }
  return starts;
}

inline std::string where(const position& p) {
  return std::to_string(p.line) + ":" + std::to_string(p.column) + " (offset " + std::to_string(p.offset) + ")";
}

inline bool consistent(const std::vector<std::size_t>& starts, const position& p) {
  if (p.line == 0 || p.line > starts.size()) return false;
  std::size_t begin = starts[p.line - 1];
  std::size_t end = p.line < starts.size() ? starts[p.line] : static_cast<std::size_t>(-1);
  return p.offset >= begin && p.offset < end && p.column == p.offset - begin + 1;
}

// The text without line splices and without blanks and line breaks.
inline std::string squash(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\') {
      std::size_t j = i + 1;
      while (j < s.size() && (s[j] == ' ' || s[j] == '\t' || s[j] == '\v' || s[j] == '\f')) ++j;
      if (j < s.size() && (s[j] == '\n' || s[j] == '\r')) {
        i = j;
        continue;
      }
    }
    if (s[i] == ' ' || s[i] == '\t' || s[i] == '\v' || s[i] == '\f' || s[i] == '\n' || s[i] == '\r') continue;
    out.push_back(s[i]);
  }
  return out;
}

}  // namespace check_detail

inline std::string check_invariants(std::string_view source, const result& r, bool second_pass = true) {
  using namespace check_detail;
  const std::string_view out = r.text;
  if (out.size() != source.size())
    return "output has " + std::to_string(out.size()) + " bytes, input " + std::to_string(source.size());
  const auto starts = line_starts(source);

  std::vector<bool> in_span(source.size(), false);
  std::size_t previous_end = 0;
  for (std::size_t m = 0; m < r.markers.size(); ++m) {
    const marker& mk = r.markers[m];
    const std::string id = "marker " + std::to_string(m) + " (" + std::string(spelled(mk)) + " at " +
                           where(mk.at) + ")";
    if (mk.at.offset >= source.size()) return id + ": outside the input";
    if (mk.end.offset > source.size() || mk.end.offset <= mk.at.offset) return id + ": bad end " + where(mk.end);
    if (mk.at.offset < previous_end) return id + ": overlaps or precedes the previous marker";
    previous_end = mk.end.offset;
    if (!consistent(starts, mk.at)) return id + ": inconsistent position";
    if (!consistent(starts, mk.clauses_at)) return id + ": inconsistent clauses_at " + where(mk.clauses_at);
    if (!consistent(starts, mk.end)) return id + ": inconsistent end " + where(mk.end);
    if (mk.clauses_at.offset < mk.at.offset || mk.clauses_at.offset + mk.clauses.size() > mk.end.offset)
      return id + ": clause text outside the span";
    if (source.substr(mk.clauses_at.offset, mk.clauses.size()) != mk.clauses)
      return id + ": clause text differs from the input at clauses_at";
    for (std::size_t i = mk.at.offset; i < mk.end.offset; ++i) in_span[i] = true;

    const std::string before = squash(source.substr(mk.at.offset, mk.end.offset - mk.at.offset));
    const std::string after = squash(out.substr(mk.at.offset, mk.end.offset - mk.at.offset));
    if (mk.written != spelling::at_sign) {
      if (out.substr(mk.clauses_at.offset, mk.clauses.size()) != mk.clauses)
        return id + ": clause text not in place in the output";
      const std::string kept = squash(mk.clauses);
      const bool macro = mk.written == spelling::macro;
      if (macro ? !before.starts_with("TASCELL_WIND") || mk.kind != marker_kind::wind
                : source[mk.at.offset] != '[' || source[mk.end.offset - 1] != ']' || mk.kind == marker_kind::wind)
        return id + ": the span is not " + std::string(spelled(mk));
      if (out[mk.at.offset] == source[mk.at.offset]) return id + ": the span's first byte is unchanged";
      std::string expected;
      switch (mk.kind) {
        case marker_kind::task: expected = "_TCTK"; break;
        case marker_kind::dowork: expected = "_TCDW(" + kept + ")"; break;
        case marker_kind::wind: expected = "_TCWD(" + kept + ")"; break;
        case marker_kind::shared: expected = "_TCSHRD(" + kept + ")"; break;
      }
      if (after != expected) return id + ": span rewritten as '" + after + "', not '" + expected + "'";
      if (mk.kind == marker_kind::task && !mk.clauses.empty()) return id + ": a task with clause text";
      const std::string_view ws = " \t\v\f\r\n";
      if (mk.kind == marker_kind::dowork && !mk.clauses.empty() &&
          (ws.find(mk.clauses.front()) != std::string_view::npos ||
           ws.find(mk.clauses.back()) != std::string_view::npos))
        return id + ": clause text with blanks around it";
      if ((mk.kind == marker_kind::wind || mk.kind == marker_kind::shared) &&
          (mk.clauses_at.offset == mk.at.offset || mk.clauses_at.offset + mk.clauses.size() >= mk.end.offset ||
           source[mk.clauses_at.offset - 1] != '(' || source[mk.clauses_at.offset + mk.clauses.size()] != ')'))
        return id + ": the argument text is not what is inside the parentheses";
      if (macro && mk.clauses_at.offset + mk.clauses.size() + 1 != mk.end.offset)
        return id + ": the span does not end with the argument list's ')'";
      continue;
    }
    if (source[mk.at.offset] != '@') return id + ": no '@' there in the input";
    if (out[mk.at.offset] == '@') return id + ": the '@' is still in the output";
    const std::string at_name = "@" + std::string(name(mk.kind));
    if (!before.starts_with(at_name)) return id + ": the span does not start with " + at_name;
    const std::string rest = before.substr(at_name.size());
    switch (mk.kind) {
      case marker_kind::task:
        if (!rest.empty() || after != "_TCTK") return id + ": span rewritten as '" + after + "'";
        if (!mk.clauses.empty()) return id + ": @task with clause text";
        break;
      case marker_kind::wind:
      case marker_kind::shared: {
        const std::string macro = mk.kind == marker_kind::wind ? "_TCWD" : "_TCSHRD";
        if (after != macro + rest) return id + ": span rewritten as '" + after + "'";
        if (!rest.ends_with(")") || source[mk.end.offset - 1] != ')' ||
            mk.clauses_at.offset + mk.clauses.size() + 1 != mk.end.offset || source[mk.clauses_at.offset - 1] != '(')
          return id + ": the argument text is not what is inside the parentheses";
        break;
      }
      case marker_kind::dowork:
        if (after != "_TCDW(" + rest + ")") return id + ": span rewritten as '" + after + "'";
        if (!mk.clauses.empty() && !mk.clauses.ends_with(")") && !mk.clauses.ends_with(","))
          return id + ": clause text does not end with ')' or ','";
        break;
    }
  }

  for (std::size_t i = 0; i < source.size(); ++i) {
    const bool line_break = source[i] == '\n' || source[i] == '\r';
    if (out[i] != source[i] && (line_break || !in_span[i])) {
      const auto line = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), i) - starts.begin());
      return "byte " + std::to_string(i) + " (line " + std::to_string(line) + ", column " +
             std::to_string(i - starts[line - 1] + 1) + ") changed outside every marker span" +
             (line_break ? " (a line break)" : "");
    }
  }

  std::size_t previous_error = 0;
  for (const diagnostic& d : r.errors) {
    if (d.at.offset > source.size() || !consistent(starts, d.at))
      return "error '" + d.message + "' at a bad position " + where(d.at);
    if (d.at.offset < previous_error) return "errors out of order at '" + d.message + "'";
    previous_error = d.at.offset;
    if (d.message.empty()) return "an empty error message";
  }

  if (second_pass && r.errors.empty()) {
    const result again = run(r.text);
    if (!again.markers.empty())
      return "pre-lexing the output finds a marker at " + where(again.markers.front().at);
    if (!again.errors.empty())
      return "pre-lexing the output finds an error: " + again.errors.front().message + " at " +
             where(again.errors.front().at);
  }
  return {};
}

}  // namespace tascell::prelex
