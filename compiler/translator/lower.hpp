// Lowering: turning each construct into calls of the runtime API (or, with
// --serial, erasing it). One function per construct; they only add edits.
#pragma once

#include <set>
#include <string>

#include "clauses.hpp"
#include "constructs.hpp"
#include "diagnostics.hpp"
#include "edits.hpp"
#include "source.hpp"

namespace tascell::translator {

// The name of the hidden context parameter in generated code.
inline constexpr const char* ctx_name = "_tc";

struct lowering {
  const source& src;
  diagnostics& diag;
  edit_list& edits;
  bool serial;
  // Offsets where a use of `this` has been rewritten for a piece (nested
  // @dowork statements find the same uses).
  std::set<std::size_t> this_rewritten = {};

  // The type of a captured variable as a piece receives it (references
  // dropped: a reference is captured as a copy of what it refers to).
  std::string value_type(const clang::VarDecl* v) const;
  // Blanks the marker's macro call (its newlines stay).
  void erase_marker(const marker_site& m, int depth) const;
  source_pos marker_pos(const marker_site& m) const { return src.pos(m.begin); }

};

void lower_task_function(lowering& l, const task_function& f);
void lower_task_call(lowering& l, const task_call& c);
void lower_runtime_call(lowering& l, const runtime_call& c, const constructs& all);
void lower_dowork(lowering& l, const dowork_site& d, const constructs& all);
void lower_wind(lowering& l, const wind_site& w, const constructs& all);
void lower_shared(lowering& l, shared_var& v);

}  // namespace tascell::translator
