// tascellc --to-attributes: a program's @ spelling rewritten into the
// attribute spelling (docs/language.md, "The attribute spelling"), the
// rest of its text, formatting and comments kept as they are.
#pragma once

#include <string>
#include <string_view>

#include "constructs.hpp"
#include "prelex.hpp"
#include "source.hpp"

namespace tascell::translator {

// `original`: the file as written; `pre`: what the pre-lexer made of it;
// `found`: its constructs (for the incumbents that tascell::improve
// improves, whose direction the call must name in this spelling).
std::string to_attributes(std::string_view original, const prelex::result& pre, const source& src,
                          const constructs& found);

// The clause list of an @dowork as the attribute's argument: clauses that
// only blanks separate get a comma ("reduction(+: s) copy(a[0:n])" ->
// "reduction(+: s), copy(a[0:n])").
std::string clauses_with_commas(std::string_view clauses);

}  // namespace tascell::translator
