// tascell++: a C++ compiler driver for .tcpp files.
//
// Behaves like c++ (same flags, -c, -o, several inputs, .cpp inputs passed
// through, -fsanitize=... passed on): every .tcpp input, and every C++
// input in the attribute spelling ([[tascell::task]] ...), is translated by
// tascellc into <tmp>/<stem>.cpp (so `-c` still makes <stem>.o; the user
// headers with markers it includes into <tmp>/headers.<n>/), then the C++
// compiler ($TASCELL_CXX, else $CXX, else c++) runs with the runtime's include
// directory and, when it links, the runtime library. Exit status: the
// translator's or the compiler's.
//
// The translator's own options are taken here, not passed to the compiler:
//   --serial  the sequential program (the markers erased; no runtime, no MPI)
//   --eager   every @task function eager (no lazy frames)
//
// Translated files are compiled with -falign-functions=64 unless the
// command names an alignment of its own: every function then starts on a
// cache line, so where its loops fall within the lines depends on its own
// code only, not on what the linker put before it; and with
// -falign-loops=64 unless it names one, so that a loop starts on a line
// too, never where the function's prologue happens to end it (a stencil's
// block loop took 1.23-1.27 of the sequential program 32 bytes into a
// line, 0.98-0.99 aligned: docs/decisions.md, "Translated code starts on a
// cache line"). Plain C and C++ sources on the same command are
// compiled without them: the translated files are then compiled on their own.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct layout {
  fs::path tascellc, include, library;
};

// Installed: bin/tascell++ next to bin/tascellc, include/, lib/libtascell.a.
// Build tree: the paths this driver was built with.
layout find_layout() {
  std::error_code ec;
  fs::path exe = fs::canonical("/proc/self/exe", ec);
  fs::path bin = exe.parent_path(), prefix = bin.parent_path();
  layout l;
  if (fs::exists(prefix / "include" / "tascell" / "tascell.hpp") && fs::exists(bin / "tascellc")) {
    l.tascellc = bin / "tascellc";
    l.include = prefix / "include";
    for (const char* lib : {"lib", "lib64", "lib/x86_64-linux-gnu"})
      if (fs::exists(prefix / lib / "libtascell.a")) l.library = prefix / lib / "libtascell.a";
    return l;
  }
  l.tascellc = TASCELL_BUILD_TASCELLC;
  l.include = TASCELL_SOURCE_RUNTIME_INCLUDE;
  l.library = TASCELL_BUILD_LIBRARY;
  return l;
}

int run(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("tascell++: fork");
    return 2;
  }
  if (pid == 0) {
    execvp(argv[0], argv.data());
    std::cerr << "tascell++: cannot run " << args[0] << ": " << std::strerror(errno) << "\n";
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

bool ends_with(const std::string& s, const std::string& e) {
  return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

// Flags whose value is the next argument.
bool takes_value(const std::string& a) {
  for (const char* f : {"-o", "-I", "-D", "-U", "-include", "-isystem", "-iquote", "-idirafter", "-x", "-MF",
                        "-MT", "-MQ", "-L", "-Xlinker", "-Xpreprocessor", "-Xassembler", "-imacros"})
    if (a == f) return true;
  return false;
}

// A C or C++ source file the compiler compiles as it is.
bool plain_source(const std::string& a) {
  if (a.empty() || a[0] == '-') return false;
  for (const char* e : {".c", ".cc", ".cpp", ".cxx", ".c++", ".cp", ".C", ".CPP", ".ii", ".i"})
    if (ends_with(a, e)) return true;
  return false;
}

// A C++ source in the attribute spelling ([[tascell::task]],
// [[tascell::dowork]], [[tascell::shared(...)]], TASCELL_WIND): translated
// like a .tcpp file. A mention in a comment only costs a translation that
// changes nothing.
bool spells_constructs(const std::string& a) {
  if (a.empty() || a[0] == '-' || ends_with(a, ".c") || ends_with(a, ".i") || ends_with(a, ".ii")) return false;
  std::ifstream in(a, std::ios::binary);
  if (!in) return false;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* w : {"tascell::task", "tascell::dowork", "tascell::shared", "TASCELL_WIND"})
    if (text.find(w) != std::string::npos) return true;
  return false;
}

// A file tascellc translates.
bool translated_source(const std::string& a) {
  if (a.empty() || a[0] == '-') return false;
  return ends_with(a, ".tcpp") || (plain_source(a) && spells_constructs(a));
}

// Flags that only the link (or the whole command's outputs) takes: not
// given to the compilation of one translated file on its own.
bool link_or_output_flag(const std::string& a) {
  return a == "-c" || a == "-S" || a == "-E" || a == "-MD" || a == "-MMD" || a.rfind("-l", 0) == 0 ||
         a.rfind("-L", 0) == 0 || a.rfind("-Wl,", 0) == 0;
}
bool link_or_output_flag_with_value(const std::string& a) {
  return a == "-o" || a == "-MF" || a == "-MT" || a == "-MQ" || a == "-L" || a == "-Xlinker";
}

// Flags the translator must see to parse like the compiler does.
bool for_parsing(const std::string& a) {
  for (const char* p : {"-I", "-D", "-U", "-std=", "-include", "-isystem", "-iquote", "-idirafter", "-imacros"})
    if (a.rfind(p, 0) == 0) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  layout l = find_layout();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << "usage: tascell++ [--serial] [--eager] [c++ flags] file.tcpp... [-o out]\n";
    return 2;
  }
  bool link = true, has_std = false, has_align = false, has_loop_align = false;
  bool assemble_only = false, preprocess_only = false, plain_inputs = false;
  std::vector<std::string> parse_flags, translator_flags;
  bool serial = false;
  for (std::size_t i = 0; i < args.size();) {
    if (args[i] == "--serial" || args[i] == "--eager") {
      serial = serial || args[i] == "--serial";
      translator_flags.push_back(args[i]);
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-c" || a == "-S" || a == "-E" || a == "-fsyntax-only" || a == "-M" || a == "-MM") link = false;
    if (a == "-S") assemble_only = true;
    if (a == "-E" || a == "-fsyntax-only" || a == "-M" || a == "-MM") preprocess_only = true;
    if (plain_source(a) && !(i > 0 && takes_value(args[i - 1])) && !translated_source(a)) plain_inputs = true;
    if (a.rfind("-std=", 0) == 0) has_std = true;
    if (a.rfind("-falign-functions", 0) == 0 || a == "-fno-align-functions") has_align = true;
    if (a.rfind("-falign-loops", 0) == 0 || a == "-fno-align-loops") has_loop_align = true;
    if (for_parsing(a)) {
      parse_flags.push_back(a);
      if (takes_value(a) && i + 1 < args.size()) parse_flags.push_back(args[i + 1]);
    }
  }
  if (!has_std) parse_flags.push_back("-std=c++20");

  char tmpl[] = "/tmp/tascell++.XXXXXX";
  if (!mkdtemp(tmpl)) {
    std::perror("tascell++: mkdtemp");
    return 2;
  }
  fs::path tmp = tmpl;
  std::vector<std::string> cxx;
  const char* env = std::getenv("TASCELL_CXX");
  if (!env || !*env) env = std::getenv("CXX");
  cxx.push_back(env && *env ? env : "c++");
  if (!has_std) cxx.push_back("-std=c++20");
  // The sequential program uses no runtime: neither its headers (a program
  // may test for them with __has_include) nor its library.
  if (!serial) cxx.push_back("-I" + l.include.string());
  // The sequential program's tables save and load the same files: the file
  // format's header, by its path (the runtime's headers stay off the path,
  // so a program can tell a serial build by __has_include).
  if (serial) {
    cxx.push_back("-include");
    cxx.push_back((l.include / "tascell" / "table_file.hpp").string());
  }
  int rc = 0, units = 0;
  std::vector<std::size_t> translated;  // where the translated files are in cxx
  for (std::size_t i = 0; i < args.size() && rc == 0; ++i) {
    const std::string& a = args[i];
    if (takes_value(a) && i + 1 < args.size()) {
      cxx.push_back(a);
      cxx.push_back(args[++i]);
      continue;
    }
    if (translated_source(a)) {
      fs::path out = tmp / (fs::path(a).stem().string() + ".cpp");
      // The user headers it includes that have markers are translated under
      // a folder of its own (the translation of a header may depend on what
      // the file declares before including it); the translated file
      // includes them by absolute path.
      fs::path headers = tmp / ("headers." + std::to_string(units++));
      std::vector<std::string> t = {l.tascellc.string()};
      t.insert(t.end(), translator_flags.begin(), translator_flags.end());
      t.insert(t.end(), {a, "-o", out.string(), "--header-dir", headers.string()});
      if (!parse_flags.empty()) {
        t.push_back("--");
        t.insert(t.end(), parse_flags.begin(), parse_flags.end());
      }
      rc = run(t);
      translated.push_back(cxx.size());
      cxx.push_back(out.string());
      continue;
    }
    cxx.push_back(a);
  }
  std::vector<std::string> align;
  if (!serial && !has_align) align.push_back("-falign-functions=64");
  if (!serial && !has_loop_align) align.push_back("-falign-loops=64");
  if (rc == 0 && plain_inputs && !translated.empty() && !align.empty() && !preprocess_only) {
    // With plain sources on the same command, the translated files are
    // compiled on their own with the alignment flags (an object each, or
    // the .o/.s that -c/-S would leave), and the plain ones without them.
    std::vector<std::string> own = {cxx[0]};
    for (std::size_t j = 1; j < cxx.size(); ++j) {
      bool input = std::find(translated.begin(), translated.end(), j) != translated.end() || plain_source(cxx[j]);
      if (link_or_output_flag_with_value(cxx[j])) ++j;
      else if (!input && !link_or_output_flag(cxx[j]) && (cxx[j][0] == '-' || (j > 0 && takes_value(cxx[j - 1]))))
        own.push_back(cxx[j]);
    }
    for (std::size_t j = translated.size(); j-- > 0 && rc == 0;) {
      fs::path src = cxx[translated[j]];
      fs::path dest = link ? tmp / (src.stem().string() + "." + std::to_string(j) + ".o")
                           : fs::path(src.stem().string() + (assemble_only ? ".s" : ".o"));
      std::vector<std::string> c = own;
      c.insert(c.end(), align.begin(), align.end());
      c.insert(c.end(), {assemble_only ? "-S" : "-c", src.string(), "-o", dest.string()});
      rc = run(c);
      if (link) cxx[translated[j]] = dest.string();
      else cxx.erase(cxx.begin() + static_cast<std::ptrdiff_t>(translated[j]));
    }
    align.clear();
  }
  if (rc == 0) {
    cxx.insert(cxx.end(), align.begin(), align.end());
    if (link && serial) {
      // The sequential program needs no runtime: only the table files'
      // objects of the library (nothing else of it is linked in) and the
      // libraries they use.
      cxx.push_back(l.library.string());
      std::string libs = TASCELL_FILE_LIBRARIES;
      for (std::size_t b = 0; b < libs.size();) {
        std::size_t e = libs.find('|', b);
        if (e == std::string::npos) e = libs.size();
        if (e > b) cxx.push_back(libs.substr(b, e - b));
        b = e + 1;
      }
    }
    if (link && !serial) {
      cxx.push_back(l.library.string());
      // What the runtime needs: MPI (one message thread per process),
      // Boost.Context (fibers) and threads.
      std::string libs = TASCELL_RUNTIME_LIBRARIES;
      for (std::size_t b = 0; b < libs.size();) {
        std::size_t e = libs.find('|', b);
        if (e == std::string::npos) e = libs.size();
        if (e > b) cxx.push_back(libs.substr(b, e - b));
        b = e + 1;
      }
      cxx.push_back("-pthread");
    }
    rc = run(cxx);
  }
  std::error_code ec;
  fs::remove_all(tmp, ec);
  return rc;
}
