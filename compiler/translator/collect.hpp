// Finding the constructs of a file in its AST: what to find. What to do with
// them is in the lower_*.cpp files.
#pragma once

#include "constructs.hpp"
#include "diagnostics.hpp"
#include "source.hpp"

namespace tascell::translator {

// Annotation names the marker macros produce (prelude.hpp).
inline constexpr const char* task_annotation = "tascell.task";
inline constexpr const char* shared_annotation = "tascell.shared";
inline constexpr const char* dowork_suppression = "tascell.dowork";
inline constexpr const char* wind_suppression = "tascell.wind";

bool is_task_function(const clang::FunctionDecl* f);

// Collects every construct of the main file; misplaced markers are reported.
constructs collect(const source& src, diagnostics& diag);

}  // namespace tascell::translator
