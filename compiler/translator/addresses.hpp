// Types whose values hold an address of this process, as the translator can
// see them (the runtime cannot look into a struct): a value of such a type
// means nothing in another process, and must not travel as its bytes
// (docs/language.md, "Several processes").
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Type.h"

namespace tascell::translator {

// Whether t is a trivially copyable class (a struct, a lambda's closure)
// with a member, a base or an array element, at any depth, that is a
// pointer, a reference or a pointer to member: a struct { long* p; }, a
// lambda capturing by reference or capturing a pointer. Such a value would
// be sent as bytes; the translator passes it as in_here (tascell/in_here.hpp).
// Not std::span and std::basic_string_view themselves, which the runtime
// rebuilds over a copy of what they view (tascell/views.hpp); dependent
// types are not known.
bool holds_address(clang::ASTContext& ctx, clang::QualType t);

// Whether what a value of t points to may be written through it: t is a
// class that holds_address, not a lambda's closure (a capture by
// reference is checked where the lambda writes it), with a pointer or a
// reference to something not const among its members at any depth (a
// std::vector<long>::iterator, a struct { long* p; }; not a const_iterator).
bool writable_through(clang::ASTContext& ctx, clang::QualType t);

}  // namespace tascell::translator
