// tascellc: translates one .tcpp file into C++.
//
//   tascellc [--serial] [--eager] [--to-attributes] [-o out.cpp] [--header-dir DIR] input.tcpp [-- clang-flags...]
//
// A user header with markers that input.tcpp includes is translated too,
// into DIR/<its absolute path>; the translated #include directives name
// those translations (and other quoted user headers by absolute path).
//
// Exit status: 0 translated; 1 the program has errors (printed like a
// compiler's, at the user's lines); 2 bad command line or unreadable file.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "CLI/CLI.hpp"
#include "prelude_pch.hpp"
#include "translate.hpp"

namespace fs = std::filesystem;

namespace {

// <tascell/tascell.hpp>: next to an installed tascellc (bin/../include), or
// in the source tree this tascellc was built from.
std::string runtime_include(const char* argv0) {
  std::error_code ec;
  fs::path exe = fs::canonical("/proc/self/exe", ec);
  if (ec) exe = fs::absolute(argv0);
  fs::path installed = exe.parent_path().parent_path() / "include";
  if (fs::exists(installed / "tascell" / "tascell.hpp")) return installed.string();
  return TASCELL_SOURCE_RUNTIME_INCLUDE;
}

// The precompiled prelude: next to tascellc in a build tree, in
// lib/tascell/ of an installed one.
std::string prelude_pch_path(const std::string& exe) {
  fs::path bin = fs::path(exe).parent_path();
  fs::path here = bin / "tascellc-prelude.pch";
  std::error_code ec;
  if (fs::exists(here, ec)) return here.string();
  for (const char* lib : {"lib", "lib64", "lib/x86_64-linux-gnu"}) {
    fs::path installed = bin.parent_path() / lib / "tascell" / "tascellc-prelude.pch";
    if (fs::exists(installed, ec)) return installed.string();
  }
  return here.string();
}

std::string self(const char* argv0) {
  std::error_code ec;
  fs::path exe = fs::canonical("/proc/self/exe", ec);
  return ec ? fs::absolute(argv0).string() : exe.string();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tascellc: translates annotated C++ (.tcpp) into C++ on the Tascell++ runtime"};
  std::string input, output, header_dir;
  bool serial = false, eager = false, to_attributes = false;
  std::vector<std::string> clang_args;
  std::string write_pch;
  app.add_option("input", input, "the .tcpp file");
  app.add_option("--write-prelude-pch", write_pch,
                 "precompile what every translation parses first (<tascell/tascell.hpp>) into this file "
                 "(the build does, as tascellc-prelude.pch next to tascellc)");
  app.add_option("-o,--output", output, "where to write the C++ (default: standard output)");
  app.add_option("--header-dir", header_dir,
                 "where to write the translations of included user headers with @ markers");
  app.add_flag("--serial", serial, "erase the markers: the sequential program");
  app.add_flag("--eager", eager,
               "no lazy @task functions: every @dowork writes its spawn point (to compare; docs/language.md)");
  app.add_flag("--to-attributes", to_attributes,
               "write the program in the attribute spelling ([[tascell::task]], TASCELL_WIND, ...: standard C++; "
               "docs/language.md) instead of translating it");
  app.add_option("clang-args", clang_args, "flags for parsing (after --): -I, -D, -std, ...");
  app.positionals_at_end(false);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  tascell::translator::options opts;
  opts.serial = serial;
  opts.eager = eager;
  opts.to_attributes = to_attributes;
  opts.clang_args = clang_args;
  opts.runtime_include = runtime_include(argv[0]);
  opts.resource_dir = TASCELL_CLANG_RESOURCE_DIR;
  opts.header_dir = header_dir;
  if (!write_pch.empty()) {
    std::string err = tascell::translator::write_prelude_pch(opts, write_pch);
    if (!err.empty()) std::cerr << "tascellc: " << err << "\n";
    return err.empty() ? 0 : 1;
  }
  if (input.empty()) {
    std::cerr << "tascellc: no input file (tascellc FILE.tcpp [-o OUT.cpp]; --help)\n";
    return 2;
  }
  std::string exe = self(argv[0]);
  opts.prelude_pch = tascell::translator::usable_prelude_pch(prelude_pch_path(exe), exe, opts);

  std::ifstream in(input, std::ios::binary);
  if (!in) {
    std::cerr << "tascellc: cannot read " << input << "\n";
    return 2;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  std::string text = buf.str();

  auto r = tascell::translator::translate(input, text, opts);
  std::cerr << r.diagnostics;
  if (!r.ok) return 1;
  for (const auto& h : r.headers) {
    std::error_code ec;
    fs::create_directories(fs::path(h.path).parent_path(), ec);
    std::ofstream out(h.path, std::ios::binary);
    out << h.text;
    if (!out) {
      std::cerr << "tascellc: cannot write " << h.path << "\n";
      return 2;
    }
  }
  if (output.empty()) {
    std::cout << r.output;
  } else {
    std::ofstream out(output, std::ios::binary);
    out << r.output;
    if (!out) {
      std::cerr << "tascellc: cannot write " << output << "\n";
      return 2;
    }
  }
  return 0;
}
