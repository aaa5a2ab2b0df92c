// Edits of the pre-lexed text: insertions and replacements at fixed offsets.
// Lowering never re-emits a user's statement: it wraps it, so every user line
// stays on its own line in the output and edits of nested constructs never
// overlap. At one offset, closing text of deeper constructs comes first, then
// replacements, then opening text of shallower constructs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tascell::translator {

class edit_list {
 public:
  enum class kind { close, open };  // a replacement is ordered like an opening
  void insert_open(std::size_t at, std::string text, int depth) {
    edits_.push_back({at, 0, std::move(text), kind::open, depth});
  }
  void insert_close(std::size_t at, std::string text, int depth) {
    edits_.push_back({at, 0, std::move(text), kind::close, depth});
  }
  // Replaces [at, at+len). Newlines of the replaced text that the new text
  // lacks are added after it, so the line structure does not change. It is
  // ordered like an opening at `depth`.
  void replace(std::size_t at, std::size_t len, std::string text, int depth) {
    edits_.push_back({at, len, std::move(text), kind::open, depth});
  }
  std::string apply(std::string_view text) const;
  // The span [b, e) of the text with the edits inside it applied: at b the
  // openings and replacements, at e the closings (what wraps the span's
  // own statements, not what ends or starts a construct around it).
  std::string apply(std::string_view text, std::size_t b, std::size_t e) const;

 private:
  struct edit {
    std::size_t at, len;
    std::string text;
    kind k;
    int depth;
  };
  std::string apply(std::string_view text, std::size_t b, std::size_t e, bool whole) const;
  std::vector<edit> edits_;
};

}  // namespace tascell::translator
