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

// A place in the ORIGINAL text: line and column are 1-based and count bytes
// (a tab is one column), like Clang; offset is 0-based.
struct position {
  unsigned line, column;
  std::size_t offset;
};

struct marker {
  marker_kind kind;
  position at;            // where the '@' was
  // dowork: the clause list exactly as written (may be empty, may span
  //         lines), from the first clause's name to its last ')' (or a
  //         trailing ','); wind, shared: the text inside the parentheses;
  //         task: empty.
  std::string clauses;
  position clauses_at;    // where that text starts (for an empty dowork
                          // clause list: just after "@dowork")
  position end;           // just past the marker's span: the only bytes the
                          // rewrite may change are in [at, end). task: after
                          // "@task"; wind, shared: after the closing ')';
                          // dowork: after the clause list, or after the blank
                          // that became its ')'.
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

}  // namespace tascell::prelex
