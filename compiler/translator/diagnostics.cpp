#include "diagnostics.hpp"

namespace tascell::translator {

diagnostics::diagnostics(std::string file, std::string_view original) : file_(std::move(file)) {
  std::size_t start = 0;
  for (std::size_t i = 0; i <= original.size(); ++i) {
    if (i == original.size() || original[i] == '\n') {
      lines_.push_back(original.substr(start, i - start));
      start = i + 1;
    }
  }
}

void diagnostics::emit(const char* kind, source_pos at, const std::string& message) {
  out_ += file_ + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + kind +
          ": " + message + "\n";
  if (at.line >= 1 && at.line <= lines_.size()) {
    std::string_view l = lines_[at.line - 1];
    out_ += std::string(l) + "\n";
    std::string caret;
    for (unsigned c = 1; c < at.column && c - 1 < l.size(); ++c) caret += l[c - 1] == '\t' ? '\t' : ' ';
    out_ += caret + "^\n";
  }
}

void diagnostics::error(source_pos at, const std::string& message) {
  ++errors_;
  emit("error", at, message);
}

void diagnostics::note(source_pos at, const std::string& message) { emit("note", at, message); }

}  // namespace tascell::translator
