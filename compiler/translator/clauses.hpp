// The clauses of a @dowork, parsed from the text the pre-lexer recorded:
//   reduction(op: v, ...)  copy(p[lo:len], ...)  copyout(p[lo:len], ...)
//   shared(p, ...)  priority(expr)  if(expr)
#pragma once

#include <string>
#include <vector>

#include "diagnostics.hpp"

namespace tascell::translator {

struct array_section {
  std::string name, lo, len;
  source_pos at;
};

struct clause_list {
  struct reduction {
    std::string op;      // + * min max & | ^ && ||
    std::string var;
    source_pos at;
  };
  std::vector<reduction> reductions;
  std::vector<array_section> copies, copyouts;
  std::vector<array_section> shareds;  // lo/len empty
  std::string priority, condition;     // expressions, or empty
  source_pos priority_at, condition_at;
};

// Parses `text`, which starts at `at` in the user's file. Errors go to diag.
clause_list parse_clauses(const std::string& text, source_pos at, diagnostics& diag);

// Splits text at its top-level commas (not inside brackets or string and
// character literals); each piece is trimmed and keeps where it starts.
std::vector<std::pair<std::string, source_pos>> split_top_level(const std::string& text, source_pos at);

// The runtime's name for a reduction operator ("+" -> "tascell::op::plus"),
// or "" when it is not one.
std::string reduction_op_type(const std::string& op);

}  // namespace tascell::translator
