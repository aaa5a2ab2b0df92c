// The one place the translator reports errors: `file:line:col: error: msg`,
// the source line and a caret, like a compiler. Notes follow their error.
#pragma once

#include <string>
#include <deque>
#include <string_view>
#include <vector>

namespace tascell::translator {

// A file diagnostics may be about: its name as printed, its original text.
struct source_file {
  std::string name;
  std::string_view original;
};

struct source_pos {
  unsigned line = 0, column = 0;       // 1-based
  const source_file* file = nullptr;  // null: the main file
};

class diagnostics {
 public:
  diagnostics(std::string file, std::string_view original);
  void error(source_pos at, const std::string& message);
  void note(source_pos at, const std::string& message);
  bool failed() const { return errors_ > 0; }
  int count() const { return errors_; }
  // Everything reported so far, as it is printed.
  const std::string& text() const { return out_; }
  // A file's record, kept for as long as the diagnostics (the first text
  // given for a name is the one shown).
  const source_file* file(const std::string& name, std::string_view original);

 private:
  void emit(const char* kind, source_pos at, const std::string& message);
  std::string file_;
  std::vector<std::string_view> lines_;
  std::deque<source_file> files_;
  std::string out_;
  int errors_ = 0;
};

}  // namespace tascell::translator
