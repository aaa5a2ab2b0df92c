#include "prelude_pch.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

#include "clang/Basic/FileManager.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "prelude.hpp"
#include "translate.hpp"

namespace fs = std::filesystem;

namespace tascell::translator {

std::vector<std::string> parse_args(const options& opts) {
  std::vector<std::string> args = {"-std=c++20"};
  if (!opts.resource_dir.empty()) args.insert(args.end(), {"-resource-dir", opts.resource_dir});
  if (!opts.runtime_include.empty()) args.insert(args.end(), {"-isystem", opts.runtime_include});
  args.insert(args.end(), opts.clang_args.begin(), opts.clang_args.end());
  return args;
}

namespace {
// The runtime's include directory a PCH was written from, one line.
std::string stamp_text(const options& opts) { return opts.runtime_include + "\n"; }
}  // namespace

std::string write_prelude_pch(const options& opts, const std::string& path) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(new llvm::vfs::InMemoryFileSystem);
  overlay->pushOverlay(memory);
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(new clang::FileManager(clang::FileSystemOptions(), overlay));
  // The prelude as translate() gives it: the same in-memory file, so that
  // the PCH's input is the file a translation names.
  memory->addFile(prelude_name, 0, llvm::MemoryBuffer::getMemBuffer(prelude_text));
  // With the record of preprocessing a translation keeps (translate.cpp,
  // ast_builder: its #include directives), which a PCH must match.
  std::vector<std::string> command = {"tascellc", "-x", "c++-header", "-Xclang", "-detailed-preprocessing-record"};
  std::vector<std::string> args = parse_args(opts);
  command.insert(command.end(), args.begin(), args.end());
  command.insert(command.end(), {prelude_name, "-o", tmp});
  clang::tooling::ToolInvocation invocation(command, std::make_unique<clang::GeneratePCHAction>(), files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  if (!invocation.run()) {
    std::error_code ec;
    fs::remove(tmp, ec);
    return "Clang could not precompile the prelude (<tascell/tascell.hpp>)";
  }
  // What it was written for: the runtime's headers it read (a PCH names
  // them by path), beside it.
  {
    std::ofstream stamp(tmp + ".for", std::ios::binary | std::ios::trunc);
    stamp << stamp_text(opts);
    if (!stamp) return "cannot write " + tmp + ".for";
  }
  std::error_code ec;
  fs::rename(tmp + ".for", path + ".for", ec);
  if (!ec) fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    fs::remove(tmp + ".for", ec);
    return "cannot write " + path + ": " + ec.message();
  }
  return "";
}

std::string usable_prelude_pch(const std::string& pch, const std::string& exe, const options& opts) {
  const char* env = std::getenv("TASCELL_TRANSLATOR_PCH");
  if (env && std::string(env) == "0") return "";
  // Flags that change how the prelude parses (a macro, another standard, a
  // file included first) make the PCH another one; search paths do not.
  const std::vector<std::string>& a = opts.clang_args;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string& f = a[i];
    if (f == "-std=c++20") continue;
    bool path_flag = false;
    for (const char* p : {"-I", "-isystem", "-iquote", "-idirafter"}) {
      if (f == p) {
        path_flag = true;
        ++i;  // its value
      } else if (f.rfind(p, 0) == 0) {
        path_flag = true;
      }
    }
    if (!path_flag) return "";
  }
  // Written for the same runtime headers (a build tree's PCH names the
  // source tree's; an installed one, the prefix's).
  std::ifstream stamp(pch + ".for", std::ios::binary);
  std::string was((std::istreambuf_iterator<char>(stamp)), std::istreambuf_iterator<char>());
  if (!stamp.is_open() || was != stamp_text(opts)) return "";
  std::error_code ec;
  auto written = fs::last_write_time(pch, ec);
  if (ec) return "";
  auto built = fs::last_write_time(exe, ec);
  if (ec || built > written) return "";
  if (!opts.runtime_include.empty()) {
    for (auto it = fs::recursive_directory_iterator(opts.runtime_include, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      std::error_code e2;
      if (it->is_regular_file(e2) && it->last_write_time(e2) > written) return "";
    }
    if (ec) return "";
  }
  return pch;
}

}  // namespace tascell::translator
