// Every name the translator gives what generated code declares, in one
// place. They begin with `_t` (or end in `__tascell_...`): a program that
// declares a name of that form may collide with them (docs/language.md,
// "Names translated code declares"). The golden files show each in use.
#pragma once

#include <cstddef>
#include <string>

namespace tascell::translator::names {

// ---- every @task function and piece
// The hidden context parameter (tascell::ctx) of @task functions and pieces.
inline const std::string ctx = "_tc";
// A @task function's body (it takes the context) and, for a lazy one, its
// resume function (lazy.hpp), beside the external entry of the user's name.
inline std::string body(const std::string& fn) { return fn + "__tascell_body"; }
inline std::string resume(const std::string& fn) { return fn + "__tascell_resume"; }
// The external entry's parameters, and what it keeps of a lazy body's
// result while it looks whether the body unwound.
inline std::string parameter(std::size_t i) { return "_tp" + std::to_string(i); }
inline const std::string result = "_tr";

// ---- pieces (parts and loop bodies)
// The iteration a @dowork for's body receives (its induction variable is
// computed from it).
inline const std::string iteration = "_ti";
// The iterations a block body runs (a leaf loop body written as a loop).
inline const std::string block = "_tblk";
// What a range loop (`@dowork for (auto& x : r)`) walks: r, bound once
// before the loop, and the piece's view of it.
inline const std::string range_of_loop = "_tro";
// *this as a piece receives it, its previous value (a part writing
// members), and the pointer the body uses for `this` (as long as `this`:
// the token is renamed in place, so columns stay).
inline const std::string self = "_tself";
inline const std::string self_in = "_tself_in";
inline const std::string this_pointer = "_tth";
// The copy of an output's previous value a part receives (tascell::in).
inline std::string input(const std::string& var) { return "_tin_" + var; }
// The pointer to a C array's elements a piece receives.
inline std::string array(const std::string& var) { return "_tarr_" + var; }

// ---- lazy frames (lower_lazy.cpp)
// The records a resume function rebuilds its frames from, and the place in
// a frame (site) it resumes at.
inline const std::string records = "_trec";
inline const std::string site = "_tsite";
// A saved reference (a pointer to what it refers to).
inline std::string reference(const std::string& var) { return "_tref_" + var; }
// A lazy @dowork for's range, as computed once (first, count, step), and
// the iteration its plain loop is at.
inline const std::string range = "_tr";
inline const std::string range_first = "_trf";
inline const std::string range_count = "_trn";
inline const std::string range_step = "_trs";
inline const std::string lazy_iteration = "_tk";
// What a check returned (1: the callee unwound; 2: this frame unwinds).
inline const std::string unwinding = "_tlz";
// A @dowork's if() condition, read once (resume point j).
inline std::string condition(std::size_t j) { return "_tw" + std::to_string(j); }
// In a resume function: the rebuilt eager @dowork (a lambda) and its first
// piece, and the loop of one turn that runs the rest of an iteration
// (level k of the path to the call).
inline const std::string rebuild = "_tgo";
inline const std::string first = "_tfirst";
inline std::string turn(std::size_t k) { return "_tb" + std::to_string(k); }

}  // namespace tascell::translator::names
