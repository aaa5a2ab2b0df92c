#include "translate.hpp"

#include <map>

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "collect.hpp"
#include "lower.hpp"
#include "prelex.hpp"
#include "prelude.hpp"

namespace tascell::translator {
namespace {

// Fills a construct's marker record from the pre-lexer's table.
bool attach(marker_site& m, const std::map<std::size_t, const prelex::marker*>& table,
            std::map<std::size_t, bool>& used) {
  auto it = table.find(m.begin);
  if (it == table.end()) return false;
  const prelex::marker& pm = *it->second;
  m.end = pm.end.offset;
  m.clauses = pm.clauses;
  m.clauses_at = {pm.clauses_at.line, pm.clauses_at.column};
  used[m.begin] = true;
  return true;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// What the serial program needs instead of the runtime (markers erased).
const char* serial_prelude = R"(#include <cstdint>
#include <optional>
#include <unordered_map>
namespace tascell {
inline void cancel() {}
inline bool cancelled() { return false; }
inline int rank() { return 0; }
inline int processes() { return 1; }
inline bool is_root() { return true; }
inline int workers() { return 1; }
template <class T> class board {
 public:
  void publish(std::uint64_t key, const T& v) { values_[key] = v; }
  void publish(const T& v) { publish(0, v); }
  std::optional<T> read(std::uint64_t key = 0) const {
    auto it = values_.find(key);
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }
  void clear() { values_.clear(); }
 private:
  std::unordered_map<std::uint64_t, T> values_;
};
}
#define TASCELL_EXCEPTION(Type) static_assert(true, "")
template <class T, class U> inline bool tascell_serial_improve_min(T& best, const U& v) {
  if (v < best) { best = static_cast<T>(v); return true; }
  return false;
}
template <class T, class U> inline bool tascell_serial_improve_max(T& best, const U& v) {
  if (best < v) { best = static_cast<T>(v); return true; }
  return false;
}
)";

}  // namespace

result translate(const std::string& file, std::string_view original, const options& opts) {
  result r;
  diagnostics diag(file, original);
  prelex::result pre = prelex::run(original);
  for (const auto& e : pre.errors) diag.error({e.at.line, e.at.column}, e.message);
  if (diag.failed()) {
    r.diagnostics = diag.text();
    return r;
  }

  std::vector<std::string> args = {"-x", "c++", "-std=c++20", "-fsyntax-only"};
  if (!opts.resource_dir.empty()) args.insert(args.end(), {"-resource-dir", opts.resource_dir});
  if (!opts.runtime_include.empty()) args.insert(args.end(), {"-isystem", opts.runtime_include});
  args.insert(args.end(), opts.clang_args.begin(), opts.clang_args.end());
  args.insert(args.end(), {"-include", prelude_name});
  clang::tooling::FileContentMappings virtual_files = {{prelude_name, prelude_text}};
  std::unique_ptr<clang::ASTUnit> ast = clang::tooling::buildASTFromCodeWithArgs(
      pre.text, args, file, "tascellc", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), virtual_files);
  if (!ast || ast->getDiagnostics().hasErrorOccurred()) {
    // Clang has printed its errors, at the user's lines and columns.
    r.diagnostics = diag.text();
    return r;
  }

  source src(ast->getASTContext(), pre.text);
  constructs found = collect(src, diag);

  // Every marker must have become part of the AST.
  std::map<std::size_t, const prelex::marker*> table;
  for (const auto& m : pre.markers) table[m.at.offset] = &m;
  std::map<std::size_t, bool> used;
  for (auto& t : found.tasks) attach(t.marker, table, used);
  for (auto& d : found.doworks) attach(d.marker, table, used);
  for (auto& w : found.winds) attach(w.marker, table, used);
  for (auto& s : found.shareds) attach(s.marker, table, used);
  for (std::size_t at : found.seen_markers) used[at] = true;
  for (const auto& m : pre.markers)
    if (!used.count(m.at.offset))
      diag.error({m.at.line, m.at.column},
                 "@" + std::string(prelex::name(m.kind)) + " is not attached to anything it applies to" +
                     (m.kind == prelex::marker_kind::task ? " (it goes before a function declaration)"
                      : m.kind == prelex::marker_kind::dowork
                          ? " (it goes before a compound statement { ... } or a for loop)"
                      : m.kind == prelex::marker_kind::wind ? " (it goes before a statement)"
                                                            : " (it goes before a variable at namespace scope)"));

  edit_list edits;
  lowering l{src, diag, edits, opts.serial};
  for (auto& s : found.shareds) lower_shared(l, s);
  for (const auto& t : found.tasks) lower_task_function(l, t);
  for (const auto& c : found.calls) lower_task_call(l, c);
  for (const auto& c : found.runtime_calls) lower_runtime_call(l, c, found);
  for (const auto& d : found.doworks) lower_dowork(l, d);
  for (const auto& w : found.winds) lower_wind(l, w);
  r.diagnostics = diag.text();
  if (diag.failed()) return r;

  std::string head = opts.serial ? std::string(serial_prelude) : "#include <tascell/tascell.hpp>\n";
  r.output = head + "#line 1 " + quoted(file) + "\n" + edits.apply(pre.text);
  r.ok = true;
  return r;
}

}  // namespace tascell::translator
