// read(x): an input read in place. The translator gives it for a variable
// that a @dowork's pieces only read and that is not small and trivially
// copyable (a std::vector, a std::string, a struct holding them, ...).
//
// In one process a piece reads the frame's variable itself, whoever runs
// it: nothing copies a vector of a million elements for each piece a
// worker takes. That is safe because nothing writes the variable while the
// @dowork runs: its parts and iterations do not (the translator refuses a
// write, or makes it an output, a reduction or a per-iteration write), the
// frame waits at the @dowork's join until every piece has finished, and a
// worker backtracking to give work from an older spawn point undoes only
// the winds of code newer than it, which no longer holds pieces of this
// @dowork (docs/decisions.md, "Inputs read in place"). A piece that goes to
// another process carries a copy of the value, as in(x) does.
#pragma once

#include <memory>
#include <type_traits>

#include "tascell/detail/macros.hpp"
#include "tascell/wire.hpp"

namespace tascell {

template <class T> struct read_t { const T& v; };
template <class T> read_t<T> read(const T& v) { return {v}; }

namespace detail {

template <class C> struct clause_traits;

template <class T> struct clause_traits<read_t<T>> {
  static constexpr bool local_only = !portable_v<T> || !std::is_default_constructible_v<T>;
  using ref = const T*;
  struct stored {
    const T* p = nullptr;
    std::unique_ptr<T> copy;  // a piece from another process: its value
  };
  struct target {};
  TASCELL_INLINE static ref make_ref(const read_t<T>& c) { return &c.v; }
  TASCELL_INLINE static ref ref_of(stored& s) { return s.p; }
  TASCELL_INLINE static void put(const ref& r, stored& s) { s.p = r; }
  TASCELL_INLINE static const T& param(const read_t<T>& c) { return c.v; }
  TASCELL_INLINE static const T& param(stored& s) { return *s.p; }
  TASCELL_INLINE static target target_of(const read_t<T>&) { return {}; }
  TASCELL_INLINE static target target_of(stored&) { return {}; }
  TASCELL_INLINE static void merge(target, stored&, bool) {}
  static void pack_in(out_archive& a, stored& s) { save_value(a, *s.p); }
  static void unpack_in(in_archive& a, stored& s) {
    if constexpr (std::is_default_constructible_v<T>) {
      s.copy = std::make_unique<T>();
      load_value(a, *s.copy);
      s.p = s.copy.get();
    }
  }
  static void pack_out(out_archive&, stored&) {}
  static void unpack_out(in_archive&, stored&) {}
};

}  // namespace detail
}  // namespace tascell
