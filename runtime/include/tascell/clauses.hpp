// Clauses: how a piece of work sees the variables of the frame it came from.
//
//   in(x)              read only: the piece receives a copy (docs/language.md "input");
//                      of a std::span or std::string_view, the view as it is in one
//                      process, a copy of what it shows in another (views.hpp)
//   in_here(x)         in(x) of a type holding an address: travels only by its
//                      serialize, else stays in its process (in_here.hpp)
//   out(x)             written by exactly one part: copied back at the join
//   reduce<op>(x)      each piece accumulates into its own copy, starting
//                      from the identity; combined into x at the join
//   reduce_with(x, identity, f)   the same with a user function
//   copy(p, lo, len)   the piece gets its own copy of p[lo, lo+len) as it is
//                      when the work is given away; p points into that copy
//   copyout(p, lo, len)  as copy, and the elements the piece changed are
//                      copied back at the join
//   shared(p)          the pointer is passed as is (this process only)
//
// The body of a part or loop receives one parameter per clause, in order:
// `const T&` for in, `T&` for out and reductions, `T*` for the pointers. On
// the worker that owns the frame these refer to the frame's own variables; on
// a worker that received the work they refer to the piece's copies.
//
// Every clause type C has a `clause_traits<C>` with:
//   ref     what the spawn point keeps so the work can be packed later (put)
//   stored  what a task carries
//   target  what a join merges into
// and the functions between them; and, unless local_only, how the stored
// values travel between processes: pack_in/unpack_in (what a thief needs)
// and pack_out/unpack_out (what comes back). Inputs that are small and trivially
// copyable are kept in the point by value: docs/language.md forbids writing them
// while the @dowork runs, so the value at the spawn point is the value at the
// hand-over, and the variable can stay in a register.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

#include "tascell/detail/line_allocator.hpp"
#include "tascell/detail/macros.hpp"
#include "tascell/reduction.hpp"
#include "tascell/wire.hpp"

namespace tascell {

template <class T> struct in_t { const T& v; };
template <class T> struct out_t { T& v; };
template <class Op, class T> struct reduce_t { T& v; };
template <class T, class F> struct reduce_with_t { T& v; T identity; F fn; };
template <class T> struct copy_t { T* p; std::int64_t lo, len; };
template <class T> struct copyout_t { T* p; std::int64_t lo, len; };
template <class T> struct shared_t { T* p; };

template <class T> in_t<T> in(const T& v) { return {v}; }
template <class T> out_t<T> out(T& v) { return {v}; }
template <class Op, class T> reduce_t<Op, T> reduce(T& v) { return {v}; }
template <class T, class F> reduce_with_t<T, F> reduce_with(T& v, T identity, F fn) {
  return {v, std::move(identity), std::move(fn)};
}
template <class T> copy_t<T> copy(T* p, std::int64_t lo, std::int64_t len) { return {p, lo, len}; }
template <class T> copyout_t<T> copyout(T* p, std::int64_t lo, std::int64_t len) {
  return {p, lo, len};
}
template <class T> shared_t<T> shared(T* p) { return {p}; }

namespace detail {

template <class C> struct clause_traits;

template <class T> struct clause_traits<in_t<T>> {
  // A type that cannot be made empty and assigned (a lambda that captures)
  // is kept in a std::optional, made when the piece is.
  static constexpr bool plain = std::is_default_constructible_v<T> && std::is_copy_assignable_v<T>;
  static constexpr bool by_value = plain && std::is_trivially_copyable_v<T> && sizeof(T) <= 16;
  static constexpr bool local_only = !portable_v<T> || (!plain && !std::is_trivially_copyable_v<T>);
  using ref = std::conditional_t<by_value, T, const T*>;
  using stored = std::conditional_t<plain, T, std::optional<T>>;
  struct target {};
  TASCELL_INLINE static const T& value(const stored& s) {
    if constexpr (plain) return s; else return *s;
  }
  TASCELL_INLINE static ref make_ref(const in_t<T>& c) {
    if constexpr (by_value) return c.v; else return &c.v;
  }
  TASCELL_INLINE static ref ref_of(stored& s) {
    if constexpr (by_value) return s; else return &value(s);
  }
  TASCELL_INLINE static void put(const ref& r, stored& s) {
    if constexpr (by_value) s = r;
    else if constexpr (plain) s = *r;
    else s.emplace(*r);
  }
  TASCELL_INLINE static const T& param(const in_t<T>& c) { return c.v; }
  TASCELL_INLINE static const T& param(stored& s) { return value(s); }
  TASCELL_INLINE static target target_of(const in_t<T>&) { return {}; }
  TASCELL_INLINE static target target_of(stored&) { return {}; }
  TASCELL_INLINE static void merge(target, stored&, bool) {}
  static void pack_in(out_archive& a, stored& s) { save_value(a, value(s)); }
  static void unpack_in(in_archive& a, stored& s) {
    if constexpr (plain) {
      load_value(a, s);
    } else if constexpr (std::is_trivially_copyable_v<T>) {
      // Made from its bytes: it has no default constructor to load into.
      alignas(T) std::byte bytes[sizeof(T)];
      a(cereal::binary_data(bytes, sizeof(T)));
      s.emplace(std::bit_cast<T>(bytes));
    }
  }
  static void pack_out(out_archive&, stored&) {}
  static void unpack_out(in_archive&, stored&) {}
};

template <class T> struct clause_traits<out_t<T>> {
  static_assert(std::is_default_constructible_v<T>, "out(x): x's type must be default-constructible");
  static constexpr bool local_only = !portable_v<T>;
  struct ref {};
  using stored = T;
  using target = T*;
  TASCELL_INLINE static ref make_ref(const out_t<T>&) { return {}; }
  TASCELL_INLINE static ref ref_of(stored&) { return {}; }
  TASCELL_INLINE static void put(const ref&, stored&) {}
  TASCELL_INLINE static T& param(const out_t<T>& c) { return c.v; }
  TASCELL_INLINE static T& param(stored& s) { return s; }
  TASCELL_INLINE static target target_of(const out_t<T>& c) { return &c.v; }
  TASCELL_INLINE static target target_of(stored& s) { return &s; }
  // An output is copied back only if its part finished.
  TASCELL_INLINE static void merge(target t, stored& s, bool completed) {
    if (completed) *t = std::move(s);
  }
  static void pack_in(out_archive&, stored&) {}
  static void unpack_in(in_archive&, stored&) {}
  static void pack_out(out_archive& a, stored& s) { save_value(a, s); }
  static void unpack_out(in_archive& a, stored& s) { load_value(a, s); }
};

template <class Op, class T> struct clause_traits<reduce_t<Op, T>> {
  static constexpr bool local_only = !portable_v<T>;
  struct ref {};
  using stored = T;
  using target = T*;
  TASCELL_INLINE static ref make_ref(const reduce_t<Op, T>&) { return {}; }
  TASCELL_INLINE static ref ref_of(stored&) { return {}; }
  TASCELL_INLINE static void put(const ref&, stored& s) { s = Op::template identity<T>(); }
  TASCELL_INLINE static T& param(const reduce_t<Op, T>& c) { return c.v; }
  TASCELL_INLINE static T& param(stored& s) { return s; }
  TASCELL_INLINE static target target_of(const reduce_t<Op, T>& c) { return &c.v; }
  TASCELL_INLINE static target target_of(stored& s) { return &s; }
  // Every update that completed counts, also from a piece that was stopped.
  TASCELL_INLINE static void merge(target t, stored& s, bool) { *t = Op::template combine<T>(*t, s); }
  static void pack_in(out_archive&, stored&) {}
  static void unpack_in(in_archive&, stored& s) { s = Op::template identity<T>(); }
  static void pack_out(out_archive& a, stored& s) { save_value(a, s); }
  static void unpack_out(in_archive& a, stored& s) { load_value(a, s); }
};

// Local only: a piece refers to the owner's clause for the identity and the
// combining function.
template <class T, class F> struct clause_traits<reduce_with_t<T, F>> {
  static constexpr bool local_only = true;
  struct ref { const reduce_with_t<T, F>* c; };
  struct stored {
    T v{};
    const reduce_with_t<T, F>* c = nullptr;
  };
  struct target { T* v; const reduce_with_t<T, F>* c; };
  TASCELL_INLINE static ref make_ref(const reduce_with_t<T, F>& c) { return {&c}; }
  TASCELL_INLINE static ref ref_of(stored& s) { return {s.c}; }
  TASCELL_INLINE static void put(const ref& r, stored& s) { s.v = r.c->identity; s.c = r.c; }
  TASCELL_INLINE static T& param(const reduce_with_t<T, F>& c) { return c.v; }
  TASCELL_INLINE static T& param(stored& s) { return s.v; }
  TASCELL_INLINE static target target_of(const reduce_with_t<T, F>& c) { return {&c.v, &c}; }
  TASCELL_INLINE static target target_of(stored& s) { return {&s.v, s.c}; }
  TASCELL_INLINE static void merge(target t, stored& s, bool) { *t.v = t.c->fn(*t.v, s.v); }
};

template <class T> struct copy_ref { T* p; std::int64_t lo, len; };

template <class T> struct copy_stored {
  // The piece's range, written by the thief: in lines of its own
  // (detail::line_allocator).
  std::vector<std::remove_const_t<T>, detail::line_allocator<std::remove_const_t<T>>> buf;
  std::vector<std::remove_const_t<T>> orig;  // copyout only: the elements as received
  std::int64_t lo = 0, len = 0;
  // p as the body sees it: p[lo, lo+len) is buf.
  T* p() { return buf.data() - lo; }

  template <class V>
  static void save_elements(out_archive& a, const V& v) {
    using E = std::remove_const_t<T>;
    a(static_cast<std::uint64_t>(v.size()));
    if constexpr (bytes_portable_v<E>) {
      a(cereal::binary_data(const_cast<E*>(v.data()), v.size() * sizeof(E)));
    } else {
      for (const E& e : v) save_value(a, e);
    }
  }
  // Reads a range written by save_elements; `expected` is its known length,
  // or -1 when the archive says it.
  template <class V>
  static void load_elements(in_archive& a, V& v, std::int64_t expected) {
    using E = std::remove_const_t<T>;
    std::uint64_t n = 0;
    a(n);
    if (expected >= 0 && n != static_cast<std::uint64_t>(expected))
      throw cereal::Exception("a copied range has the wrong length");
    if (n > (std::uint64_t{1} << 40) / (sizeof(E) ? sizeof(E) : 1))
      throw cereal::Exception("a copied range is impossibly long");
    v.resize(n);
    if constexpr (bytes_portable_v<E>) {
      a(cereal::binary_data(v.data(), n * sizeof(E)));
    } else {
      for (E& e : v) load_value(a, e);
    }
  }
  void pack_range(out_archive& a) {
    a(lo);
    save_elements(a, buf);
  }
  void unpack_range(in_archive& a) {
    a(lo);
    load_elements(a, buf, -1);
    len = static_cast<std::int64_t>(buf.size());
  }
};

template <class T> struct clause_traits<copy_t<T>> {
  static constexpr bool local_only = !portable_v<std::remove_const_t<T>>;
  using ref = copy_ref<T>;
  using stored = copy_stored<T>;
  struct target {};
  TASCELL_INLINE static ref make_ref(const copy_t<T>& c) { return {c.p, c.lo, c.len}; }
  TASCELL_INLINE static ref ref_of(stored& s) { return {s.p(), s.lo, s.len}; }
  TASCELL_INLINE static void put(const ref& r, stored& s) {
    s.buf.assign(r.p + r.lo, r.p + r.lo + r.len);
    s.lo = r.lo;
    s.len = r.len;
  }
  TASCELL_INLINE static T* param(const copy_t<T>& c) { return c.p; }
  TASCELL_INLINE static T* param(stored& s) { return s.p(); }
  TASCELL_INLINE static target target_of(const copy_t<T>&) { return {}; }
  TASCELL_INLINE static target target_of(stored&) { return {}; }
  TASCELL_INLINE static void merge(target, stored&, bool) {}
  static void pack_in(out_archive& a, stored& s) { s.pack_range(a); }
  static void unpack_in(in_archive& a, stored& s) { s.unpack_range(a); }
  static void pack_out(out_archive&, stored&) {}
  static void unpack_out(in_archive&, stored&) {}
};

template <class T> struct clause_traits<copyout_t<T>> {
  static constexpr bool local_only = !portable_v<std::remove_const_t<T>>;
  using ref = copy_ref<T>;
  using stored = copy_stored<T>;
  using target = T*;
  TASCELL_INLINE static ref make_ref(const copyout_t<T>& c) { return {c.p, c.lo, c.len}; }
  TASCELL_INLINE static ref ref_of(stored& s) { return {s.p(), s.lo, s.len}; }
  TASCELL_INLINE static void put(const ref& r, stored& s) {
    clause_traits<copy_t<T>>::put(r, s);
    s.orig.assign(s.buf.begin(), s.buf.end());
  }
  TASCELL_INLINE static T* param(const copyout_t<T>& c) { return c.p; }
  TASCELL_INLINE static T* param(stored& s) { return s.p(); }
  TASCELL_INLINE static target target_of(const copyout_t<T>& c) { return c.p; }
  TASCELL_INLINE static target target_of(stored& s) { return s.p(); }
  // Only the elements the piece changed go back: pieces of one loop share a
  // copyout range but write disjoint elements (docs/language.md), so an element
  // a piece left alone may meanwhile have been written by another piece.
  TASCELL_INLINE static void merge(target t, stored& s, bool) {
    for (std::size_t i = 0; i < s.buf.size(); ++i)
      if (!same(s.buf[i], s.orig[i])) t[s.lo + static_cast<std::int64_t>(i)] = s.buf[i];
  }
  TASCELL_INLINE static bool same(const T& a, const T& b) {
    if constexpr (std::is_trivially_copyable_v<T>) return std::memcmp(&a, &b, sizeof(T)) == 0;
    else return a == b;
  }
  static void pack_in(out_archive& a, stored& s) { s.pack_range(a); }
  static void unpack_in(in_archive& a, stored& s) {
    s.unpack_range(a);
    s.orig.assign(s.buf.begin(), s.buf.end());
  }
  // The victim's task already holds the range and its original elements.
  static void pack_out(out_archive& a, stored& s) { stored::save_elements(a, s.buf); }
  static void unpack_out(in_archive& a, stored& s) { stored::load_elements(a, s.buf, s.len); }
};

template <class T> struct clause_traits<shared_t<T>> {
  static constexpr bool local_only = true;
  using ref = T*;
  using stored = T*;
  struct target {};
  TASCELL_INLINE static ref make_ref(const shared_t<T>& c) { return c.p; }
  TASCELL_INLINE static ref ref_of(stored& s) { return s; }
  TASCELL_INLINE static void put(const ref& r, stored& s) { s = r; }
  TASCELL_INLINE static T* param(const shared_t<T>& c) { return c.p; }
  TASCELL_INLINE static T* param(stored& s) { return s; }
  TASCELL_INLINE static target target_of(const shared_t<T>&) { return {}; }
  TASCELL_INLINE static target target_of(stored&) { return {}; }
  TASCELL_INLINE static void merge(target, stored&, bool) {}
};

template <class C> using traits_of = clause_traits<std::remove_cvref_t<C>>;

}  // namespace detail
}  // namespace tascell

// The clauses of their own headers (which include this one).
#include "tascell/in_here.hpp"
#include "tascell/views.hpp"
