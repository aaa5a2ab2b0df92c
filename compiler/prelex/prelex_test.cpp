// Tests of the pre-lexer: every rewriting rule, every literal that must stay
// untouched, every error with its message and position, and the invariant
// (check.hpp) on every input, plus a randomised property test.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>

#include "check.hpp"
#include "prelex.hpp"

namespace tascell::prelex {
namespace {

std::vector<std::string_view> lines_of(std::string_view s) {
  std::vector<std::string_view> lines;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n' || s[i] == '\r') {
      if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
      lines.push_back(s.substr(begin, i + 1 - begin));
      begin = i + 1;
    }
  }
  lines.push_back(s.substr(begin));
  return lines;
}

// Runs the pre-lexer and checks the invariant: same number of lines, every
// line as long as before, nothing changed outside the markers' spans (and
// the rest of check.hpp).
result prelex(std::string_view source) {
  result r = run(source);
  EXPECT_EQ(check_invariants(source, r), "") << "input:\n" << source << "\noutput:\n" << r.text;
  auto in = lines_of(source), out = lines_of(r.text);
  EXPECT_EQ(in.size(), out.size()) << source;
  for (std::size_t i = 0; i < std::min(in.size(), out.size()); ++i)
    EXPECT_EQ(in[i].size(), out[i].size()) << "line " << i + 1 << " of\n" << source;
  return r;
}

// The input rewrites to `expected` without errors.
result rewrites(std::string_view source, std::string_view expected) {
  result r = prelex(source);
  EXPECT_EQ(r.text, expected);
  EXPECT_TRUE(r.errors.empty()) << source << "\nfirst error: " << (r.errors.empty() ? "" : r.errors[0].message);
  return r;
}

// The input is left alone: no markers, no errors.
void untouched(std::string_view source) {
  result r = prelex(source);
  EXPECT_EQ(r.text, source);
  EXPECT_TRUE(r.markers.empty()) << source;
  EXPECT_TRUE(r.errors.empty()) << source << "\nfirst error: " << (r.errors.empty() ? "" : r.errors[0].message);
}

// The input gives exactly these errors (message, line, column).
struct expected_error {
  std::string message;
  unsigned line, column;
};
result fails(std::string_view source, const std::vector<expected_error>& errors) {
  result r = prelex(source);
  EXPECT_EQ(r.errors.size(), errors.size()) << source;
  for (std::size_t i = 0; i < std::min(r.errors.size(), errors.size()); ++i) {
    EXPECT_EQ(r.errors[i].message, errors[i].message) << source;
    EXPECT_EQ(r.errors[i].at.line, errors[i].line) << errors[i].message;
    EXPECT_EQ(r.errors[i].at.column, errors[i].column) << errors[i].message;
  }
  return r;
}

void expect_at(const position& p, unsigned line, unsigned column, std::size_t offset) {
  EXPECT_EQ(p.line, line);
  EXPECT_EQ(p.column, column);
  EXPECT_EQ(p.offset, offset);
}

// ---------------------------------------------------------------- @task

TEST(Task, BecomesTCTK) {
  auto r = rewrites("@task long fib(int n);", "_TCTK long fib(int n);");
  ASSERT_EQ(r.markers.size(), 1u);
  EXPECT_EQ(r.markers[0].kind, marker_kind::task);
  expect_at(r.markers[0].at, 1, 1, 0);
  expect_at(r.markers[0].end, 1, 6, 5);
  EXPECT_EQ(r.markers[0].clauses, "");
}

TEST(Task, SeveralWithTabsAndPositions) {
  auto r = rewrites("int x;\n\t@task void f();\n  @task\nvoid g();\n@task",
                    "int x;\n\t_TCTK void f();\n  _TCTK\nvoid g();\n_TCTK");
  ASSERT_EQ(r.markers.size(), 3u);
  expect_at(r.markers[0].at, 2, 2, 8);  // a tab is one column
  expect_at(r.markers[1].at, 3, 3, 26);
  expect_at(r.markers[2].at, 5, 1, 42);
}

TEST(Task, NextToPunctuation) {
  rewrites("(@task);@task{@task}", "(_TCTK);_TCTK{_TCTK}");
  rewrites("template <class T> @task T f(T);", "template <class T> _TCTK T f(T);");
}

// ---------------------------------------------------------------- @dowork

TEST(Dowork, BlockWithoutClauses) {
  auto r = rewrites("  @dowork {\n    a = f();\n  }\n", "  _TCDW() {\n    a = f();\n  }\n");
  ASSERT_EQ(r.markers.size(), 1u);
  EXPECT_EQ(r.markers[0].kind, marker_kind::dowork);
  EXPECT_EQ(r.markers[0].clauses, "");
  expect_at(r.markers[0].at, 1, 3, 2);
  expect_at(r.markers[0].clauses_at, 1, 10, 9);
  expect_at(r.markers[0].end, 1, 10, 9);
  rewrites("@dowork{}", "_TCDW(){}");
  rewrites("@dowork\n{}", "_TCDW()\n{}");
  rewrites("@dowork // note\n{}", "_TCDW() // note\n{}");
}

TEST(Dowork, ForWithoutClauses) {
  rewrites("@dowork for (int i = 0; i < n; ++i) f(i);", "_TCDW() for (int i = 0; i < n; ++i) f(i);");
  rewrites("@dowork\nfor (;;) {}", "_TCDW()\nfor (;;) {}");
}

TEST(Dowork, OneClauseShiftsOneColumnLeft) {
  auto r = rewrites("  @dowork reduction(+: s)\n  for (int i = 0; i < n; ++i) s += i;",
                    "  _TCDW( reduction(+: s))\n  for (int i = 0; i < n; ++i) s += i;");
  ASSERT_EQ(r.markers.size(), 1u);
  EXPECT_EQ(r.markers[0].clauses, "reduction(+: s)");
  expect_at(r.markers[0].clauses_at, 1, 11, 10);
  expect_at(r.markers[0].end, 1, 26, 25);
  // The statement does not move even on the same line.
  rewrites("@dowork reduction(+: s) for (;;) {}", "_TCDW( reduction(+: s)) for (;;) {}");
  rewrites("@dowork reduction(+: s){}", "_TCDW( reduction(+: s)){}");
  rewrites("@dowork\treduction(+: s)\t{}", "_TCDW(\treduction(+: s))\t{}");
}

TEST(Dowork, EveryClauseKindOnOneLine) {
  std::string clauses = "reduction(+: s) copy(a[0:n]), copyout(b[lo:len]) shared(p) if(n > 10) priority(-depth)";
  auto r = rewrites("@dowork " + clauses + "\nfor (;;) {}", "_TCDW( " + clauses + ")\nfor (;;) {}");
  ASSERT_EQ(r.markers.size(), 1u);
  EXPECT_EQ(r.markers[0].clauses, clauses);
}

TEST(Dowork, NestedParensBracketsBracesInClauses) {
  std::string clauses = "if((n > 10) && f(g(x), (y))) copy(p[idx(0):len(q[1])]) priority(-(depth + h({1, 2})))";
  auto r = rewrites("@dowork " + clauses + " {}", "_TCDW( " + clauses + ") {}");
  EXPECT_EQ(r.markers.at(0).clauses, clauses);
}

TEST(Dowork, LiteralsAndCommentsInsideClauses) {
  std::string clauses = R"--(if(s == ")" && c != '(' && t != R"x()")x") /* ) */ priority(1'000))--";
  auto r = rewrites("@dowork " + clauses + " {}", "_TCDW( " + clauses + ") {}");
  EXPECT_EQ(r.markers.at(0).clauses, clauses);
}

TEST(Dowork, CommentBeforeTheClauses) {
  auto r = rewrites("@dowork /* sum */ reduction(+: s) {}", "_TCDW( /* sum */ reduction(+: s)) {}");
  EXPECT_EQ(r.markers.at(0).clauses, "reduction(+: s)");
  expect_at(r.markers.at(0).clauses_at, 1, 19, 18);
}

TEST(Dowork, SpaceBeforeTheClauseParenthesis) {
  auto r = rewrites("@dowork reduction (+: s) {}", "_TCDW( reduction (+: s)) {}");
  EXPECT_EQ(r.markers.at(0).clauses, "reduction (+: s)");
}

TEST(Dowork, CommasBetweenAndAfterClauses) {
  auto r = rewrites("@dowork reduction(+: s), copy(a[0:n]) , if(c) {}", "_TCDW( reduction(+: s), copy(a[0:n]) , if(c)) {}");
  EXPECT_EQ(r.markers.at(0).clauses, "reduction(+: s), copy(a[0:n]) , if(c)");
  // A trailing comma belongs to the clause text (the translator diagnoses it).
  r = rewrites("@dowork reduction(+: s), {}", "_TCDW( reduction(+: s),) {}");
  EXPECT_EQ(r.markers.at(0).clauses, "reduction(+: s),");
}

TEST(Dowork, IfIsAClauseButStatementKeywordsAreNot) {
  auto r = rewrites("@dowork if(n > 10) for (;;) {}", "_TCDW( if(n > 10)) for (;;) {}");
  EXPECT_EQ(r.markers.at(0).clauses, "if(n > 10)");
  rewrites("@dowork while (x) {}", "_TCDW() while (x) {}");
  rewrites("@dowork switch (x) {}", "_TCDW() switch (x) {}");
  rewrites("@dowork return (x);", "_TCDW() return (x);");
  // Anything else is the statement; the translator diagnoses it.
  rewrites("@dowork x = 1;", "_TCDW() x = 1;");
  rewrites("@dowork [&] {}();", "_TCDW() [&] {}();");
  // An unknown clause name is passed on for the translator to diagnose.
  auto u = rewrites("@dowork chunk(4) for (;;) {}", "_TCDW( chunk(4)) for (;;) {}");
  EXPECT_EQ(u.markers.at(0).clauses, "chunk(4)");
}

TEST(Dowork, ClauseListAtEndOfInput) {
  rewrites("@dowork if(x)", "_TCDW( if(x))");
  rewrites("@dowork", "_TCDW()");
}

TEST(Dowork, ClausesSpanningLinesCloseBeforeTheStatement) {
  // The clause text stays in place; ")" takes the first blank before the
  // statement (here in its indentation).
  const char* in =
      "  @dowork reduction(+: s)\n"
      "          copy(a[0:n])\n"
      "  for (int i = 0; i < n; ++i) s += a[i];\n";
  const char* out =
      "  _TCDW(  reduction(+: s)\n"
      "          copy(a[0:n])\n"
      ") for (int i = 0; i < n; ++i) s += a[i];\n";
  auto r = rewrites(in, out);
  ASSERT_EQ(r.markers.size(), 1u);
  EXPECT_EQ(r.markers[0].clauses, "reduction(+: s)\n          copy(a[0:n])");
  expect_at(r.markers[0].clauses_at, 1, 11, 10);
  expect_at(r.markers[0].end, 3, 2, 50);
}

TEST(Dowork, ClausesSpanningLinesWithATrailingBlank) {
  rewrites("@dowork reduction(+: s)\n  copy(a[0:n]) \nfor (;;) {}", "_TCDW(  reduction(+: s)\n  copy(a[0:n]))\nfor (;;) {}");
  rewrites("@dowork reduction(+: s)\n  copy(a[0:n]) {}", "_TCDW(  reduction(+: s)\n  copy(a[0:n])){}");
}

TEST(Dowork, ClausesSpanningLinesCloseInALastLineBlank) {
  // No blank after the list: a blank of its last line goes, the rest of
  // that line moves one column left.
  auto r = rewrites("@dowork reduction(+: s)\n  copy(a[0:n])\n{}", "_TCDW(  reduction(+: s)\n copy(a[0:n]))\n{}");
  expect_at(r.markers.at(0).end, 2, 15, 38);
  // The last such blank is used (the fewest characters move).
  rewrites("@dowork reduction(+: s)\ncopy(a[0:n]) if(c)\n{}", "_TCDW(  reduction(+: s)\ncopy(a[0:n])if(c))\n{}");
  // A blank inside parentheses next to a bracket will do.
  rewrites("@dowork reduction(+: s)\ncopy(a[0:n] )\n{}", "_TCDW(  reduction(+: s)\ncopy(a[0:n]))\n{}");
  // A blank between two tokens that could join is not used: "a - -b".
  rewrites("@dowork reduction(+: s)\n if(a - -b)\n{}", "_TCDW(  reduction(+: s)\nif(a - -b))\n{}");
}

TEST(Dowork, ClausesOnTheNextLine) {
  rewrites("@dowork\n  reduction(+: s)\n  {}", "_TCDW( \n  reduction(+: s)\n) {}");
}

TEST(Dowork, CommentsBetweenClausesOnSeveralLines) {
  const char* in =
      "@dowork reduction(+: s) // the sum\n"
      "        copy(a[0:n])    /* the data */\n"
      "  for (;;) {}";
  const char* out =
      "_TCDW(  reduction(+: s) // the sum\n"
      "        copy(a[0:n]))   /* the data */\n"
      "  for (;;) {}";
  auto r = rewrites(in, out);
  EXPECT_EQ(r.markers.at(0).clauses, "reduction(+: s) // the sum\n        copy(a[0:n])");
}

TEST(Dowork, ClauseTextWithLineBreaksInsideParentheses) {
  const char* in =
      "@dowork reduction(+: s,\n"
      "                  t) {}";
  const char* out =
      "_TCDW(  reduction(+: s,\n"
      "                  t)){}";
  auto r = rewrites(in, out);
  EXPECT_EQ(r.markers.at(0).clauses, "reduction(+: s,\n                  t)");
}

TEST(Dowork, NoRoomForTheParenthesisIsAnError) {
  const char* in = "@dowork reduction(+: s)\ncopy(a[0:n])\n{}";
  auto r = fails(in, {{"cannot rewrite @dowork in place: its clause list spans lines and leaves no blank for its ')'; "
                       "indent the statement or the clause list's last line",
                       1, 1}});
  EXPECT_EQ(r.text, in);
  EXPECT_TRUE(r.markers.empty());
  // "a - -b" cannot lose a blank either.
  fails("@dowork if(x)\nif(a - -b)\n{}", {{"cannot rewrite @dowork in place: its clause list spans lines and leaves no "
                                           "blank for its ')'; indent the statement or the clause list's last line",
                                           1, 1}});
}

TEST(Dowork, UnterminatedClauseList) {
  auto r = fails("x;\n  @dowork reduction(+: s for (int i = 0; i < n; ++i) {}\n",
                 {{"unterminated clause list of @dowork: missing ')'", 2, 3}});
  EXPECT_EQ(r.text, "x;\n  @dowork reduction(+: s for (int i = 0; i < n; ++i) {}\n");
  fails("@dowork copy(a[0:n) {}", {{"unbalanced clause list of @dowork: ')' does not match '['", 1, 1}});
  fails("@dowork if(f({1, 2)) {}", {{"unbalanced clause list of @dowork: ')' does not match '{'", 1, 1}});
  fails("@dowork copy(a[0:n", {{"unterminated clause list of @dowork: missing ']'", 1, 1}});
  fails("@dowork if(\")\"", {{"unterminated clause list of @dowork: missing ')'", 1, 1}});
}

TEST(Lists, ListsInsideFailedListsFailTheSameWay) {
  fails("@wind(a, @wind(b, (c)", {{"unterminated argument list of @wind: missing ')'", 1, 1},
                                   {"unterminated argument list of @wind: missing ')'", 1, 10}});
  fails("@wind(a, @dowork if(b, [c) ]", {{"unbalanced argument list of @wind: ')' does not match '['", 1, 1},
                                          {"unbalanced clause list of @dowork: ')' does not match '['", 1, 10}});
  fails("@wind(a, {@shared(b, c}", {{"unbalanced argument list of @wind: '}' does not match '('", 1, 1},
                                     {"unbalanced argument list of @shared: '}' does not match '('", 1, 11}});
}

TEST(Lists, ManyUnterminatedListsTakeLinearTime) {
  std::string source;
  for (int i = 0; i < 20000; ++i) source += "x = 1; @wind(a, (b) f();\n";
  auto start = std::chrono::steady_clock::now();
  result r = prelex(source);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.errors.size(), 20000u);
  EXPECT_EQ(r.errors.back().message, "unterminated argument list of @wind: missing ')'");
  EXPECT_LT(seconds, 5.0);  // about 0.05 s; quadratic would take minutes
}

// ---------------------------------------------------------------- @wind

TEST(Wind, BecomesTCWD) {
  auto r = rewrites("    @wind(a[k] = i, a[k] = -1) {\n", "    _TCWD(a[k] = i, a[k] = -1) {\n");
  ASSERT_EQ(r.markers.size(), 1u);
  EXPECT_EQ(r.markers[0].kind, marker_kind::wind);
  EXPECT_EQ(r.markers[0].clauses, "a[k] = i, a[k] = -1");
  expect_at(r.markers[0].at, 1, 5, 4);
  expect_at(r.markers[0].clauses_at, 1, 11, 10);
  expect_at(r.markers[0].end, 1, 31, 30);
}

TEST(Wind, LambdasStringsCommasInArguments) {
  std::string args = R"--([&]{ log("undo, )"); v.push_back({1, 2}); }(), g(')', "(", '"', R"d()")d"))--";
  auto r = rewrites("@wind(" + args + ") s;", "_TCWD(" + args + ") s;");
  EXPECT_EQ(r.markers.at(0).clauses, args);
}

TEST(Wind, BlanksAndLinesBeforeAndInsideTheArguments) {
  auto r = rewrites("@wind (a = 1,\n       a = 0)\n  f();", "_TCWD (a = 1,\n       a = 0)\n  f();");
  EXPECT_EQ(r.markers.at(0).clauses, "a = 1,\n       a = 0");
  expect_at(r.markers.at(0).clauses_at, 1, 8, 7);
  expect_at(r.markers.at(0).end, 2, 14, 27);
  rewrites("@wind\n(a, b) s;", "_TCWD\n(a, b) s;");
  rewrites("@wind/* do, undo */(a, b) s;", "_TCWD/* do, undo */(a, b) s;");
}

TEST(Wind, NeedsParentheses) {
  auto r = fails("  @wind {}", {{"@wind needs (before, after)", 1, 3}});
  EXPECT_EQ(r.text, "  @wind {}");
  fails("@wind", {{"@wind needs (before, after)", 1, 1}});
}

TEST(Wind, UnterminatedOrUnbalancedArguments) {
  fails("@wind(a, (b) {}", {{"unterminated argument list of @wind: missing ')'", 1, 1}});
  fails("@wind(a, [b) {}", {{"unbalanced argument list of @wind: ')' does not match '['", 1, 1}});
  fails("@wind(a, {b)", {{"unbalanced argument list of @wind: ')' does not match '{'", 1, 1}});
  fails("@wind(a, \"b)\n", {{"unterminated argument list of @wind: missing ')'", 1, 1}});
}

TEST(Wind, MarkersInsideTheArgumentsAreErrors) {
  auto r = fails("@wind(@task, @foo) s;", {{"'@task' cannot appear inside the argument list of @wind", 1, 7},
                                           {"unknown marker '@foo'", 1, 14}});
  EXPECT_EQ(r.text, "_TCWD(@task, @foo) s;");
  fails("@dowork if(@ x) {}", {{"stray '@'", 1, 12}});
  // An error inside a list that is itself unterminated is reported once,
  // when the text is scanned again as code.
  fails("@wind(@foo", {{"unterminated argument list of @wind: missing ')'", 1, 1}, {"unknown marker '@foo'", 1, 7}});
}

// ---------------------------------------------------------------- @shared

TEST(Shared, BecomesTCSHRD) {
  auto r = rewrites("@shared(min) long best = LONG_MAX;\n@shared( max ) int most;",
                    "_TCSHRD(min) long best = LONG_MAX;\n_TCSHRD( max ) int most;");
  ASSERT_EQ(r.markers.size(), 2u);
  EXPECT_EQ(r.markers[0].kind, marker_kind::shared);
  EXPECT_EQ(r.markers[0].clauses, "min");
  expect_at(r.markers[0].clauses_at, 1, 9, 8);
  EXPECT_EQ(r.markers[1].clauses, " max ");
  expect_at(r.markers[1].at, 2, 1, 35);
}

TEST(Shared, NeedsParentheses) {
  fails("@shared long best;", {{"@shared needs (min) or (max)", 1, 1}});
  fails("@shared(min long best;", {{"unterminated argument list of @shared: missing ')'", 1, 1}});
}

// ---------------------------------------------------------------- other '@'

TEST(Errors, UnknownMarker) {
  auto r = fails("int x;\n  @foo int y;", {{"unknown marker '@foo'", 2, 3}});
  EXPECT_EQ(r.text, "int x;\n  @foo int y;");
  fails("@Task f();", {{"unknown marker '@Task'", 1, 1}});
  fails("@tasks f();", {{"unknown marker '@tasks'", 1, 1}});
  fails("@task_ f();", {{"unknown marker '@task_'", 1, 1}});
  fails("@do_work {}", {{"unknown marker '@do_work'", 1, 1}});
}

TEST(Errors, StrayAt) {
  auto r = fails("a @ b; @1; @ task;\n@", {{"stray '@'", 1, 3}, {"stray '@'", 1, 8}, {"stray '@'", 1, 12}, {"stray '@'", 2, 1}});
  EXPECT_EQ(r.text, "a @ b; @1; @ task;\n@");
  r = fails("@@task f();", {{"stray '@'", 1, 1}});
  EXPECT_EQ(r.text, "@_TCTK f();");
}

TEST(Errors, MarkerGluedToTheTokenBefore) {
  const std::string msg = "'@task' is glued to the token before it: put a space before '@'";
  fails("x@task f();", {{msg, 1, 2}});
  fails("1@task f();", {{msg, 1, 2}});
  fails("\"s\"@task f();", {{msg, 1, 4}});
  fails("'c'@task f();", {{msg, 1, 4}});
  fails("@task@task f();", {{msg, 1, 6}});
  // Punctuation, blanks and comments separate.
  rewrites("x /**/@task", "x /**/_TCTK");
}

TEST(Errors, SeveralInOrder) {
  fails("@wind x;\n@shared;\n@foo\n@dowork(",
        {{"@wind needs (before, after)", 1, 1}, {"@shared needs (min) or (max)", 2, 1}, {"unknown marker '@foo'", 3, 1}});
}

// ---------------------------------------------------------------- not markers

TEST(Literals, Comments) {
  rewrites("// @task @foo @ \"\n@task", "// @task @foo @ \"\n_TCTK");
  rewrites("/* @dowork\n  @wind( */ @task /* @ */", "/* @dowork\n  @wind( */ _TCTK /* @ */");
  untouched("/* unterminated @task");
  untouched("/*/ @task */");
  untouched("// 'quote\n/* \"quote */");
}

TEST(Literals, Strings) {
  rewrites(R"(f("@task"); @task)", R"(f("@task"); _TCTK)");
  rewrites(R"(f("say \"@task\" now", "\\"); @task)", R"(f("say \"@task\" now", "\\"); _TCTK)");
  rewrites(R"(f("@wind(", "\\\"@"); @task)", R"(f("@wind(", "\\\"@"); _TCTK)");
  // An unterminated string ends at the line break, as in Clang.
  rewrites("f(\"@task);\n@task", "f(\"@task);\n_TCTK");
}

TEST(Literals, CharacterLiterals) {
  rewrites(R"(f('@', '\'', '"'); @task)", R"(f('@', '\'', '"'); _TCTK)");
  rewrites(R"(c = '\\'; @task)", R"(c = '\\'; _TCTK)");
  untouched(R"(c = '@'; d = "'@'";)");
}

TEST(Literals, EncodingPrefixes) {
  untouched(R"(f(u8"@task", u"@", U"@", L"@", u8'@', u'@', U'@', L'@');)");
}

TEST(Literals, UserDefinedSuffixes) {
  rewrites(R"(f("x"_s, 'a'_c, 1_km); @task)", R"(f("x"_s, 'a'_c, 1_km); _TCTK)");
  // As in Clang, R after a string is not a suffix: R"x(")x" is a raw string.
  rewrites(R"--(f("a"R"x(")x"); @task)--", R"--(f("a"R"x(")x"); _TCTK)--");
}

TEST(Literals, RawStrings) {
  untouched(R"--(s = R"(@task)";)--");
  // A custom delimiter: )" and @task inside do not end it.
  rewrites(R"--(s = R"xy(a)" @task @foo @)xy"; @task)--", R"--(s = R"xy(a)" @task @foo @)xy"; _TCTK)--");
  rewrites(R"--(s = u8R"d(@wind)d" + LR"(@)" + uR"(@)" + UR"(@)"; @task)--",
           R"--(s = u8R"d(@wind)d" + LR"(@)" + uR"(@)" + UR"(@)"; _TCTK)--");
  // Over lines, with a backslash-newline inside (not a splice in a raw string).
  rewrites("s = R\"e(\n@task \\\n@dowork {\n)\"e\"; )e\"; @task", "s = R\"e(\n@task \\\n@dowork {\n)\"e\"; )e\"; _TCTK");
  untouched("s = R\"(unterminated @task");
  // Not a raw string: an identifier ending in R, or a bad delimiter.
  rewrites(R"--(f(xR"(", @task);)--", R"--(f(xR"(", _TCTK);)--");
  rewrites(R"--(f(R"a b(x)a b"); @task)--", R"--(f(R"a b(x)a b"); _TCTK)--");
}

TEST(Literals, DigitSeparators) {
  rewrites("int x = 1'000'000; @task void f();", "int x = 1'000'000; _TCTK void f();");
  rewrites("auto y = 0x1'00 + 0b1'0 + 1'2.5e+1'0; @task", "auto y = 0x1'00 + 0b1'0 + 1'2.5e+1'0; _TCTK");
  rewrites("n = 1'000'000; @wind(a[1'0] = '@', b) s;", "n = 1'000'000; _TCWD(a[1'0] = '@', b) s;");
  rewrites("@dowork if(n > 1'000) priority(1'0)\nfor (;;) {}", "_TCDW( if(n > 1'000) priority(1'0))\nfor (;;) {}");
  rewrites("x = .5'0; y = 'a'; @task", "x = .5'0; y = 'a'; _TCTK");
}

TEST(Literals, LineSplices) {
  // A line comment continued by a backslash, also with blanks after it.
  untouched("// note \\\n@task");
  untouched("// note \\  \n@task");
  untouched("\"a\\\n@task\"");
  untouched("'\\\n@'");
  // A block comment closed across a splice.
  rewrites("/* *\\\n/ @task", "/* *\\\n/ _TCTK");
  // A marker split by a splice keeps its lines.
  auto r = rewrites("@ta\\\nsk f();", "_TC\\\nTK f();");
  expect_at(r.markers.at(0).end, 2, 3, 7);
  rewrites("@\\\nwind(a, b) s;", "_\\\nTCWD(a, b) s;");
  rewrites("@dowork\\\n reduction(+: s) {}", "_TCDW( \\\n reduction(+: s)){}");
}

TEST(Literals, CarriageReturns) {
  auto r = rewrites("@task f();\r\n  @dowork reduction(+: s)\r\n    copy(a)\r\n  {}\r\n",
                    "_TCTK f();\r\n  _TCDW(  reduction(+: s)\r\n    copy(a)\r\n) {}\r\n");
  expect_at(r.markers.at(1).at, 2, 3, 14);
  expect_at(r.markers.at(1).end, 4, 2, 53);
  fails("x;\r@foo", {{"unknown marker '@foo'", 2, 1}});
}

TEST(Preprocessor, HeaderNamesAndMessagesAreNotCode) {
  untouched("#include <a@b.h>\n#include \"c@d.h\"\n# include_next <e@f>\n#import <it's@.h>\n");
  untouched("#error don't use @task here\n#warning it's @wind\n");
  untouched("  /* x */ #include <a@b.h>\n");
  untouched("#error a \\\n @task continued\n");
}

TEST(Preprocessor, MarkersInDirectivesAreRewritten) {
  rewrites("#define T @task\n#define W(x) @wind(x = 1, x = 0)", "#define T _TCTK\n#define W(x) _TCWD(x = 1, x = 0)");
  rewrites("#define D @dowork reduction(+: s) \\\n   copy(a) \\\n  for", "#define D _TCDW(  reduction(+: s) \\\n   copy(a))\\\n  for");
  rewrites("#if 1 // @foo\n#endif", "#if 1 // @foo\n#endif");
  // The list ends with the directive.
  fails("#define W @wind(a,\n b)", {{"unterminated argument list of @wind: missing ')'", 1, 11}});
  fails("#define W @wind\n(a, b)", {{"@wind needs (before, after)", 1, 11}});
  // '#' in the middle of a line is not a directive.
  rewrites("x # include <@task>", "x # include <_TCTK>");
}

TEST(Preprocessor, ByteOrderMark) {
  untouched("\xEF\xBB\xBF#include <a@b>\n");
  rewrites("\xEF\xBB\xBF@task", "\xEF\xBB\xBF_TCTK");
}

// ---------------------------------------------------------------- standard C++ spellings
// [[tascell::task]], [[tascell::dowork(...)]], [[tascell::shared(...)]] and
// TASCELL_WIND(...): the same markers in a program that is also C++20.

void expect_marker(const marker& m, marker_kind kind, spelling written, std::string_view clauses) {
  EXPECT_EQ(m.kind, kind);
  EXPECT_EQ(m.written, written);
  EXPECT_EQ(m.clauses, clauses);
}

TEST(AttrTask, BecomesTCTKAndBlanks) {
  auto r = rewrites("[[tascell::task]] long fib(int n);", "_TCTK             long fib(int n);");
  ASSERT_EQ(r.markers.size(), 1u);
  expect_marker(r.markers[0], marker_kind::task, spelling::attribute, "");
  expect_at(r.markers[0].at, 1, 1, 0);
  expect_at(r.markers[0].end, 1, 18, 17);
  EXPECT_EQ(spelled(r.markers[0]), "[[tascell::task]]");
  rewrites("  [[tascell::task]]\n  void f();", "  _TCTK            \n  void f();");
}

TEST(AttrTask, BlanksLineBreaksAndCommentsBetweenItsTokens) {
  auto r = rewrites("[[ tascell /* ns */ :: task\n  ]] void f();", "_TCTK                      \n     void f();");
  expect_at(r.markers.at(0).end, 2, 5, 32);
  // Two '[' tokens with a blank between them are an attribute too.
  rewrites("[ [tascell::task] ] f();", "_TCTK               f();");
  rewrites("[[tascell::task // a task\n]] f();", "_TCTK                    \n   f();");
}

// Rewriting "x[[" to "x_TCTK" would make one identifier: a blank goes first.
TEST(AttrTask, GluedToTheTokenBefore) {
  auto r = rewrites("int f[[tascell::task]]();", "int f _TCTK           ();");
  expect_at(r.markers.at(0).at, 1, 6, 5);
  rewrites("@task[[tascell::task]] f();", "_TCTK _TCTK            f();");
  rewrites("\"s\"TASCELL_WIND(a, b)", "\"s\" _TCWD(      a, b)");
}

TEST(AttrDowork, WithoutClauses) {
  auto r = rewrites("[[tascell::dowork]] for (;;) {}", "_TCDW()             for (;;) {}");
  expect_marker(r.markers.at(0), marker_kind::dowork, spelling::attribute, "");
  expect_at(r.markers[0].clauses_at, 1, 18, 17);  // after "dowork"
  expect_at(r.markers[0].end, 1, 20, 19);
  r = rewrites("[[tascell::dowork()]] {}", "_TCDW()               {}");
  expect_at(r.markers.at(0).clauses_at, 1, 19, 18);  // after '('
  r = rewrites("[[tascell::dowork( /* none */ )]]\n{}", "_TCDW()                          \n{}");
  EXPECT_EQ(r.markers.at(0).clauses, "");
  expect_at(r.markers[0].clauses_at, 1, 19, 18);
  rewrites("  [[tascell::dowork]]\n  {\n  }", "  _TCDW()            \n  {\n  }");
  // Over lines.
  r = rewrites("[[tascell::dowork\n]] {}", "_TCDW()          \n   {}");
  expect_at(r.markers.at(0).clauses_at, 1, 18, 17);
  expect_at(r.markers[0].end, 2, 3, 20);
  r = rewrites("[[tascell::dowork(\n  // none\n)]] {}", "_TCDW()           \n         \n    {}");
  expect_at(r.markers.at(0).clauses_at, 1, 19, 18);
}

TEST(AttrDowork, ClausesOnOneLine) {
  auto r = rewrites("  [[tascell::dowork(reduction(+: s) copy(a[0:n]))]]\n  for (int i = 0; i < n; ++i) s += a[i];",
                    "  _TCDW(            reduction(+: s) copy(a[0:n]))  \n  for (int i = 0; i < n; ++i) s += a[i];");
  ASSERT_EQ(r.markers.size(), 1u);
  expect_marker(r.markers[0], marker_kind::dowork, spelling::attribute, "reduction(+: s) copy(a[0:n])");
  expect_at(r.markers[0].at, 1, 3, 2);
  expect_at(r.markers[0].clauses_at, 1, 21, 20);
  expect_at(r.markers[0].end, 1, 52, 51);
  EXPECT_EQ(spelled(r.markers[0]), "[[tascell::dowork]]");
  // Literals, comments and brackets inside the clauses stay as they are.
  std::string clauses = R"--(if(s == ")]]" && c != '(') /* ) */ copy(p[idx(0):len(q[1])]))--";
  r = rewrites("[[tascell::dowork(" + clauses + ")]] {}", "_TCDW(            " + clauses + ")   {}");
  EXPECT_EQ(r.markers.at(0).clauses, clauses);
}

TEST(AttrDowork, ClausesOverSeveralLines) {
  const char* in =
      "  [[tascell::dowork(reduction(+: s)\n"
      "                    copy(a[0:n]))]]\n"
      "  for (;;) {}";
  const char* out =
      "  _TCDW(            reduction(+: s)\n"
      "                    copy(a[0:n]))  \n"
      "  for (;;) {}";
  auto r = rewrites(in, out);
  EXPECT_EQ(r.markers.at(0).clauses, "reduction(+: s)\n                    copy(a[0:n])");
  expect_at(r.markers[0].end, 2, 36, 71);
}

TEST(AttrDowork, BlanksLineBreaksAndCommentsBetweenItsTokens) {
  auto r = rewrites("[[ tascell :: dowork ( reduction(+: s) ) ]] for (;;) {}",
                    "_TCDW(                 reduction(+: s) )    for (;;) {}");
  EXPECT_EQ(r.markers.at(0).clauses, "reduction(+: s)");  // without the blanks around it
  expect_at(r.markers[0].clauses_at, 1, 24, 23);
  const char* in =
      "[[tascell::dowork /* the loop */ (\n"
      "    reduction(+: s)  // the sum\n"
      "    copy(a[0:n])\n"
      "  )]]\n"
      "for (;;) {}";
  const char* out =
      "_TCDW(                            \n"
      "    reduction(+: s)  // the sum\n"
      "    copy(a[0:n])\n"
      "  )  \n"
      "for (;;) {}";
  r = rewrites(in, out);
  EXPECT_EQ(r.markers.at(0).clauses, "reduction(+: s)  // the sum\n    copy(a[0:n])");
  expect_at(r.markers[0].clauses_at, 2, 5, 39);
  expect_at(r.markers[0].end, 4, 6, 89);
  // "_TCDW(" only needs the first line; '(' may be on the next.
  rewrites("[[tascell::dowork\n(r(x))]] {}", "_TCDW(           \n r(x))   {}");
}

// The translator gets the same clause text, whichever way it is written.
TEST(AttrDowork, SameTableAsTheAtSign) {
  const std::string at_sign = "@dowork          reduction(+: s) for (;;) {}";
  const std::string attribute = "[[tascell::dowork(reduction(+: s))]] for (;;) {}";
  auto a = rewrites(at_sign, "_TCDW(          reduction(+: s)) for (;;) {}");
  auto b = rewrites(attribute, "_TCDW(            reduction(+: s))   for (;;) {}");
  ASSERT_EQ(a.markers.size(), 1u);
  ASSERT_EQ(b.markers.size(), 1u);
  EXPECT_EQ(a.markers[0].kind, b.markers[0].kind);
  EXPECT_EQ(a.markers[0].clauses, "reduction(+: s)");
  EXPECT_EQ(b.markers[0].clauses, a.markers[0].clauses);
  expect_at(a.markers[0].at, 1, 1, 0);
  expect_at(b.markers[0].at, 1, 1, 0);
  expect_at(a.markers[0].clauses_at, 1, 18, 17);  // both at the 'r'
  expect_at(b.markers[0].clauses_at, 1, 19, 18);
  EXPECT_EQ(at_sign.substr(a.markers[0].clauses_at.offset, 15), attribute.substr(b.markers[0].clauses_at.offset, 15));
  EXPECT_EQ(a.markers[0].written, spelling::at_sign);
  EXPECT_EQ(b.markers[0].written, spelling::attribute);
  // Aligned so, they even start at the same column.
  auto c = rewrites("@dowork           reduction(+: s) for (;;) {}", "_TCDW(           reduction(+: s)) for (;;) {}");
  EXPECT_EQ(c.markers.at(0).clauses_at.offset, b.markers[0].clauses_at.offset);
  EXPECT_EQ(c.markers[0].clauses, b.markers[0].clauses);
}

TEST(AttrDowork, ClauseListErrors) {
  fails("x;\n  [[tascell::dowork(reduction(+: s) for (int i = 0; i < n; ++i) {}\n",
        {{"unterminated clause list of [[tascell::dowork]]: missing ')'", 2, 3}});
  auto r = fails("[[tascell::dowork(copy(a[0:n)]] {}",
                 {{"unbalanced clause list of [[tascell::dowork]]: ')' does not match '['", 1, 1}});
  EXPECT_EQ(r.text, "[[tascell::dowork(copy(a[0:n)]] {}");
  fails("[[tascell::dowork(reduction(+: s)]] {}",
        {{"unbalanced clause list of [[tascell::dowork]]: ']' does not match '('", 1, 1}});
  // Blanking the comment would make "\" + blanks + line break a line splice.
  fails("[[tascell::dowork(r(x) \\ /*\n*/)]] {}",
        {{"cannot rewrite [[tascell::dowork]] in place: its clause list ends with '\\'", 1, 1}});
}

TEST(AttrDowork, MacroNameMustFitOnTheFirstLine) {
  auto r = fails("[[\ntascell::dowork(r(x))]] {}",
                 {{"cannot rewrite [[tascell::dowork]] in place: write '[[tascell::dowork' on one line", 1, 1}});
  EXPECT_EQ(r.text, "[[\ntascell::dowork(r(x))]] {}");
  EXPECT_TRUE(r.markers.empty());
  fails("[[/*\n*/tascell::task]]",
        {{"cannot rewrite [[tascell::task]] in place: write '[[tascell::task' on one line", 1, 1}});
  rewrites("[[tascell::shared(min)]]", "_TCSHRD(          min)  ");
  fails("[[  \n  tascell::shared(min)]] x;",
        {{"cannot rewrite [[tascell::shared]] in place: write '[[tascell::shared' on one line", 1, 1}});
}

TEST(AttrShared, BecomesTCSHRD) {
  auto r = rewrites("[[tascell::shared(min)]] long best;\n[[tascell::shared( max )]] int most;",
                    "_TCSHRD(          min)   long best;\n_TCSHRD(           max )   int most;");
  ASSERT_EQ(r.markers.size(), 2u);
  expect_marker(r.markers[0], marker_kind::shared, spelling::attribute, "min");
  expect_at(r.markers[0].clauses_at, 1, 19, 18);
  expect_at(r.markers[0].end, 1, 25, 24);
  expect_marker(r.markers[1], marker_kind::shared, spelling::attribute, " max ");  // exactly, as for @shared
  EXPECT_EQ(spelled(r.markers[1]), "[[tascell::shared]]");
  r = rewrites("[[tascell::shared(\n  min)]] long best;", "_TCSHRD(          \n  min)   long best;");
  EXPECT_EQ(r.markers.at(0).clauses, "\n  min");
  expect_at(r.markers[0].end, 2, 9, 27);
}

TEST(AttrShared, Errors) {
  fails("[[tascell::shared]] long best;", {{"[[tascell::shared]] needs (min) or (max)", 1, 1}});
  fails("[[tascell::shared(min]] long best;",
        {{"unbalanced argument list of [[tascell::shared]]: ']' does not match '('", 1, 1}});
}

TEST(WindMacro, BecomesTCWD) {
  auto r = rewrites("    TASCELL_WIND(a[k] = i, a[k] = -1) {\n", "    _TCWD(       a[k] = i, a[k] = -1) {\n");
  ASSERT_EQ(r.markers.size(), 1u);
  expect_marker(r.markers[0], marker_kind::wind, spelling::macro, "a[k] = i, a[k] = -1");
  expect_at(r.markers[0].at, 1, 5, 4);
  expect_at(r.markers[0].clauses_at, 1, 18, 17);
  expect_at(r.markers[0].end, 1, 38, 37);
  EXPECT_EQ(spelled(r.markers[0]), "TASCELL_WIND");
  std::string args = R"--([&]{ log("undo, )"); v.push_back({1, 2}); }(), g(')', "(", '"', R"d()")d"))--";
  r = rewrites("TASCELL_WIND(" + args + ") s;", "_TCWD(       " + args + ") s;");
  EXPECT_EQ(r.markers.at(0).clauses, args);
}

TEST(WindMacro, BlanksCommentsAndLinesBeforeAndInsideTheArguments) {
  auto r = rewrites("TASCELL_WIND /* do, undo */ (a = 1,\n             a = 0)\n  f();",
                    "_TCWD(                       a = 1,\n             a = 0)\n  f();");
  EXPECT_EQ(r.markers.at(0).clauses, "a = 1,\n             a = 0");
  expect_at(r.markers[0].clauses_at, 1, 30, 29);
  expect_at(r.markers[0].end, 2, 20, 55);
  rewrites("TASCELL_WIND\n(a, b) s;", "_TCWD(      \n a, b) s;");
}

TEST(WindMacro, OnlyTheWholeIdentifier) {
  untouched("TASCELL_WINDOW(a, b); MY_TASCELL_WIND(a, b); tascell_wind(a, b); TASCELL_WIND_(a, b); Tascell_WIND(1);");
  rewrites("TASCELL_WIND(a, b)TASCELL_WIND(c, d)", "_TCWD(       a, b)_TCWD(       c, d)");
  // A splice inside the name.
  rewrites("TASCELL_\\\nWIND(a, b) s;", "_TCWD(  \\\n     a, b) s;");
}

// A header defines TASCELL_WIND for the sequential program: directive lines
// are not looked at, code is.
TEST(WindMacro, InCodeButNotInDirectives) {
  const char* in =
      "#ifndef TASCELL_WIND\n"
      "#define TASCELL_WIND(before, after) before; after\n"
      "#endif\n"
      "#define W(x) TASCELL_WIND(x = 1, x = 0)\n"
      "#define V \\\n"
      "  TASCELL_WIND(v = 1, v = 0)\n"
      "void f() {\n"
      "  TASCELL_WIND(a = 1, a = 0) g();\n"
      "}\n";
  const char* out =
      "#ifndef TASCELL_WIND\n"
      "#define TASCELL_WIND(before, after) before; after\n"
      "#endif\n"
      "#define W(x) TASCELL_WIND(x = 1, x = 0)\n"
      "#define V \\\n"
      "  TASCELL_WIND(v = 1, v = 0)\n"
      "void f() {\n"
      "  _TCWD(       a = 1, a = 0) g();\n"
      "}\n";
  auto r = rewrites(in, out);
  ASSERT_EQ(r.markers.size(), 1u);
  expect_at(r.markers[0].at, 8, 3, 172);
  untouched("#undef TASCELL_WIND\n#if defined(TASCELL_WIND)\n#endif\n#define TASCELL_WIND\n");
}

// TASCELL_WIND ends @dowork's clause list, as "@wind" does.
TEST(WindMacro, AfterDowork) {
  auto r = rewrites("@dowork if(x) TASCELL_WIND(a, b) s;", "_TCDW( if(x)) _TCWD(       a, b) s;");
  ASSERT_EQ(r.markers.size(), 2u);
  EXPECT_EQ(r.markers[0].clauses, "if(x)");
  rewrites("@dowork\nTASCELL_WIND(a, b) s;", "_TCDW()\n_TCWD(       a, b) s;");
}

TEST(WindMacro, Errors) {
  auto r = fails("  TASCELL_WIND {}", {{"TASCELL_WIND needs (before, after)", 1, 3}});
  EXPECT_EQ(r.text, "  TASCELL_WIND {}");
  fails("auto p = &TASCELL_WIND;", {{"TASCELL_WIND needs (before, after)", 1, 11}});
  fails("TASCELL_WIND(a, (b) {}", {{"unterminated argument list of TASCELL_WIND: missing ')'", 1, 1}});
  fails("TASCELL_WIND(a, [b) {}", {{"unbalanced argument list of TASCELL_WIND: ')' does not match '['", 1, 1}});
}

TEST(Attributes, InDirectiveLines) {
  rewrites("#define T [[tascell::task]]\n#define P [[tascell::dowork(reduction(+: s))]] for",
           "#define T _TCTK            \n#define P _TCDW(            reduction(+: s))   for");
  // The attribute ends with the directive's line.
  fails("#define P [[tascell::dowork(reduction(+: s)\n)]]",
        {{"unterminated clause list of [[tascell::dowork]]: missing ')'", 1, 11}});
  fails("#define T [[tascell::task\n]]", {{"unterminated [[tascell::task]]: missing ']]'", 1, 11}});
  // Header names and #error text are not code.
  untouched("#include <[[tascell::task]]>\n#error [[tascell::task]] TASCELL_WIND(a, b)\n");
}

// Splices stay where they were, so a #define stays one directive.
TEST(Attributes, SplicesInsideAnAttributeInADefine) {
  const char* in =
      "#define D [[tascell::dowork(reduction(+: s) \\\n"
      "   copy(a))]] \\\n"
      "  for";
  const char* out =
      "#define D _TCDW(            reduction(+: s) \\\n"
      "   copy(a))   \\\n"
      "  for";
  auto r = rewrites(in, out);
  EXPECT_EQ(r.markers.at(0).clauses, "reduction(+: s) \\\n   copy(a)");
  expect_at(r.markers[0].end, 2, 14, 59);
  // A splice inside "_TCTK" too (the identifier continues across it).
  r = rewrites("#define T [\\\n[tascell:: \\\ntask]] \\\n  long", "#define T _\\\nTCTK       \\\n       \\\n  long");
  expect_at(r.markers.at(0).end, 3, 7, 32);
  rewrites("#define S(x) [[tascell::shared(\\\nx)]]", "#define S(x) _TCSHRD(          \\\nx)  ");
}

TEST(Attributes, NotInCommentsOrLiterals) {
  untouched("// [[tascell::task]] TASCELL_WIND(a, b)\n/* [[tascell::dowork]]\n TASCELL_WIND( */\n");
  untouched(R"--(f("[[tascell::task]]", "TASCELL_WIND(", '[', u8"[[tascell::shared(min)]]");)--");
  untouched(R"--(s = R"x([[tascell::dowork(r(x))]] TASCELL_WIND(a, b))x";)--");
  rewrites("f(\"[[tascell::task]]\"); [[tascell::task]]", "f(\"[[tascell::task]]\"); _TCTK            ");
}

// Attributes of other namespaces and other "[[" are someone else's.
TEST(Attributes, OthersAreUntouched) {
  untouched("[[nodiscard]] int f(); [[gnu::always_inline]] inline void g(); [[clang::suppress]] x = 1;");
  untouched("[[deprecated(\"use [[tascell::task]]\")]] void h(); [[using gnu: hot, cold]] void k();");
  untouched("[[tascell]] int y; [[tascell_x::task]] int z; [[ tascell: task ]] int w; [[]] ; [[,]] ;");
  untouched("a[b[i]] = c[[]{ return 0; }()]; m[[tascell](){ return 1; }()] = 0;");
  untouched("[[nodiscard]] [[gnu::hot]] int f(int a[[maybe_unused]]);");
  // Next to one, a tascell attribute in brackets of its own is fine.
  rewrites("[[nodiscard]] [[tascell::task]] long f();", "[[nodiscard]] _TCTK             long f();");
}

TEST(Attributes, Errors) {
  auto r = fails("  [[tascell::wind(a = 1, a = 0)]] f();",
                 {{"[[tascell::wind]] would be dropped by a compiler that does not know it, and its before and after "
                   "must run in the sequential program too: write TASCELL_WIND(before, after) statement",
                   1, 3}});
  EXPECT_EQ(r.text, "  [[tascell::wind(a = 1, a = 0)]] f();");
  fails("[[tascell::foo]] f();", {{"unknown attribute 'tascell::foo'", 1, 1}});
  fails("[[tascell::Task]] f();", {{"unknown attribute 'tascell::Task'", 1, 1}});
  fails("[[tascell::tasks]] f();", {{"unknown attribute 'tascell::tasks'", 1, 1}});
  fails("[[tascell::task, nodiscard]] f();", {{"write [[tascell::task]] in brackets of its own", 1, 1}});
  fails("x;\n[[nodiscard, tascell::task]] f();", {{"write [[tascell::task]] in brackets of its own", 2, 1}});
  fails("[[deprecated(\"x\"), tascell::dowork(reduction(+: s))]] for (;;) {}",
        {{"write [[tascell::dowork]] in brackets of its own", 1, 1}});
  fails("[[using tascell: task]] f();", {{"write [[tascell::task]] without 'using'", 1, 1}});
  fails("[[using tascell: dowork(if(x))]] {}", {{"write [[tascell::dowork]] without 'using'", 1, 1}});
  fails("[[tascell::task()]] f();", {{"[[tascell::task]] takes no arguments", 1, 1}});
  fails("[[tascell::task(x)]] f();", {{"[[tascell::task]] takes no arguments", 1, 1}});
  fails("[[tascell::]] f();", {{"expected an attribute name after 'tascell::'", 1, 1}});
  fails("[[tascell::task x]] f();", {{"unterminated [[tascell::task]]: missing ']]'", 1, 1}});
  fails("[[tascell::task] f();", {{"unterminated [[tascell::task]]: missing ']]'", 1, 1}});
  // After an error the scan goes on after the '[': what follows is scanned once, as usual.
  r = fails("[[tascell::foo]] @task f(); [[tascell::dowork(if(x)), gnu::hot]] {}",
            {{"unknown attribute 'tascell::foo'", 1, 1}, {"write [[tascell::dowork]] in brackets of its own", 1, 29}});
  EXPECT_EQ(r.text, "[[tascell::foo]] _TCTK f(); [[tascell::dowork(if(x)), gnu::hot]] {}");
}

TEST(Attributes, MarkersOfEitherSpellingInsideLists) {
  auto r = fails("@wind([[tascell::task]] x, TASCELL_WIND(a, b)) s;",
                 {{"'[[tascell::task]]' cannot appear inside the argument list of @wind", 1, 7},
                  {"'TASCELL_WIND' cannot appear inside the argument list of @wind", 1, 28}});
  EXPECT_EQ(r.text, "_TCWD([[tascell::task]] x, TASCELL_WIND(a, b)) s;");
  fails("[[tascell::dowork(if(@task))]] {}",
        {{"'@task' cannot appear inside the clause list of [[tascell::dowork]]", 1, 22}});
  fails("TASCELL_WIND(@wind(a, b), [[tascell::shared(min)]]) s;",
        {{"'@wind' cannot appear inside the argument list of TASCELL_WIND", 1, 14},
         {"'[[tascell::shared]]' cannot appear inside the argument list of TASCELL_WIND", 1, 27}});
  fails("@dowork if([[tascell::dowork]] x) {}",
        {{"'[[tascell::dowork]]' cannot appear inside the clause list of @dowork", 1, 12}});
  fails("[[tascell::dowork(if(TASCELL_WIND(a, b)))]] {}",
        {{"'TASCELL_WIND' cannot appear inside the clause list of [[tascell::dowork]]", 1, 22}});
  // An error inside a list that is itself unterminated is reported once,
  // when the text is scanned again as code.
  fails("[[tascell::dowork(if(@foo)]] {}",
        {{"unbalanced clause list of [[tascell::dowork]]: ']' does not match '('", 1, 1},
         {"unknown marker '@foo'", 1, 22}});
}

// Found by Invariant.RandomAttributeFragments (second pass): a marker that
// makes a list no attribute list becomes an identifier in the output, so the
// list is looked at loosely: "[[_TCTK, tascell::task]]" would be an error.
TEST(Attributes, MarkersInAListOfOtherTokens) {
  auto r = fails("[[@task, tascell::task]] f();", {{"write [[tascell::task]] in brackets of its own", 1, 1}});
  EXPECT_EQ(r.text, "[[_TCTK, tascell::task]] f();");
  fails("[[using tascell:@dowork,]]", {{"write [[tascell::...]] without 'using'", 1, 1}});
  fails("[[x, tascell::@task]]", {{"expected an attribute name after 'tascell::'", 1, 1}});
  // Only tokens of the list itself count, not those inside brackets.
  rewrites("[[gnu::x(tascell::task), y[tascell::z]]] @task", "[[gnu::x(tascell::task), y[tascell::z]]] _TCTK");
  // The same with @dowork: "TASCELL_WIND(a, b)" is no clause (it would be
  // inside "_TCDW(...)" in the output, where it is no longer in a list).
  rewrites("@dowork // c\nTASCELL_WIND(a, b) ", "_TCDW() // c\n_TCWD(       a, b) ");
}

// Blanking a span that crosses lines must not leave a '#' first on a line:
// "]] #error /*" would become the directive "   #error /*".
TEST(Attributes, BlankingMustNotMakeADirective) {
  const char* in = "[[tascell::task\n]] #error /*\n@task */";
  auto r =
      fails(in, {{"cannot rewrite [[tascell::task]] in place: blanking it would leave a '#' first on its line", 1, 1}});
  EXPECT_EQ(r.text, in);
  fails("TASCELL_WIND\n(#x, y)",
        {{"cannot rewrite TASCELL_WIND in place: blanking it would leave a '#' first on its line", 1, 1}});
  // A '#' after text that stays is no problem.
  rewrites("[[tascell::dowork(r(x)\n)]] #x", "_TCDW(            r(x)\n)   #x");
}

TEST(Attributes, MixedSpellingsInOneFile) {
  const char* in = R"tcpp(#include <cstdio>
@shared(min) long best = 1'000'000;
[[tascell::shared(max)]] long most = 0;

@task long fib(int n);
[[tascell::task]] long fib2(int n) {
  if (n < 2) return n;
  long a, b;
  [[tascell::dowork]] {
    a = fib(n - 1);  // [[tascell::task]] in a comment
    b = fib2(n - 2);
  }
  @dowork reduction(+: a) for (int i = 0; i < n; ++i) a += i;
  [[tascell::dowork(reduction(+: b) if(n > 10))]]
  for (int i = 0; i < n; ++i)
    TASCELL_WIND(t = i, t = -1) @wind(u = i, u = -1) b += i;
  std::printf("%s\n", "[[tascell::dowork]] TASCELL_WIND(x)");
  return a + b;
}
)tcpp";
  const char* out = R"tcpp(#include <cstdio>
_TCSHRD(min) long best = 1'000'000;
_TCSHRD(          max)   long most = 0;

_TCTK long fib(int n);
_TCTK             long fib2(int n) {
  if (n < 2) return n;
  long a, b;
  _TCDW()             {
    a = fib(n - 1);  // [[tascell::task]] in a comment
    b = fib2(n - 2);
  }
  _TCDW( reduction(+: a)) for (int i = 0; i < n; ++i) a += i;
  _TCDW(            reduction(+: b) if(n > 10))  
  for (int i = 0; i < n; ++i)
    _TCWD(       t = i, t = -1) _TCWD(u = i, u = -1) b += i;
  std::printf("%s\n", "[[tascell::dowork]] TASCELL_WIND(x)");
  return a + b;
}
)tcpp";
  auto r = rewrites(in, out);
  ASSERT_EQ(r.markers.size(), 9u);
  const std::vector<std::pair<std::string_view, std::string_view>> expected = {
      {"@shared", "min"},
      {"[[tascell::shared]]", "max"},
      {"@task", ""},
      {"[[tascell::task]]", ""},
      {"[[tascell::dowork]]", ""},
      {"@dowork", "reduction(+: a)"},
      {"[[tascell::dowork]]", "reduction(+: b) if(n > 10)"},
      {"TASCELL_WIND", "t = i, t = -1"},
      {"@wind", "u = i, u = -1"}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(spelled(r.markers[i]), expected[i].first) << i;
    EXPECT_EQ(r.markers[i].clauses, expected[i].second) << i;
  }
}

TEST(Attributes, SpelledNamesEveryMarker) {
  auto m = [](marker_kind kind, spelling written) { return marker{kind, {}, {}, {}, {}, written}; };
  EXPECT_EQ(spelled(m(marker_kind::task, spelling::at_sign)), "@task");
  EXPECT_EQ(spelled(m(marker_kind::dowork, spelling::at_sign)), "@dowork");
  EXPECT_EQ(spelled(m(marker_kind::wind, spelling::at_sign)), "@wind");
  EXPECT_EQ(spelled(m(marker_kind::shared, spelling::at_sign)), "@shared");
  EXPECT_EQ(spelled(m(marker_kind::task, spelling::attribute)), "[[tascell::task]]");
  EXPECT_EQ(spelled(m(marker_kind::dowork, spelling::attribute)), "[[tascell::dowork]]");
  EXPECT_EQ(spelled(m(marker_kind::shared, spelling::attribute)), "[[tascell::shared]]");
  EXPECT_EQ(spelled(m(marker_kind::wind, spelling::macro)), "TASCELL_WIND");
  // The old aggregate form still compiles and means the '@' spelling.
  marker old{marker_kind::task, {1, 1, 0}, {}, {1, 6, 5}, {1, 6, 5}};
  EXPECT_EQ(old.written, spelling::at_sign);
}

TEST(Attributes, ManyOrNestedListsTakeLinearTime) {
  std::string unterminated, nested, failing;
  for (int i = 0; i < 20000; ++i) unterminated += "x = 1; [[gnu::a(b, (c) ]] [[tascell::dowork(d, (e) ]] f();\n";
  for (int i = 0; i < 20000; ++i) nested += "[[a(";
  for (int i = 0; i < 20000; ++i) nested += ")]]";
  for (int i = 0; i < 20000; ++i) failing += "[[tascell::dowork(";
  for (int i = 0; i < 20000; ++i) failing += "), x]]";
  auto start = std::chrono::steady_clock::now();
  result r = prelex(unterminated);
  EXPECT_EQ(r.errors.size(), 20000u);
  r = prelex(nested);
  EXPECT_TRUE(r.errors.empty());
  r = prelex(failing);
  EXPECT_FALSE(r.errors.empty());
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 5.0);  // about 0.2 s; quadratic would take minutes
}

// ---------------------------------------------------------------- fuzzing finds
// Each test below is an input the fuzzers found (see FUZZING.md).

// Oracle (Clang's lexer): after an unknown marker, what follows the '@' is
// lexed as usual, so "@R"(" starts a raw string, as in Clang.
TEST(FuzzFinds, UnknownMarkerBeforeARawStringPrefix) {
  auto r = fails("@R\"\n@", {{"unknown marker '@R'", 1, 1}});
  EXPECT_EQ(r.text, "@R\"\n@");
  fails("@R\"x(@task)x\" @task", {{"unknown marker '@R'", 1, 1}});
  fails("@u8R\"(@)\"", {{"unknown marker '@u8R'", 1, 1}});
}

// Oracle: a digit separator is ' followed by an ASCII letter, digit or '_'
// ('$' is not one), and p+ continues a pp-number only in a hexadecimal one.
TEST(FuzzFinds, DigitSeparatorsAndExponentsAsInClang) {
  untouched("0'$@");
  untouched("0$'@'");
  untouched("1p+a'b @task'");
  rewrites("0x1p+a'b @task'", "0x1p+a'b _TCTK'");
  rewrites("1e+a'b @task", "1e+a'b _TCTK");
}

// Oracle (a bug of the oracle itself, kept as a test): a splice before '@'.
TEST(FuzzFinds, SpliceBeforeTheAt) {
  auto r = rewrites("\\\n@task", "\\\n_TCTK");
  expect_at(r.markers.at(0).at, 2, 1, 2);
  fails("\\\n@", {{"stray '@'", 2, 1}});
}

// Invariant (second pass): the ')' of a multi-line clause list must not go
// into the indentation of a directive: ")#pragma" is no longer a directive.
TEST(FuzzFinds, ParenthesisNotBeforeADirective) {
  const char* in =
      "@dowork reduction(+: s)\n"
      "        copy(a)\n"
      "  #pragma unroll\n"
      "  for (;;) {}";
  const char* out =
      "_TCDW(  reduction(+: s)\n"
      "       copy(a))\n"
      "  #pragma unroll\n"
      "  for (;;) {}";
  rewrites(in, out);
  fails("@dowork\ro()\r\t#error@", {{"cannot rewrite @dowork in place: its clause list spans lines and leaves no "
                                     "blank for its ')'; indent the statement or the clause list's last line",
                                     1, 1}});
  // A blank on an earlier line is fine.
  rewrites("@dowork a(x)\n b(y) \n  #pragma x\n{}", "_TCDW(  a(x)\n b(y))\n  #pragma x\n{}");
  // The digraph %: starts a directive too.
  untouched("%:include <a@b.h>\n  %: error don't @task\n");
}

// ---------------------------------------------------------------- the invariant

TEST(Invariant, AWholeProgram) {
  const char* program = R"tcpp(#include <cstdio>
#include <vector>

@shared(min) long best = 1'000'000;

@task long fib(int n) {
  if (n < 2) return n;
  long a, b;
  @dowork {
    a = fib(n - 1);  // the first part
    b = fib(n - 2);  /* the second @part */
  }
  return a + b;
}

@task long nqueens(int n, int k, int* a) {
  if (k == n) return 1;
  long s = 0;
  @dowork reduction(+: s) copy(a[0:n])
          if(n - k > 3) priority(-k)
  for (int i = 0; i < n; ++i)
    if (safe(a, k, i))
      @wind(a[k] = i, a[k] = -1) {
        s += nqueens(n, k + 1, a);
      }
  return s;
}

int main() {
  std::printf("%ld @task\n", fib(30));
  const char* raw = R"x(@dowork )" @wind)x";
  char c = '@';
  return 0;
}
)tcpp";
  auto r = prelex(program);
  EXPECT_TRUE(r.errors.empty());
  ASSERT_EQ(r.markers.size(), 6u);
  EXPECT_EQ(r.markers[4].clauses, "reduction(+: s) copy(a[0:n])\n          if(n - k > 3) priority(-k)");
  EXPECT_NE(r.text.find("  _TCDW(  reduction(+: s) copy(a[0:n])\n          if(n - k > 3) priority(-k)\n) for"),
            std::string::npos);
}

// The seed corpus of the fuzzer.
TEST(Invariant, FuzzCorpus) {
  const std::vector<std::string> files = {"fib.tcpp",        "nqueens.tcpp",   "literals.tcpp",  "errors.tcpp",
                                          "directives.tcpp", "multiline.tcpp", "attributes.tcpp"};
  for (const auto& f : files) {
    std::ifstream in(std::string(PRELEX_CORPUS_DIR) + "/" + f, std::ios::binary);
    ASSERT_TRUE(in) << f;
    std::stringstream ss;
    ss << in.rdbuf();
    SCOPED_TRACE(f);
    prelex(ss.str());
  }
}

// Random sequences of fragments chosen to meet each other in odd ways.
TEST(Invariant, RandomFragments) {
  const std::vector<std::string_view> fragments = {
      "@task", "@dowork", "@wind", "@shared", "@", "@foo", " ", "\t", "\n", "\r\n", "\r", "\\\n", "\\ \n",
      "(", ")", "[", "]", "{", "}", ",", ";", "reduction(+: s)", "copy(a[0:n])", "if(x)", "for", "(min)",
      "\"", "'", "\\", "\"@task\"", "'@'", "'\\''", "R\"(", ")\"", "R\"d(", ")d\"", "u8R\"", "//", "/*", "*/",
      "#", "#include <", ">", "#error", "1'000", "0x1'0", "x", "_s", "e+", ".5", "a - -b"};
  std::mt19937 rng(12345);
  for (int round = 0; round < 20000; ++round) {
    std::string s;
    int count = static_cast<int>(rng() % 12) + 1;
    for (int i = 0; i < count; ++i) s += fragments[rng() % fragments.size()];
    SCOPED_TRACE("input: [" + s + "]");
    prelex(s);
    if (HasFailure()) break;
  }
}

// The same with the fragments of the standard spellings.
TEST(Invariant, RandomAttributeFragments) {
  const std::vector<std::string_view> fragments = {
      "[[tascell::task]]", "[[tascell::dowork", "[[tascell::shared(min)]]", "[[", "]]", "[", "]", "tascell", "::",
      ":", "task", "dowork", "shared", "wind", "(", ")", "(r(x))", "reduction(+: s)", ",", "using tascell:",
      "nodiscard", "gnu::hot", "TASCELL_WIND", "TASCELL_WIND(a, b)", "@task", "@dowork", "@wind(", " ", "\t", "\n",
      "\r\n", "\\\n", "\\", "/*", "*/", "//", "\"", "'", "R\"(", ")\"", "#", "#define ", "#error ", "%:", "x", "1",
      "{", "}", "..."};
  std::mt19937 rng(54321);
  for (int round = 0; round < 30000; ++round) {
    std::string s;
    int count = static_cast<int>(rng() % 14) + 1;
    for (int i = 0; i < count; ++i) s += fragments[rng() % fragments.size()];
    SCOPED_TRACE("input: [" + s + "]");
    prelex(s);
    if (HasFailure()) break;
  }
}

}  // namespace
}  // namespace tascell::prelex
