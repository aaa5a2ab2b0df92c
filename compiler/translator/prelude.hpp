// What the translator puts in front of a pre-lexed .tcpp file when it parses
// it (never in its output): the marker macros the pre-lexer wrote, and the
// declarations that let calls written without the hidden context parse.
#pragma once

namespace tascell::translator {

inline constexpr const char* prelude_name = "/tascell-translator/prelude.hpp";

inline constexpr const char* prelude_text = R"(
#define _TCTK [[clang::annotate("tascell.task")]]
#define _TCDW(...) [[clang::suppress("tascell.dowork", #__VA_ARGS__)]]
#define _TCWD(...) [[clang::suppress("tascell.wind", #__VA_ARGS__)]]
#define _TCSHRD(...) [[clang::annotate("tascell.shared", #__VA_ARGS__)]]
#include <tascell/tascell.hpp>
namespace tascell {
void cancel();
bool cancelled();
template <class T, class U> bool improve(T& best, const U& v);
template <class T, class U> bool improve_min(T& best, const U& v);
template <class T, class U> bool improve_max(T& best, const U& v);
}
)";

}  // namespace tascell::translator
