#include "translate.hpp"

#include <filesystem>
#include <map>

#include "clang/Basic/FileManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/PreprocessingRecord.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "collect.hpp"
#include "lower.hpp"
#include "prelex.hpp"
#include "prelude.hpp"
#include "prelude_pch.hpp"
#include "to_attributes.hpp"

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

std::string c_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// What the serial program needs instead of the runtime (markers erased):
// the sequential API of tascell/api.hpp, its text embedded at build time.
const char* serial_prelude =
#include "api_text.inc"
    ;


namespace fs = std::filesystem;

// A header read through the pre-lexer: a file with markers, as Clang saw it.
struct prelexed_header {
  std::string name;      // as it was opened
  std::string original;  // its text
  prelex::result pre;    // the same-length text Clang parsed, and its markers
};

// A file read from memory (a header, or what the pre-lexer made of it).
class memory_file : public llvm::vfs::File {
 public:
  memory_file(llvm::vfs::Status st, std::unique_ptr<llvm::MemoryBuffer> buf)
      : st_(std::move(st)), buf_(std::move(buf)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return st_; }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine& name, int64_t, bool,
                                                               bool) override {
    return llvm::MemoryBuffer::getMemBufferCopy(buf_->getBuffer(), name.str());
  }
  std::error_code close() override { return {}; }

 private:
  llvm::vfs::Status st_;
  std::unique_ptr<llvm::MemoryBuffer> buf_;
};

// The real file system, except that a file with '@' markers (a header:
// Clang reads the main file from memory) is read as the pre-lexer turns it,
// so Clang parses its @task prototypes as it does the main file's. A file
// whose '@' the pre-lexer rejects is read as it is (its errors are kept, to
// be shown if Clang fails). Which of these files are translated is decided
// after parsing (user headers only, not system headers).
class prelexing_fs : public llvm::vfs::ProxyFileSystem {
 public:
  prelexing_fs(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, std::map<std::string, prelexed_header>& headers,
               std::map<std::string, prelexed_header>& rejected)
      : ProxyFileSystem(std::move(fs)), headers_(headers), rejected_(rejected) {}

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine& path) override {
    auto f = ProxyFileSystem::openFileForRead(path);
    if (!f) return f;
    auto st = (*f)->status();
    if (!st) return f;
    std::string name = path.str();
    auto buf = (*f)->getBuffer(name);
    if (!buf) return buf.getError();
    std::string_view text((*buf)->getBufferStart(), (*buf)->getBufferSize());
    // A precompiled header (the prelude's) is not source text.
    bool source = name.size() < 4 || name.compare(name.size() - 4, 4, ".pch") != 0;
    // Markers of either spelling ('@', [[tascell::...]], TASCELL_WIND).
    bool may_mark = text.find('@') != std::string_view::npos || text.find("tascell") != std::string_view::npos ||
                    text.find("TASCELL_WIND") != std::string_view::npos;
    if (source && may_mark) {
      std::error_code ec;
      std::string key = fs::weakly_canonical(name, ec).string();
      auto known = headers_.find(key);
      if (known != headers_.end())
        return std::unique_ptr<llvm::vfs::File>(std::make_unique<memory_file>(
            *st, llvm::MemoryBuffer::getMemBuffer(known->second.pre.text, name, false)));
      prelexed_header h{name, std::string(text), prelex::run(text)};
      if (!h.pre.errors.empty()) {
        rejected_.emplace(key, std::move(h));
      } else if (!h.pre.markers.empty() && h.pre.text.size() == text.size()) {
        auto it = headers_.emplace(key, std::move(h)).first;
        return std::unique_ptr<llvm::vfs::File>(std::make_unique<memory_file>(
            *st, llvm::MemoryBuffer::getMemBuffer(it->second.pre.text, name, false)));
      }
    }
    return std::unique_ptr<llvm::vfs::File>(std::make_unique<memory_file>(*st, std::move(*buf)));
  }

 private:
  std::map<std::string, prelexed_header>& headers_;
  std::map<std::string, prelexed_header>& rejected_;
};

// What clang::tooling::buildASTFromCodeWithArgs does, on the pre-lexing
// file system and with the preprocessing record (the #include directives).
class ast_builder : public clang::tooling::ToolAction {
 public:
  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> inv, clang::FileManager* files,
                     std::shared_ptr<clang::PCHContainerOperations> pch,
                     clang::DiagnosticConsumer* consumer) override {
    inv->getPreprocessorOpts().DetailedRecord = true;
    ast = clang::ASTUnit::LoadFromCompilerInvocation(
        inv, std::move(pch), clang::CompilerInstance::createDiagnostics(&inv->getDiagnosticOpts(), consumer, false),
        files);
    return ast != nullptr;
  }
  std::unique_ptr<clang::ASTUnit> ast;
};

std::unique_ptr<clang::ASTUnit> build_ast(const std::string& code, const std::string& file,
                                          const std::vector<std::string>& args,
                                          std::map<std::string, prelexed_header>& headers,
                                          std::map<std::string, prelexed_header>& rejected) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(
      new llvm::vfs::OverlayFileSystem(new prelexing_fs(llvm::vfs::getRealFileSystem(), headers, rejected)));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(new llvm::vfs::InMemoryFileSystem);
  overlay->pushOverlay(memory);
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(new clang::FileManager(clang::FileSystemOptions(), overlay));
  std::vector<std::string> command = {"tascellc", "-fsyntax-only"};
  command.insert(command.end(), args.begin(), args.end());
  command.push_back(file);
  ast_builder action;
  clang::tooling::ToolInvocation invocation(command, &action, files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  memory->addFile(file, 0, llvm::MemoryBuffer::getMemBufferCopy(code));
  memory->addFile(prelude_name, 0, llvm::MemoryBuffer::getMemBuffer(prelude_text));
  if (!invocation.run()) return nullptr;
  return std::move(action.ast);
}

// One file to translate: the main file or a user header with markers.
struct unit {
  const clang::FileEntry* entry;  // null: the main file
  std::string name;               // as Clang names it
  const prelex::result* pre;
  const source_file* file;  // null: the main file
  std::string output_path;  // a header's translation (absolute; with --header-dir)
  std::string_view original;  // the file as written
};

// Finds, checks and lowers the constructs of one file; returns its text
// after the edits (with its #include directives of translated headers
// naming the translations).
std::string translate_unit(clang::ASTUnit& ast, const unit& u, const std::vector<unit>& units,
                           const options& opts, diagnostics& diag) {
  source src(ast.getASTContext(), u.pre->text, u.entry, u.file);
  constructs found = collect(src, diag);

  // Every marker must have become part of the AST.
  std::map<std::size_t, const prelex::marker*> table;
  for (const auto& m : u.pre->markers) table[m.at.offset] = &m;
  std::map<std::size_t, bool> used;
  for (auto& t : found.tasks) attach(t.marker, table, used);
  for (auto& d : found.doworks) attach(d.marker, table, used);
  for (auto& w : found.winds) attach(w.marker, table, used);
  for (auto& s : found.shareds) attach(s.marker, table, used);
  for (std::size_t at : found.seen_markers) used[at] = true;
  for (const auto& m : u.pre->markers)
    if (!used.count(m.at.offset))
      diag.error({m.at.line, m.at.column, u.file},
                 std::string(prelex::spelled(m)) + " is not attached to anything it applies to" +
                     (m.kind == prelex::marker_kind::task ? " (it goes before a function declaration)"
                      : m.kind == prelex::marker_kind::dowork
                          ? " (it goes before a compound statement { ... } or a for loop)"
                      : m.kind == prelex::marker_kind::wind ? " (it goes before a statement)"
                                                            : " (it goes before a variable at namespace scope)"));

  // --to-attributes: the same program in the other spelling (its
  // constructs were checked as for a translation).
  if (opts.to_attributes) return to_attributes(u.original, *u.pre, src, found);

  edit_list edits;
  lowering l{src, diag, edits, opts.serial};
  l.line_file = c_string(u.name);
  lazy_plan lazy = opts.eager ? lazy_plan{} : plan_lazy(l, found);
  for (auto& s : found.shareds) lower_shared(l, s);
  for (const clang::DeclRefExpr* r : found.shared_reads) lower_shared_read(l, r);
  for (const auto& t : found.tasks) {
    auto it = lazy.find(t.decl->getDefinition());
    lower_task_function(l, t, it == lazy.end() ? nullptr : &it->second);
  }
  for (const auto& [fn, f] : lazy) lower_lazy_function(l, f);
  for (const auto& c : found.calls) lower_task_call(l, c);
  for (const auto& c : found.runtime_calls) lower_runtime_call(l, c, found);
  for (const auto& d : found.doworks)
    if (!lazy.count(d.function)) lower_dowork(l, d, found);
  for (const auto& w : found.winds) {
    const std::string* unwind_exit = nullptr;
    if (auto f = lazy.find(w.function); f != lazy.end())
      if (auto x = f->second.wind_exits.find(w.stmt); x != f->second.wind_exits.end()) unwind_exit = &x->second;
    lower_wind(l, w, found, unwind_exit);
  }

  // An #include of a translated header names its translation. A quoted
  // #include of another user header names it by its absolute path: the
  // translation is compiled from another directory (tascell++'s temporary
  // one, a build tree's).
  clang::SourceManager& sm = ast.getSourceManager();
  clang::PreprocessingRecord* rec = ast.getPreprocessor().getPreprocessingRecord();
  if (!rec) return edits.apply(u.pre->text);
  for (clang::PreprocessedEntity* e : *rec) {
    auto* inc = llvm::dyn_cast_or_null<clang::InclusionDirective>(e);
    if (!inc || !inc->getFile() || !src.in_this_file(inc->getSourceRange().getBegin())) continue;
    // --serial: <tascell/api.hpp> is the serial prelude above (a serial
    // program is compiled without the runtime's headers on its path).
    if (opts.serial && !inc->wasInQuotes() && inc->getFileName() == "tascell/api.hpp") {
      std::string_view t = src.text();
      std::size_t b = src.offset(inc->getSourceRange().getBegin());
      std::size_t close = t.find('>', b);
      if (close != std::string_view::npos && close < t.find('\n', b))
        edits.replace(b, close + 1 - b, "/* #include <tascell/api.hpp>: the serial prelude above */", 0);
      continue;
    }
    const clang::FileEntry* target = &inc->getFile()->getFileEntry();
    const unit* translated = nullptr;
    for (const auto& v : units)
      if (v.entry && v.entry == target) translated = &v;
    std::string path;
    if (translated) {
      if (opts.header_dir.empty()) {
        diag.error(src.pos(inc->getSourceRange().getBegin()),
                   "'" + inc->getFileName().str() +
                       "' is translated (it has @ markers, or includes a header that has): "
                       "its translation needs --header-dir DIR (tascell++ gives one)");
        continue;
      }
      path = translated->output_path;
    } else if (inc->wasInQuotes()) {
      clang::FileID id = sm.translateFile(*inc->getFile());
      if (id.isInvalid() || sm.isInSystemHeader(sm.getLocForStartOfFile(id))) continue;
      std::error_code ec;
      path = fs::absolute(inc->getFile()->getName().str(), ec).lexically_normal().string();
      if (ec) continue;
    } else {
      continue;
    }
    // The file name's token: after `include`, on the directive's line.
    std::string_view t = src.text();
    std::size_t b = src.offset(inc->getSourceRange().getBegin());
    std::size_t eol = t.find('\n', b);
    std::size_t kw = t.find("include", b);
    if (kw == std::string_view::npos || kw > eol) continue;
    std::size_t open = t.find_first_of("\"<", kw);
    if (open == std::string_view::npos || open > eol) continue;
    std::size_t close = t.find(t[open] == '<' ? '>' : '"', open + 1);
    if (close == std::string_view::npos || close > eol) continue;
    edits.replace(open, close + 1 - open, c_string(path), 0);
  }
  return edits.apply(u.pre->text);
}

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

  std::vector<std::string> args = {"-x", "c++"};
  std::vector<std::string> parse = parse_args(opts);
  args.insert(args.end(), parse.begin(), parse.end());
  if (opts.prelude_pch.empty()) args.insert(args.end(), {"-include", prelude_name});
  else args.insert(args.end(), {"-include-pch", opts.prelude_pch});
  std::map<std::string, prelexed_header> headers, rejected;
  std::unique_ptr<clang::ASTUnit> ast = build_ast(pre.text, file, args, headers, rejected);
  if (!ast || ast->getDiagnostics().hasErrorOccurred()) {
    // Clang has printed its errors, at the user's lines and columns; the
    // pre-lexer's errors in headers may explain them.
    for (const auto& [key, h] : rejected) {
      if (ast) {  // not a system header's
        clang::SourceManager& sm = ast->getSourceManager();
        auto entry = sm.getFileManager().getOptionalFileRef(h.name);
        clang::FileID id = entry ? sm.translateFile(*entry) : clang::FileID();
        if (id.isInvalid() || sm.isInSystemHeader(sm.getLocForStartOfFile(id))) continue;
      }
      const source_file* f = diag.file(fs::path(h.name).lexically_normal().string(), h.original);
      for (const auto& e : h.pre.errors) diag.error({e.at.line, e.at.column, f}, e.message);
    }
    r.diagnostics = diag.text();
    return r;
  }

  // What the translator walks (its own visits, Clang's parent map, matchers):
  // the declarations of the user's files, not the standard library's nor
  // the runtime's (read from the prelude's PCH only as they are used).
  // (The translation unit's own declarations as written, in order; not
  // loading the PCH's, and not the instantiations Sema hands on as
  // top-level declarations too.)
  std::vector<clang::Decl*> scope;
  for (clang::Decl* d : ast->getASTContext().getTranslationUnitDecl()->noload_decls())
    if (!d->isFromASTFile() && !ast->getSourceManager().isInSystemHeader(d->getLocation())) scope.push_back(d);
  ast->getASTContext().setTraversalScope(scope);

  // The files to translate: the main file, then the user headers Clang read
  // with markers (a system header's '@' is left to Clang).
  clang::SourceManager& sm = ast->getSourceManager();
  std::vector<unit> units;
  units.push_back({nullptr, file, &pre, nullptr, "", original});
  std::map<std::string, const clang::FileEntry*> entries;
  for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
    std::error_code ec;
    std::string key = fs::weakly_canonical(it->first.getName().str(), ec).string();
    if (headers.count(key) && !entries.count(key)) entries[key] = &it->first.getFileEntry();
  }
  std::map<const clang::FileEntry*, std::string> chosen;
  for (const auto& [key, entry] : entries) {
    auto id = sm.translateFile(entry);
    if (id.isInvalid() || sm.isInSystemHeader(sm.getLocForStartOfFile(id))) continue;
    chosen[entry] = key;
  }
  // A user header that includes a translated one is translated too (only its
  // #include directives change), so that the program includes no header
  // with markers.
  std::map<std::string, prelexed_header> carriers;
  if (clang::PreprocessingRecord* rec = ast->getPreprocessor().getPreprocessingRecord()) {
    for (bool grew = !chosen.empty(); grew;) {
      grew = false;
      for (clang::PreprocessedEntity* e : *rec) {
        auto* inc = llvm::dyn_cast_or_null<clang::InclusionDirective>(e);
        if (!inc || !inc->getFile() || !chosen.count(&inc->getFile()->getFileEntry())) continue;
        clang::SourceLocation at = sm.getExpansionLoc(inc->getSourceRange().getBegin());
        clang::FileID from = sm.getFileID(at);
        auto fe = sm.getFileEntryRefForID(from);
        if (from == sm.getMainFileID() || !fe || chosen.count(&fe->getFileEntry()) || sm.isInSystemHeader(at))
          continue;
        std::error_code ec;
        std::string key = fs::weakly_canonical(fe->getName().str(), ec).string();
        std::string text(sm.getBufferData(from));
        prelex::result p = prelex::run(text);
        carriers[key] = {fe->getName().str(), text, std::move(p)};
        chosen[&fe->getFileEntry()] = key;
        grew = true;
      }
    }
  }
  std::map<std::string, const clang::FileEntry*> by_name;  // in a fixed order
  for (const auto& [entry, key] : chosen) by_name[key] = entry;
  for (const auto& [key, entry] : by_name) {
    auto id = sm.translateFile(entry);
    const prelexed_header& h = headers.count(key) ? headers.at(key) : carriers.at(key);
    std::string name = fs::path(sm.getFileEntryRefForID(id)->getName().str()).lexically_normal().string();
    std::string out;
    if (!opts.header_dir.empty())
      out = (fs::absolute(opts.header_dir) / fs::path(key).relative_path()).lexically_normal().string();
    units.push_back({entry, name, &h.pre, diag.file(name, h.original), out, h.original});
  }

  std::vector<std::string> texts;
  for (const auto& u : units) texts.push_back(translate_unit(*ast, u, units, opts, diag));
  r.diagnostics = diag.text();
  if (diag.failed()) return r;

  if (opts.to_attributes) {
    r.output = texts[0];  // the headers' own markers are left as they are
    r.ok = true;
    return r;
  }
  std::string head = opts.serial ? std::string(serial_prelude) : "#include <tascell/translated.hpp>\n";
  r.output = head + "#line 1 " + c_string(file) + "\n" + texts[0];
  for (std::size_t i = 1; i < units.size(); ++i) {
    // A header's translation: the runtime (the serial prelude is the main
    // file's, which includes the header), then the header's own lines.
    std::string h = opts.serial ? "" : "#include <tascell/translated.hpp>\n";
    r.headers.push_back({units[i].output_path, h + "#line 1 " + c_string(units[i].name) + "\n" + texts[i]});
  }
  r.ok = true;
  return r;
}

}  // namespace tascell::translator
