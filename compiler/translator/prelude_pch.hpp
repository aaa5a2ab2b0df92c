// The prelude precompiled: Clang reads <tascell/tascell.hpp> and what it
// includes (about 1.4 s of a translation) from a PCH written when tascellc
// is built, instead of parsing it for every file.
#pragma once

#include <string>
#include <vector>

namespace tascell::translator {

struct options;

// The arguments Clang parses a file with (before the file's name), the
// prelude not included: the language, the builtin and runtime headers, the
// user's flags.
std::vector<std::string> parse_args(const options& opts);

// Writes the prelude, parsed with opts' arguments, as a PCH at path
// (through a temporary file, so that a reader never sees half of one),
// and beside it PATH.for, the runtime include directory it was written for.
// Returns an empty string, or what went wrong.
std::string write_prelude_pch(const options& opts, const std::string& path);

// pch if a translation with these options may read it: it exists, was
// written for the same runtime include directory (PCH.for says which), is not
// older than tascellc (exe) nor than any file under the runtime's include
// directory, the user's flags change nothing it was written with (only
// -I, -isystem, -iquote, -idirafter and -std=c++20), and
// TASCELL_TRANSLATOR_PCH is not 0. Otherwise an empty string: the prelude
// is parsed.
std::string usable_prelude_pch(const std::string& pch, const std::string& exe, const options& opts);

}  // namespace tascell::translator
