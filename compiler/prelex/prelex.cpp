// The pre-lexer (see prelex.hpp for the rewriting rules and the invariant).
//
// The scan follows C++'s translation phases 1-3 closely enough to know
// which '@' are in code: a logical character is a byte after skipping line
// splices (backslash, optional blanks, newline, as Clang accepts them);
// comments, string and character literals (with escapes, encoding prefixes
// and user-defined suffixes), raw strings (whose bodies ignore splices),
// pp-numbers (so 1'000 is one token) and identifiers are lexed as tokens.
// Replacement characters are written over the logical characters of a
// marker's name, so even a marker split by a splice keeps every line.
//
// The standard spellings ([[tascell::task]], TASCELL_WIND(...)) are found at
// a '[' followed by '[' and at the identifier TASCELL_WIND. An attribute list
// is first only looked at (scan_attribute), since most of them are someone
// else's; lists skipped there are remembered (match), so nested attributes
// are not scanned once per level.
#include "prelex.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <unordered_map>
#include <utility>

namespace tascell::prelex {

std::string_view name(marker_kind kind) {
  switch (kind) {
    case marker_kind::task: return "task";
    case marker_kind::dowork: return "dowork";
    case marker_kind::wind: return "wind";
    case marker_kind::shared: return "shared";
  }
  return "?";
}

namespace {

std::string_view spelling_of(marker_kind kind, spelling written) {
  if (written == spelling::attribute) {
    switch (kind) {
      case marker_kind::task: return "[[tascell::task]]";
      case marker_kind::dowork: return "[[tascell::dowork]]";
      case marker_kind::wind: return "[[tascell::wind]]";
      case marker_kind::shared: return "[[tascell::shared]]";
    }
  }
  if (written == spelling::macro && kind == marker_kind::wind) return "TASCELL_WIND";
  switch (kind) {
    case marker_kind::task: return "@task";
    case marker_kind::dowork: return "@dowork";
    case marker_kind::wind: return "@wind";
    case marker_kind::shared: return "@shared";
  }
  return "?";
}

}  // namespace

std::string_view spelled(const marker& m) { return spelling_of(m.kind, m.written); }

namespace {

constexpr int eof_char = -1;
constexpr std::size_t none = static_cast<std::size_t>(-1);

constexpr std::string_view wind_macro = "TASCELL_WIND";

bool is_blank(int c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }
bool is_newline(int c) { return c == '\n' || c == '\r'; }
bool is_space(int c) { return is_blank(c) || is_newline(c); }
bool is_digit(int c) { return c >= '0' && c <= '9'; }
// Identifiers as Clang accepts them: ASCII letters, '_', '$' and any UTF-8
// byte (a UCN spelled \uXXXX is not recognised; it cannot start a marker).
bool is_ident_start(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}
bool is_ident_char(int c) { return is_ident_start(c) || is_digit(c); }
bool is_ascii_ident_char(int c) { return is_ident_char(c) && c != '$' && c < 0x80; }
bool is_open(int c) { return c == '(' || c == '[' || c == '{'; }
bool is_close(int c) { return c == ')' || c == ']' || c == '}'; }
char closer_of(int open) { return open == '(' ? ')' : open == '[' ? ']' : '}'; }
// Characters next to which a blank can be deleted without joining two
// tokens: whitespace, brackets, ',' and ';' never form a longer token with a
// neighbour.
bool blank_may_go_next_to(int c) {
  return is_space(c) || is_open(c) || is_close(c) || c == ',' || c == ';';
}
// A raw string delimiter character (printable, not a space, '(', ')' or '\').
bool is_delimiter_char(int c) { return c > ' ' && c < 0x7f && c != '(' && c != ')' && c != '\\'; }

// Statement keywords that can be followed by '(' and so would look like a
// clause: they end the clause list of @dowork (`if` is a clause).
bool is_statement_keyword(std::string_view id) {
  static constexpr std::array<std::string_view, 11> words = {
      "for", "while", "switch", "do", "return", "throw", "catch", "co_return", "co_yield", "co_await", "try"};
  return std::find(words.begin(), words.end(), id) != words.end();
}

std::optional<marker_kind> marker_named(std::string_view id) {
  if (id == "task") return marker_kind::task;
  if (id == "dowork") return marker_kind::dowork;
  if (id == "wind") return marker_kind::wind;
  if (id == "shared") return marker_kind::shared;
  return std::nullopt;
}

enum class tok { blank, newline, comment, literal, identifier, number, at, punct };

struct token {
  tok kind;
  std::size_t begin, end;  // end: the logical position after the token
};

// A blank (space or tab) in code inside a @dowork clause list: where its ')'
// may go if the list spans lines.
struct blank_spot {
  std::size_t pos;
  int prev;  // the logical character before it if that was a one-character token, else 0
};

class scanner {
 public:
  explicit scanner(std::string_view src) : src_(src), n_(src.size()) {
    out_.text.assign(src.begin(), src.end());
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < n_; ++i) {
      if (src_[i] == '\n') {
        line_starts_.push_back(i + 1);
      } else if (src_[i] == '\r') {
        if (i + 1 < n_ && src_[i + 1] == '\n') ++i;
        line_starts_.push_back(i + 1);
      }
    }
  }

  result run() {
    std::size_t i = 0;
    if (src_.starts_with("\xEF\xBB\xBF")) i = 3;  // a UTF-8 byte order mark
    i = skip(i);
    while (i < n_) i = step(i);
    return std::move(out_);
  }

 private:
  std::string_view src_;
  std::size_t n_;
  std::vector<std::size_t> line_starts_;
  result out_;
  bool line_start_ = true;     // only blanks and comments since the last line break
  bool in_directive_ = false;  // inside a preprocessor directive line
  bool glue_ = false;          // the previous character ends an identifier, number or literal
  // Diagnostics from inside an argument list, kept only if the list is
  // well formed (otherwise its text is scanned again as code).
  std::vector<diagnostic>* sink_ = nullptr;

  // ---- logical characters ------------------------------------------------
  int ch(std::size_t i) const { return i < n_ ? static_cast<unsigned char>(src_[i]) : eof_char; }

  // The length of the line splice starting at i, or 0.
  std::size_t splice_at(std::size_t i) const {
    if (i >= n_ || src_[i] != '\\') return 0;
    std::size_t j = i + 1;
    while (j < n_ && is_blank(ch(j))) ++j;
    if (j >= n_ || !is_newline(ch(j))) return 0;
    // \r\n or \n\r is one line break here (as in Clang's lexer).
    if (j + 1 < n_ && is_newline(ch(j + 1)) && src_[j + 1] != src_[j]) ++j;
    return j + 1 - i;
  }
  std::size_t skip(std::size_t i) const {
    while (std::size_t len = splice_at(i)) i += len;
    return i;
  }
  std::size_t next(std::size_t i) const { return skip(i + 1); }

  // ---- positions and diagnostics -------------------------------------------
  position pos(std::size_t offset) const {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    auto line = static_cast<unsigned>(it - line_starts_.begin());
    return {line, static_cast<unsigned>(offset - line_starts_[line - 1] + 1), offset};
  }
  // Errors are kept in source order (an error inside a list is found
  // before the list's own error at its '@'); equal offsets keep their order.
  static void add(std::vector<diagnostic>& to, diagnostic d) {
    auto it = std::upper_bound(to.begin(), to.end(), d.at.offset,
                               [](std::size_t offset, const diagnostic& e) { return offset < e.at.offset; });
    to.insert(it, std::move(d));
  }
  void error(std::size_t at, std::string message) { add(sink_ ? *sink_ : out_.errors, {pos(at), std::move(message)}); }

  // ---- tokens --------------------------------------------------------------
  // The end of a user-defined literal suffix after a literal ending at i.
  // Like Clang, a suffix not starting with '_' (or a non-ASCII byte) is read
  // as a separate identifier, so "a"R"(x)" is a string and a raw string.
  std::size_t suffix(std::size_t i) const {
    if (ch(i) == '_' || ch(i) >= 0x80) {
      while (is_ident_char(ch(i))) i = next(i);
    }
    return i;
  }

  // A string or character literal opening at q; ends at its closing quote,
  // or (unterminated, as Clang recovers) before the line break or at the end.
  std::size_t quoted(std::size_t q) const {
    int quote = ch(q);
    std::size_t k = next(q);
    while (k < n_) {
      int c = ch(k);
      if (c == quote) return suffix(next(k));
      if (is_newline(c)) return k;
      if (c == '\\') {
        k = next(k);
        if (k >= n_ || is_newline(ch(k))) continue;
      }
      k = next(k);
    }
    return n_;
  }

  // A raw string whose '"' is at q. The delimiter and the body are read
  // byte by byte: splices are reverted inside raw strings.
  std::size_t raw(std::size_t q) const {
    std::size_t d = q + 1;
    while (d < n_ && d - (q + 1) < 16 && is_delimiter_char(ch(d))) ++d;
    if (ch(d) != '(') {
      // Not a raw string after all; like Clang, resume after the next '"'.
      std::size_t close = src_.find('"', q + 1);
      return close == std::string_view::npos ? n_ : skip(close + 1);
    }
    std::string closing = ")";
    closing.append(src_.substr(q + 1, d - (q + 1)));
    closing.push_back('"');
    std::size_t close = src_.find(closing, d + 1);
    return close == std::string_view::npos ? n_ : suffix(skip(close + closing.size()));
  }

  // Reads an identifier at i into `text`; returns its end.
  std::size_t identifier(std::size_t i, std::string* text = nullptr,
                         std::vector<std::size_t>* at = nullptr) const {
    while (is_ident_char(ch(i))) {
      if (text) text->push_back(src_[i]);
      if (at) at->push_back(i);
      i = next(i);
    }
    return i;
  }

  token lex(std::size_t i) const {
    int c = ch(i);
    if (is_newline(c)) return {tok::newline, i, next(i)};
    if (is_blank(c)) return {tok::blank, i, next(i)};
    if (c == '/') {
      std::size_t j = next(i);
      if (ch(j) == '/') {
        std::size_t k = next(j);
        while (k < n_ && !is_newline(ch(k))) k = next(k);
        return {tok::comment, i, k};
      }
      if (ch(j) == '*') {
        std::size_t k = next(j);
        while (k < n_) {
          if (ch(k) == '*') {
            std::size_t m = next(k);
            if (ch(m) == '/') return {tok::comment, i, next(m)};
            k = m;
          } else {
            k = next(k);
          }
        }
        return {tok::comment, i, n_};
      }
      return {tok::punct, i, j};
    }
    if (c == '"' || c == '\'') return {tok::literal, i, quoted(i)};
    if (is_ident_start(c)) {
      std::string id;
      std::size_t k = identifier(i, &id);
      if (ch(k) == '"' && (id == "R" || id == "u8R" || id == "uR" || id == "UR" || id == "LR"))
        return {tok::literal, i, raw(k)};
      return {tok::identifier, i, k};
    }
    if (is_digit(c) || (c == '.' && is_digit(ch(next(i))))) {
      // A pp-number: digits, identifier characters but '$', '.', e+ e- E+
      // E-, and ' followed by an ASCII letter, digit or '_'. Like Clang,
      // p+ p- P+ P- only in a hexadecimal number (else 1p+2 is 1p + 2).
      std::size_t k = next(i);
      const bool hex = c == '0' && (ch(k) == 'x' || ch(k) == 'X');
      for (;;) {
        int d = ch(k);
        if (d == 'e' || d == 'E' || ((d == 'p' || d == 'P') && hex)) {
          std::size_t m = next(k);
          k = (ch(m) == '+' || ch(m) == '-') ? next(m) : m;
        } else if ((is_ident_char(d) && d != '$') || d == '.') {
          k = next(k);
        } else if (d == '\'' && is_ascii_ident_char(ch(next(k)))) {
          k = next(next(k));
        } else {
          break;
        }
      }
      return {tok::number, i, k};
    }
    if (c == '@') return {tok::at, i, next(i)};
    return {tok::punct, i, next(i)};
  }

  // ---- the code scan ---------------------------------------------------------
  // Scans one token (or one marker, or a directive's introducer) at i.
  std::size_t step(std::size_t i) {
    token t = lex(i);
    switch (t.kind) {
      case tok::newline:
        line_start_ = true;
        in_directive_ = false;
        glue_ = false;
        return t.end;
      case tok::blank:
      case tok::comment:
        glue_ = false;
        return t.end;
      case tok::identifier:
        line_start_ = false;
        if (is_wind_macro(i)) {
          if (auto e = wind_macro_at(i, t.end, glue_)) return *e;
        }
        glue_ = true;
        return t.end;
      case tok::literal:
      case tok::number:
        line_start_ = false;
        glue_ = true;
        return t.end;
      case tok::at:
        line_start_ = false;
        return marker_at(i, glue_, nullptr);
      case tok::punct: {
        const bool glued = glue_;
        glue_ = false;
        if (line_start_ && (ch(i) == '#' || (ch(i) == '%' && ch(t.end) == ':'))) {
          if (ch(i) == '%') t.end = next(t.end);  // the digraph %:
          line_start_ = false;
          in_directive_ = true;
          return directive(t.end);
        }
        line_start_ = false;
        if (ch(i) == '[') {
          if (auto e = attribute_at(i, glued)) return *e;
        }
        return t.end;
      }
    }
    return t.end;
  }

  // After the '#' of a directive: header names of #include-like directives
  // and the message of #error/#warning are not code.
  std::size_t directive(std::size_t i) {
    i = skip_blanks(i, nullptr);
    std::string id;
    std::size_t k = identifier(i, &id);
    if (id == "error" || id == "warning") {
      while (k < n_ && !is_newline(ch(k))) k = next(k);
      return k;
    }
    if (id != "include" && id != "include_next" && id != "import" && id != "embed") return i;
    std::size_t h = skip_blanks(k, nullptr);
    if (ch(h) != '<' && ch(h) != '"') return k;
    int close = ch(h) == '<' ? '>' : '"';
    std::size_t e = next(h);
    while (e < n_ && ch(e) != close && !is_newline(ch(e))) e = next(e);
    return e < n_ && ch(e) == close ? next(e) : e;
  }

  // Skips blanks, line breaks (not the one that ends a directive) and
  // comments; records blanks for @dowork's ')'. `prev`: the character before
  // i if it is a one-character token, else 0.
  std::size_t skip_blanks(std::size_t i, std::vector<blank_spot>* spots, int prev = 0) const {
    while (i < n_) {
      token t = lex(i);
      if (t.kind == tok::blank) {
        if (spots && (ch(i) == ' ' || ch(i) == '\t')) spots->push_back({i, prev});
      } else if (t.kind == tok::newline) {
        if (in_directive_) return i;
      } else if (t.kind != tok::comment) {
        return i;
      }
      prev = t.kind == tok::comment ? 0 : ch(i);
      i = t.end;
    }
    return i;
  }

  struct list_end {
    std::size_t close;  // the closing ')'; the list's text ends just after it
    std::size_t last;   // just past the last byte of the list's last token that is not a blank, line break or
                        // comment (just past '(' if there is none)
  };
  // How a list failed: at the end of the input or directive (found ==
  // eof_char) or at a closing bracket `found` that does not match `open`.
  struct failure {
    int found;
    char open;
    bool in_directive;
  };
  // Brackets from which a list is known to fail (see balanced()); keeps
  // many unterminated lists from taking quadratic time.
  std::unordered_map<std::size_t, failure> failed_;

  // A balanced list whose '(' is at open; `what` names it in messages
  // ("clause list of @dowork"). Markers inside are errors.
  std::optional<list_end> balanced(std::size_t open, std::size_t at, const std::string& what,
                                   std::vector<blank_spot>* spots) {
    if (auto known = failed_.find(open); known != failed_.end() && known->second.in_directive == in_directive_) {
      fail(at, what, known->second);
      return std::nullopt;
    }
    std::vector<diagnostic> inner;
    std::vector<diagnostic>* outer_sink = sink_;
    std::vector<std::pair<char, std::size_t>> stack{{'(', open}};  // open brackets and where
    std::size_t k = next(open);
    int prev = '(';
    bool glue = false;
    std::size_t last = none;  // the logical end of the last token that is not a blank, line break or comment
    for (;;) {
      const bool end = k >= n_ || (in_directive_ && is_newline(ch(k)));
      token t = end ? token{tok::punct, k, k} : lex(k);
      int c = end ? eof_char : ch(k);
      if (end || (t.kind == tok::punct && is_close(c) && closer_of(stack.back().first) != c)) {
        // Every bracket still open here fails the same way when a list
        // starts at it: remember that (a later scan from it would see the
        // same tokens and the same top of stack).
        failure f{c, stack.back().first, in_directive_};
        for (const auto& [bracket, where] : stack) failed_.emplace(where, f);
        sink_ = outer_sink;
        fail(at, what, f);
        return std::nullopt;
      }
      if (t.kind == tok::punct && is_open(c)) {
        if (c == '[') attribute_inside(k, what, inner);
        stack.emplace_back(static_cast<char>(c), k);
      } else if (t.kind == tok::punct && is_close(c)) {
        stack.pop_back();
        if (stack.empty()) {
          sink_ = outer_sink;
          for (auto& d : inner) add(sink_ ? *sink_ : out_.errors, std::move(d));
          return list_end{k, last == none ? open + 1 : byte_end(last)};
        }
      } else if (t.kind == tok::blank && spots && (c == ' ' || c == '\t')) {
        spots->push_back({k, prev});
      } else if (t.kind == tok::at) {
        bool saved_glue = glue_;
        sink_ = &inner;
        t.end = marker_at(k, glue, &what);
        sink_ = outer_sink;
        glue_ = saved_glue;
      } else if (t.kind == tok::identifier && is_wind_macro(k)) {
        add(inner, {pos(k), "'TASCELL_WIND' cannot appear inside the " + what});
      }
      if (t.kind != tok::blank && t.kind != tok::newline && t.kind != tok::comment) last = t.end;
      glue = t.kind == tok::identifier || t.kind == tok::number || t.kind == tok::literal;
      prev = (t.kind == tok::blank || t.kind == tok::newline || t.kind == tok::punct) ? c : 0;
      k = t.end;
    }
  }

  void fail(std::size_t at, const std::string& what, const failure& f) {
    if (f.found == eof_char) {
      error(at, "unterminated " + what + ": missing '" + closer_of(f.open) + "'");
    } else {
      error(at, "unbalanced " + what + ": '" + static_cast<char>(f.found) + "' does not match '" + f.open + "'");
    }
  }

  void overwrite(const std::vector<std::size_t>& at, std::string_view with) {
    for (std::size_t j = 0; j < with.size(); ++j) out_.text[at[j]] = with[j];
  }

  // At an '@' (at). `glued`: the character before it ends an identifier,
  // number or literal. `inside`: the list this '@' is in, if any. Returns
  // where the scan goes on: after the rewritten marker, or, on an error,
  // just after the '@' (so that what follows is lexed as usual: in "@R"(",
  // R" starts a raw string, as for Clang).
  std::size_t marker_at(std::size_t at, bool glued, const std::string* inside) {
    std::size_t j = next(at);
    glue_ = false;
    if (!is_ident_start(ch(j))) {
      error(at, "stray '@'");
      return j;
    }
    std::string id;
    std::vector<std::size_t> letters{at};  // logical positions of "@name"
    std::size_t k = identifier(j, &id, &letters);
    std::size_t name_end = letters.back() + 1;  // (k may lie after a splice)
    auto kind = marker_named(id);
    if (!kind) {
      error(at, "unknown marker '@" + id + "'");
      return j;
    }
    if (inside) {
      error(at, "'@" + id + "' cannot appear inside the " + *inside);
      return j;
    }
    if (glued) {
      error(at, "'@" + id + "' is glued to the token before it: put a space before '@'");
      return j;
    }
    std::optional<std::size_t> end;
    switch (*kind) {
      case marker_kind::task:
        overwrite(letters, "_TCTK");
        out_.markers.push_back({*kind, pos(at), {}, pos(name_end), pos(name_end)});
        glue_ = true;
        return k;
      case marker_kind::wind:
      case marker_kind::shared:
        end = wind_or_shared(*kind, at, letters, k);
        break;
      case marker_kind::dowork:
        end = dowork(at, letters, name_end, k);
        break;
    }
    return end ? *end : j;
  }

  // Returns where the scan goes on, or nothing on an error.
  std::optional<std::size_t> wind_or_shared(marker_kind kind, std::size_t at,
                                            const std::vector<std::size_t>& letters, std::size_t k) {
    bool wind = kind == marker_kind::wind;
    std::size_t open = skip_blanks(k, nullptr);
    if (ch(open) != '(') {
      error(at, wind ? "@wind needs (before, after)" : "@shared needs (min) or (max)");
      return std::nullopt;
    }
    std::string what = wind ? "argument list of @wind" : "argument list of @shared";
    auto list = balanced(open, at, what, nullptr);
    if (!list) return std::nullopt;
    overwrite(letters, wind ? "_TCWD" : "_TCSHRD");
    std::size_t from = open + 1;
    out_.markers.push_back(
        {kind, pos(at), std::string(src_.substr(from, list->close - from)), pos(from), pos(list->close + 1)});
    glue_ = false;
    return next(list->close);
  }

  // @dowork: clauses are `name(...)` items separated by blanks or commas,
  // up to the first thing that is not one (the statement).
  // Returns where the scan goes on, or nothing on an error.
  std::optional<std::size_t> dowork(std::size_t at, const std::vector<std::size_t>& letters, std::size_t name_end,
                                    std::size_t k) {
    std::vector<blank_spot> spots;
    std::size_t first = n_, last = n_;  // the clause text: [first, last), last just after a ',' or ')'
    std::size_t p = skip_blanks(k, &spots);
    const std::string what = "clause list of @dowork";
    for (;;) {
      if (ch(p) == ',' && first != n_) {
        last = p + 1;
        p = skip_blanks(next(p), &spots, ',');
        continue;
      }
      if (!is_ident_start(ch(p))) break;
      std::string id;
      std::size_t q = identifier(p, &id);
      // TASCELL_WIND(...) is the statement's marker, as "@wind" would be.
      if (is_statement_keyword(id) || is_wind_macro(p)) break;
      std::size_t open = skip_blanks(q, &spots);
      if (ch(open) != '(') break;
      auto list = balanced(open, at, what, &spots);
      if (!list) return std::nullopt;
      if (first == n_) first = p;
      last = list->close + 1;
      p = skip_blanks(next(list->close), &spots, ')');
    }
    if (first == n_) {  // no clauses: "@dowork" -> "_TCDW()"
      overwrite(letters, "_TCDW()");
      out_.markers.push_back({marker_kind::dowork, pos(at), {}, pos(name_end), pos(name_end)});
      glue_ = true;
      return k;
    }
    std::string_view before = src_.substr(at, last - at);
    std::size_t end = last;
    if (before.find_first_of("\r\n") == std::string_view::npos) {
      // One line: "_TCDW(" + blanks and clauses one column left + ")".
      std::string& t = out_.text;
      t.replace(at, 6, "_TCDW(");
      for (std::size_t x = at + 6; x + 1 < last; ++x) t[x] = src_[x + 1];
      t[last - 1] = ')';
    } else if (auto slot = blank_after(skip(last))) {
      overwrite(letters, "_TCDW( ");
      out_.text[*slot] = ')';
      end = *slot + 1;
    } else if (auto gap = blank_on_last_line(last, spots)) {
      overwrite(letters, "_TCDW( ");
      std::string& t = out_.text;
      for (std::size_t x = *gap; x + 1 < last; ++x) t[x] = src_[x + 1];
      t[last - 1] = ')';
    } else {
      error(at,
            "cannot rewrite @dowork in place: its clause list spans lines and leaves no blank for its ')'; "
            "indent the statement or the clause list's last line");
      return std::nullopt;
    }
    out_.markers.push_back({marker_kind::dowork, pos(at), std::string(src_.substr(first, last - first)),
                            pos(first), pos(end)});
    glue_ = false;
    return skip(last);
  }

  // The first space or tab between the clause list (ending at i) and the
  // statement, not beyond the end of a directive, and not in front of a
  // directive's '#' (")#pragma" would no longer be a directive).
  std::optional<std::size_t> blank_after(std::size_t i) const {
    std::optional<std::size_t> first;
    bool line_break = false;
    std::size_t line_begin = i;
    while (i < n_) {
      int c = ch(i);
      if (c == ' ' || c == '\t') {
        if (!first) first = i;
      } else if (is_newline(c)) {
        if (in_directive_) break;
        line_break = true;
        line_begin = i + 1;
      } else if (!is_blank(c)) {
        break;
      }
      i = next(i);
    }
    const bool directive_next = ch(i) == '#' || (ch(i) == '%' && ch(next(i)) == ':');
    if (first && directive_next && line_break && *first >= line_begin) return std::nullopt;
    return first;
  }

  // The last blank of the clause list's last line that can be deleted
  // without joining two tokens.
  std::optional<std::size_t> blank_on_last_line(std::size_t last, const std::vector<blank_spot>& spots) const {
    std::size_t line = line_starts_[pos(last - 1).line - 1];
    for (auto it = spots.rbegin(); it != spots.rend(); ++it) {
      if (it->pos >= last || it->pos < line) continue;
      if (blank_may_go_next_to(it->prev) || blank_may_go_next_to(ch(next(it->pos)))) return it->pos;
    }
    return std::nullopt;
  }

  // ---- the standard spellings ----------------------------------------------
  // Just past the last byte of a token whose logical end is `end`: before the
  // line splices that `end` skipped. (Every newline before `end` belongs to
  // such a splice: no token ends with a line break.)
  std::size_t byte_end(std::size_t end) const {
    for (;;) {
      std::size_t e = end;
      if (e == 0 || !is_newline(ch(e - 1))) return end;
      --e;
      if (e > 0 && is_newline(ch(e - 1)) && src_[e - 1] != src_[e]) --e;  // \r\n or \n\r
      while (e > 0 && is_blank(ch(e - 1))) --e;
      if (e == 0 || src_[e - 1] != '\\') return end;
      end = e - 1;
    }
  }

  // The identifier at i is `word` (without building a string for every
  // identifier the scan meets).
  bool word_at(std::size_t i, std::string_view word) const {
    std::size_t j = 0;
    for (; j < word.size() && ch(i) == static_cast<unsigned char>(word[j]); ++j) i = next(i);
    return j == word.size() && !is_ident_char(ch(i));
  }

  // The identifier at i is TASCELL_WIND, outside directive lines (there it is
  // the header's or the user's #define, #ifdef, ... of the macro).
  bool is_wind_macro(std::size_t i) const { return !in_directive_ && ch(i) == 'T' && word_at(i, wind_macro); }

  bool scope_at(std::size_t i) const { return ch(i) == ':' && ch(next(i)) == ':'; }

  // Brackets whose match() is known: the matching bracket (none: the list
  // does not close) and whether that was in a directive line (where lists end
  // with the line).
  struct matched {
    std::size_t close;
    bool in_directive;
  };
  std::unordered_map<std::size_t, matched> matched_;

  // The bracket matching the one at open, or nothing if the list does not
  // close; for lists that are only skipped over (no messages). Every bracket
  // passed on the way is remembered and later jumped over, so that nested
  // attribute lists are scanned once, not once per level. (A bracket left
  // open when the scan fails would fail the same way: see balanced().)
  std::optional<std::size_t> match(std::size_t open) {
    auto known = [this](std::size_t at) -> const matched* {
      auto it = matched_.find(at);
      return it != matched_.end() && it->second.in_directive == in_directive_ ? &it->second : nullptr;
    };
    if (const matched* m = known(open)) return m->close == none ? std::nullopt : std::optional(m->close);
    std::vector<std::pair<int, std::size_t>> stack{{ch(open), open}};
    std::size_t k = next(open);
    for (;;) {
      bool failed = k >= n_ || (in_directive_ && is_newline(ch(k)));
      token t = failed ? token{tok::punct, k, k} : lex(k);
      int c = ch(k);
      if (!failed && t.kind == tok::punct && is_open(c)) {
        const matched* m = known(k);
        if (!m) {
          stack.emplace_back(c, k);
        } else if (m->close != none) {
          t.end = next(m->close);
        } else {
          failed = true;
        }
      } else if (!failed && t.kind == tok::punct && is_close(c)) {
        if (closer_of(stack.back().first) != c) {
          failed = true;
        } else {
          matched_.insert_or_assign(stack.back().second, matched{k, in_directive_});
          stack.pop_back();
          if (stack.empty()) return k;
        }
      }
      if (failed) {
        for (const auto& [bracket, where] : stack) matched_.insert_or_assign(where, matched{none, in_directive_});
        return std::nullopt;
      }
      k = t.end;
    }
  }

  // What a '[' at `at` starts, as far as tascell is concerned. In C++ "[["
  // can only start an attribute list ([dcl.attr.grammar]: "[[" [using NS
  // ":"] attribute, ... "]]", an attribute being [NS "::"] name ["("
  // balanced ")"] ["..."]), with blanks, line breaks and comments between the
  // tokens. "[[tascell::" is handled further (attribute_at); otherwise a list
  // that closes with "]]" and has "tascell ::" among its own tokens, or
  // starts with "using tascell :", is an error. That is looked for loosely
  // (any tokens): "[[@task, tascell::task]]" must be an error although "@task"
  // is no attribute, as it becomes one, "_TCTK", in the output.
  struct attribute_scan {
    enum { other, first, using_prefix, shared_brackets } what = other;
    std::size_t name_at = 0;  // first: where the name after "[[tascell::" starts
    std::string name;         // using_prefix, shared_brackets: the tascell attribute's name, if any
  };
  attribute_scan scan_attribute(std::size_t at) {
    std::size_t p = skip_blanks(next(at), nullptr);
    if (ch(p) != '[') return {};
    p = skip_blanks(next(p), nullptr);
    attribute_scan found;
    if (word_at(p, "tascell")) {
      std::size_t q = skip_blanks(identifier(p), nullptr);
      if (scope_at(q)) return {attribute_scan::first, skip_blanks(next(next(q)), nullptr), {}};
    } else if (word_at(p, "using")) {
      std::size_t q = skip_blanks(identifier(p), nullptr);
      if (word_at(q, "tascell")) {
        std::size_t r = skip_blanks(identifier(q), nullptr);
        if (ch(r) == ':' && !scope_at(r)) {
          p = skip_blanks(next(r), nullptr);
          if (ch(p) == ']') return {};  // "[[using tascell:]]" says nothing
          found.what = attribute_scan::using_prefix;
          identifier(p, &found.name);
        }
      }
    }
    const bool using_prefix = found.what == attribute_scan::using_prefix || word_at(p, "using");
    // The list's own tokens up to its ']' (inner brackets skipped whole).
    for (;;) {
      if (p >= n_ || (in_directive_ && is_newline(ch(p)))) return {};
      token t = lex(p);
      const int c = ch(p);
      if (t.kind == tok::punct && c == ']') break;
      if (t.kind == tok::punct && is_close(c)) return {};
      if (t.kind == tok::punct && is_open(c)) {
        auto close = match(p);
        if (!close) return {};
        t.end = next(*close);
      } else if (t.kind == tok::identifier && found.what == attribute_scan::other && word_at(p, "tascell")) {
        std::size_t q = skip_blanks(t.end, nullptr);
        if (scope_at(q)) {
          found.what = using_prefix ? attribute_scan::using_prefix : attribute_scan::shared_brackets;
          identifier(skip_blanks(next(next(q)), nullptr), &found.name);
        }
      }
      p = t.end;
    }
    if (ch(skip_blanks(next(p), nullptr)) != ']') return {};
    return found;
  }

  // At a '[' inside a list (`what`): a tascell attribute there is an error.
  void attribute_inside(std::size_t at, const std::string& what, std::vector<diagnostic>& to) {
    attribute_scan a = scan_attribute(at);
    if (a.what == attribute_scan::other) return;
    if (a.what == attribute_scan::first) identifier(a.name_at, &a.name);
    add(to, {pos(at), "'[[tascell::" + a.name + "]]' cannot appear inside the " + what});
  }

  // The logical positions of the first `count` characters from at, all
  // before `limit` and before the first line break; nothing if they do not
  // fit there.
  std::optional<std::vector<std::size_t>> slots(std::size_t at, std::size_t count, std::size_t limit) const {
    std::vector<std::size_t> where;
    for (std::size_t p = at; where.size() < count; p = next(p)) {
      if (p >= limit || is_newline(ch(p))) return std::nullopt;
      where.push_back(p);
    }
    return where;
  }

  // Writes a marker of a standard spelling over [at, end): the bytes in
  // [keep_from, keep_to) and at kept_close stay, and so do line breaks and
  // line splices (a #define stays one directive); every other byte becomes a
  // blank. Then `prefix` goes over the slots, after a blank in the first one
  // if the token before would join it ("x[[" -> "x _TCTK", not "x_TCTK").
  void rewrite(std::size_t at, std::size_t end, const std::vector<std::size_t>& where, std::string_view prefix,
               bool glued, std::size_t keep_from, std::size_t keep_to, std::size_t kept_close) {
    std::string& t = out_.text;
    for (std::size_t x = at; x < end;) {
      if (x >= keep_from && x < keep_to) {
        x = keep_to;
      } else if (x == kept_close) {
        ++x;
      } else if (std::size_t len = splice_at(x)) {
        x += len;
      } else {
        if (!is_newline(ch(x))) t[x] = ' ';
        ++x;
      }
    }
    for (std::size_t j = 0; j < prefix.size(); ++j) t[where[j + (glued ? 1 : 0)]] = prefix[j];
  }

  void restore(std::size_t at, std::size_t end) { out_.text.replace(at, end - at, src_.substr(at, end - at)); }

  // Blanking a span that crosses lines could leave a '#' (or '%:') first on
  // a later line where a token of the span stood before it: that line would
  // become a directive. True if the rewritten [at, end) does that. Source
  // text kept in place cannot (it is the same on both sides), so this errs
  // only on the safe side, on a comment before a '#' that was a directive.
  bool makes_directive(std::size_t at, std::size_t end) const {
    if (in_directive_) return false;  // (its span ends with the directive's line)
    const std::string& t = out_.text;
    auto line = std::upper_bound(line_starts_.begin(), line_starts_.end(), at);
    for (; line != line_starts_.end() && *line < end; ++line) {
      const std::size_t begin = *line;
      // A line continued by a splice is not a new line for the preprocessor.
      std::size_t b = begin - 1;
      if (b > 0 && is_newline(ch(b - 1)) && src_[b - 1] != src_[b]) --b;
      while (b > 0 && is_blank(ch(b - 1))) --b;
      if (b > 0 && src_[b - 1] == '\\') continue;
      // The line's first byte in the output that is not a blank or a splice.
      std::size_t f = begin;
      for (;;) {
        if (std::size_t len = splice_at(f)) {
          f += len;
        } else if (f < n_ && is_blank(static_cast<unsigned char>(t[f]))) {
          ++f;
        } else {
          break;
        }
      }
      const bool hash = f < n_ && (t[f] == '#' || (t[f] == '%' && next(f) < n_ && t[next(f)] == ':'));
      if (!hash) continue;
      // Was there more than blanks before it in the input?
      for (std::size_t x = begin; x < f;) {
        if (std::size_t len = splice_at(x)) {
          x += len;
        } else if (is_blank(ch(x))) {
          ++x;
        } else {
          return true;
        }
      }
    }
    return false;
  }

  // Moves diagnostics collected aside to where errors go now.
  void flush(std::vector<diagnostic>& from) {
    for (auto& d : from) add(sink_ ? *sink_ : out_.errors, std::move(d));
  }

  // At a '[' in code (at): if it opens "[[" with a tascell attribute in it,
  // rewrites that or reports an error. Returns where the scan goes on after
  // a rewrite; nothing for any other '[' and after an error (the scan goes
  // on just after the '[', so that what follows is scanned as usual, once).
  std::optional<std::size_t> attribute_at(std::size_t at, bool glued) {
    attribute_scan a = scan_attribute(at);
    if (a.what == attribute_scan::other) return std::nullopt;
    std::size_t k = 0, name_end = 0;
    if (a.what == attribute_scan::first) {
      if (!is_ident_start(ch(a.name_at))) {
        error(at, "expected an attribute name after 'tascell::'");
        return std::nullopt;
      }
      std::vector<std::size_t> letters;
      k = identifier(a.name_at, &a.name, &letters);
      name_end = letters.back() + 1;  // (k may lie after a splice)
    } else if (a.name.empty()) {
      error(at, a.what == attribute_scan::using_prefix ? "write [[tascell::...]] without 'using'"
                                                       : "expected an attribute name after 'tascell::'");
      return std::nullopt;
    }
    auto kind = marker_named(a.name);
    if (!kind) {
      error(at, "unknown attribute 'tascell::" + a.name + "'");
      return std::nullopt;
    }
    if (*kind == marker_kind::wind) {
      error(at,
            "[[tascell::wind]] would be dropped by a compiler that does not know it, and its before and after must "
            "run in the sequential program too: write TASCELL_WIND(before, after) statement");
      return std::nullopt;
    }
    const std::string spelled(spelling_of(*kind, spelling::attribute));
    const std::string own = "write " + spelled + " in brackets of its own";
    if (a.what != attribute_scan::first) {
      error(at, a.what == attribute_scan::using_prefix ? "write " + spelled + " without 'using'" : own);
      return std::nullopt;
    }
    // "[[tascell::NAME" [ "(" ... ")" ] "]]"
    std::size_t p = skip_blanks(k, nullptr);
    std::size_t open = none, close = none;
    if (ch(p) == '(') {
      if (*kind == marker_kind::task) {
        error(at, spelled + " takes no arguments");
        return std::nullopt;
      }
      open = p;
      auto m = match(open);
      if (!m) {
        balanced(open, at, list_name(*kind, spelled), nullptr);  // says why
        return std::nullopt;
      }
      close = *m;
      p = skip_blanks(next(close), nullptr);
    } else if (*kind == marker_kind::shared) {
      error(at, spelled + " needs (min) or (max)");
      return std::nullopt;
    }
    if (ch(p) == ',') {
      error(at, own);
      return std::nullopt;
    }
    const std::size_t q = ch(p) == ']' ? skip_blanks(next(p), nullptr) : p;
    if (ch(p) != ']' || ch(q) != ']') {
      error(at, "unterminated " + spelled + ": missing ']]'");
      return std::nullopt;
    }
    const std::size_t end = q + 1;

    // What stays in place: dowork's clauses without the blanks and comments
    // around them (and its ')'), shared's arguments and ')'.
    std::size_t keep_from = none, kept_close = none, clauses_at = name_end;
    std::string_view prefix = "_TCTK";
    if (*kind == marker_kind::dowork) {
      if (open != none) {
        clauses_at = open + 1;
        std::size_t first = skip_blanks(next(open), nullptr);
        if (first != close) keep_from = clauses_at = first;
      }
      prefix = keep_from == none ? "_TCDW()" : "_TCDW(";
    } else if (*kind == marker_kind::shared) {
      keep_from = clauses_at = open + 1;
      prefix = "_TCSHRD(";
    }
    auto where = slots(at, prefix.size() + (glued ? 1 : 0), std::min(keep_from, end));
    if (!where) {
      std::string opening = spelled.substr(0, spelled.size() - 2);
      error(at, "cannot rewrite " + spelled + " in place: write '" + opening + "' on one line");
      return std::nullopt;
    }
    std::size_t keep_to = none;
    std::vector<diagnostic> inner;  // kept only if the attribute is rewritten (else its text is scanned again)
    if (open != none) {
      std::vector<diagnostic>* outer = sink_;
      sink_ = &inner;
      auto list = balanced(open, at, list_name(*kind, spelled), nullptr);
      sink_ = outer;
      if (!list) {  // (cannot happen: match() found the same ')')
        flush(inner);
        return std::nullopt;
      }
      if (*kind == marker_kind::shared) {
        keep_to = close + 1;
      } else if (keep_from != none) {
        keep_to = list->last;
        kept_close = close;
        // Blanking what follows could make "\" + blanks + line break a new splice.
        if (src_[keep_to - 1] == '\\') {
          error(at, "cannot rewrite " + spelled + " in place: its clause list ends with '\\'");
          return std::nullopt;
        }
      }
    }
    rewrite(at, end, *where, prefix, glued, keep_from, keep_to, kept_close);
    if (makes_directive(at, end)) {
      restore(at, end);
      error(at, "cannot rewrite " + spelled + " in place: blanking it would leave a '#' first on its line");
      return std::nullopt;
    }
    std::string text = keep_from == none ? std::string() : std::string(src_.substr(keep_from, keep_to - keep_from));
    if (*kind == marker_kind::shared) text.pop_back();  // the ')'
    out_.markers.push_back({*kind, pos(at), std::move(text), pos(clauses_at), pos(end), spelling::attribute});
    flush(inner);
    glue_ = false;
    return next(q);
  }

  static std::string list_name(marker_kind kind, const std::string& spelled) {
    return (kind == marker_kind::dowork ? "clause list of " : "argument list of ") + spelled;
  }

  // At TASCELL_WIND in code (at; k: after the identifier): like @wind, but
  // "TASCELL_WIND(" becomes "_TCWD(" + blanks. Returns where the scan goes on,
  // or nothing on an error (the scan goes on after the identifier).
  std::optional<std::size_t> wind_macro_at(std::size_t at, std::size_t k, bool glued) {
    const std::size_t open = skip_blanks(k, nullptr);
    if (ch(open) != '(') {
      error(at, "TASCELL_WIND needs (before, after)");
      return std::nullopt;
    }
    std::vector<diagnostic> inner;
    std::vector<diagnostic>* outer = sink_;
    sink_ = &inner;
    auto list = balanced(open, at, "argument list of TASCELL_WIND", nullptr);
    sink_ = outer;
    if (!list) {
      flush(inner);
      return std::nullopt;
    }
    const std::size_t end = list->close + 1;
    // "_TCWD(" fits: TASCELL_WIND has 12 characters and no line break.
    auto where = slots(at, 6 + (glued ? 1 : 0), open + 1);
    if (!where) {
      error(at, "cannot rewrite TASCELL_WIND in place");
      return std::nullopt;
    }
    rewrite(at, end, *where, "_TCWD(", glued, open + 1, end, none);
    if (makes_directive(at, end)) {
      restore(at, end);
      error(at, "cannot rewrite TASCELL_WIND in place: blanking it would leave a '#' first on its line");
      return std::nullopt;
    }
    out_.markers.push_back({marker_kind::wind, pos(at), std::string(src_.substr(open + 1, list->close - open - 1)),
                            pos(open + 1), pos(end), spelling::macro});
    flush(inner);
    glue_ = false;
    return next(list->close);
  }
};

}  // namespace

result run(std::string_view source) { return scanner(source).run(); }

}  // namespace tascell::prelex
