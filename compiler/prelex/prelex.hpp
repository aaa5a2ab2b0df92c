// The pre-lexer: makes a .tcpp file parseable by Clang without moving code.
//
// `@` cannot start a C++ token, so before Clang parses a .tcpp file every
// marker is replaced by a macro call of the same length:
//
//   @task                    -> _TCTK
//   @wind(ARGS)              -> _TCWD(ARGS)      (only "@wind" changes)
//   @shared(OP)              -> _TCSHRD(OP)      (only "@shared" changes)
//   @dowork WS CLAUSES stmt  -> _TCDW( WS CLAUSES) stmt
//   @dowork stmt             -> _TCDW() stmt     (no clause list)
//
// The same markers in standard C++ spelling (a program written so is also a
// C++20 program) become the same macro calls, padded with blanks:
//
//   [[tascell::task]]              -> _TCTK + blanks
//   [[tascell::dowork]]            -> _TCDW() + blanks (also "dowork()")
//   [[tascell::dowork(CLAUSES)]]   -> _TCDW( + blanks, CLAUSES in place, ")", blanks
//   [[tascell::shared(ARGS)]]      -> _TCSHRD( + blanks, ARGS in place, ")", blanks
//   TASCELL_WIND(ARGS)             -> _TCWD( + blanks, ARGS in place, ")"
//
// There the macro's name and '(' are written over the first characters of
// the span (after one blank if the token before would join them), and every
// other byte of the span that is not the kept text, a line break or a line
// splice becomes a blank; the name and '(' must fit before the span's first
// line break, and the blanks must not leave a '#' first on a later line (it
// would start a directive). TASCELL_WIND is an ordinary macro call (a header
// defines it for the sequential program), so it is not looked for in
// directive lines.
//
// Invariant (what every caller may rely on, checked by check.hpp):
//   - the output has exactly the length of the input, and every line break
//     (\n, \r) is at the same offset, so every line keeps its number and its
//     length;
//   - every byte outside the spans [marker.at, marker.end) of the reported
//     markers is unchanged, so Clang's SourceLocations and diagnostics on the
//     rewritten buffer point at the user's text.
//
// @dowork on one line: "_TCDW(" (6 chars) + ")" (1) take the place of the 7
// chars of "@dowork": the clause text moves one column left and the
// statement stays in place. A clause list that spans lines cannot do that
// (its first line would lose a column and its last line gain one), so then
// "@dowork" becomes "_TCDW( " (the clause text stays in place) and the ")"
// takes the place of one blank: the first space/tab between the clause list
// and the statement (not in front of a directive's '#'), or else one blank
// of the clause list's last line that can go without joining two tokens
// (that line's rest moves one column left). If there is no such blank, that
// is an error.
//
// Markers are found only in code: never in comments, string, character and
// raw string literals, header names of #include, or the text of #error and
// #warning; line splices (backslash-newline) are followed like Clang does.
// Errors leave the text unchanged; the translator stops on them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tascell::prelex {

enum class marker_kind { task, dowork, wind, shared };

// How a marker was written: @task, [[tascell::task]], TASCELL_WIND(...).
enum class spelling { at_sign, attribute, macro };

// A place in the ORIGINAL text: line and column are 1-based and count bytes
// (a tab is one column), like Clang; offset is 0-based.
struct position {
  unsigned line, column;
  std::size_t offset;
};

struct marker {
  marker_kind kind;
  position at;            // where the '@' was (attribute: its first '[';
                          // macro: the 'T' of TASCELL_WIND)
  // dowork: the clause list exactly as written (may be empty, may span
  //         lines), from the first clause's name to its last ')' (or a
  //         trailing ','); attribute: the text inside dowork's parentheses
  //         without leading and trailing blanks, line breaks and comments;
  //         wind, shared: the text inside the parentheses; task: empty.
  std::string clauses;
  position clauses_at;    // where that text starts (for an empty dowork
                          // clause list: just after "@dowork", or after
                          // dowork's '(' or name in an attribute)
  position end;           // just past the marker's span: the only bytes the
                          // rewrite may change are in [at, end). task: after
                          // "@task"; wind, shared: after the closing ')';
                          // dowork: after the clause list, or after the blank
                          // that became its ')'; attribute: after its "]]".
  spelling written = spelling::at_sign;  // last, so {kind, at, clauses,
                                         // clauses_at, end} still compiles
};

struct diagnostic {
  position at;
  std::string message;
};

struct result {
  std::string text;                  // the rewritten source
  std::vector<marker> markers;       // in source order
  std::vector<diagnostic> errors;    // in source order; empty on success
};

// Never throws except std::bad_alloc; accepts any bytes.
result run(std::string_view source);

// The name of a marker kind as written after '@' ("task", "dowork", ...).
std::string_view name(marker_kind kind);

// The marker as written, to name it in messages: "@task",
// "[[tascell::dowork]]", "TASCELL_WIND", ...
std::string_view spelled(const marker& m);

}  // namespace tascell::prelex
