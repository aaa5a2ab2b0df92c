// The translator's pipeline: pre-lex, parse with Clang, find the constructs,
// check them, lower them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tascell::translator {

struct options {
  bool serial = false;                  // erase the markers: the sequential program
  bool eager = false;                   // no lazy @task functions: every @dowork writes its point
  bool to_attributes = false;           // write the program in the attribute spelling, not translated
  std::vector<std::string> clang_args;  // -I, -D, -std, ... for parsing
  std::string runtime_include;          // where <tascell/tascell.hpp> is
  std::string resource_dir;             // Clang's builtin headers
  // Where the translations of user headers with markers go (each at its
  // absolute path under it); empty: such a header is an error.
  std::string header_dir;
  // The prelude precompiled (prelude_pch.hpp), read instead of parsing it;
  // empty: it is parsed.
  std::string prelude_pch;
};

// A user header's translation: where it goes and what it holds.
struct header_output {
  std::string path;
  std::string text;
};

struct result {
  bool ok = false;
  std::string output;       // the C++ program (when ok)
  std::string diagnostics;  // our errors, as printed
  std::vector<header_output> headers;  // translated user headers (when ok)
};

result translate(const std::string& file, std::string_view original, const options& opts);

}  // namespace tascell::translator
