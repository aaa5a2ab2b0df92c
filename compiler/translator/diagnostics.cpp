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

const source_file* diagnostics::file(const std::string& name, std::string_view original) {
  for (const auto& f : files_)
    if (f.name == name) return &f;
  files_.push_back({name, original});
  return &files_.back();
}

void diagnostics::emit(const char* kind, source_pos at, const std::string& message) {
  if (at.file) {
    // Another file than the main one: its line, found in its text.
    std::string_view t = at.file->original;
    std::size_t b = 0;
    for (unsigned n = 1; n < at.line && b != std::string_view::npos; ++n) {
      b = t.find('\n', b);
      if (b != std::string_view::npos) ++b;
    }
    out_ += at.file->name + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + kind + ": " +
            message + "\n";
    if (b == std::string_view::npos || at.line == 0) return;
    std::string_view l = t.substr(b, t.find('\n', b) == std::string_view::npos ? std::string_view::npos
                                                                              : t.find('\n', b) - b);
    out_ += std::string(l) + "\n";
    std::string caret;
    for (unsigned c = 1; c < at.column && c - 1 < l.size(); ++c) caret += l[c - 1] == '\t' ? '\t' : ' ';
    out_ += caret + "^\n";
    return;
  }
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
