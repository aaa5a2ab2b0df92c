// in_here(x): an input whose type holds an address of this process: a
// struct with a pointer or reference member (`struct S { long* p; long n; }`),
// a lambda capturing by reference. Such a type is trivially copyable, and
// in(x) would send its bytes to another process, where the address means
// nothing; the runtime cannot see the members, the translator can, and it
// emits in_here for these types in place of in.
//
// In one process it is in(x). Between processes the value travels only
// through the cereal serialize (or save/load) its type was given, which
// knows what the address stands for; without one the work of its @dowork
// stays in its process (local_only). Its bytes never travel.
#pragma once

#include "tascell/clauses.hpp"
#include "tascell/detail/macros.hpp"
#include "tascell/wire.hpp"

namespace tascell {

template <class T> struct in_here_t { const T& v; };

template <class T> in_here_t<T> in_here(const T& v) { return {v}; }

namespace detail {

template <class T> struct clause_traits<in_here_t<T>> : clause_traits<in_t<T>> {
  using base = clause_traits<in_t<T>>;
  using typename base::ref;
  using typename base::stored;
  using typename base::target;
  static constexpr bool local_only = !serializable_v<T>;

  using base::make_ref;
  using base::param;
  using base::target_of;
  TASCELL_INLINE static ref make_ref(const in_here_t<T>& c) { return base::make_ref(in_t<T>{c.v}); }
  TASCELL_INLINE static decltype(auto) param(const in_here_t<T>& c) { return base::param(in_t<T>{c.v}); }
  TASCELL_INLINE static target target_of(const in_here_t<T>&) { return {}; }
  // Through the type's own serialize.
  static void pack_in(out_archive& a, stored& s) { a(s); }
  static void unpack_in(in_archive& a, stored& s) { a(s); }
};

}  // namespace detail
}  // namespace tascell
