// owned(a, scale, offset): the elements of `a` that the iterations of a
// @dowork for write, one element each (docs/language.md, "Per-iteration
// writes"). Iteration i owns a[scale * i + offset] (scale != 0), so no two
// iterations write the same element, and the translator emits this clause
// for `a[i] = ...`, `a[2*i + 1] = ...`, row i of a 2-D array, ... with no
// clause written by the user.
//
// In one process the body writes the elements in place: the piece receives
// a pointer to the container's elements, whoever runs it (no copy). A piece
// that goes to another process carries the elements its iterations own (so
// that an iteration may read its own element before it writes it; not when
// the body only assigns them, assigned_only), and its
// result carries them back, written into the container by the victim: the
// bytes sent are those of the elements the piece owns, never the whole
// container. The thief's copy is laid out as the container's indices from
// the lowest to the highest owned one, and the body gets a pointer that
// indexes it like the container (as copy() does).
//
// What `a` may be: a C array, a pointer, or a contiguous range
// (std::vector, std::array, std::span, std::string, ...): std::ranges::data.
#pragma once

#include <cstdint>
#include <memory>
#include <ranges>
#include <type_traits>

#include "tascell/wire.hpp"

namespace tascell {

template <class E> struct owned_t {
  E* base;
  std::int64_t scale, offset;
  bool carried = true;  // a thief gets the elements' values (the body may read them before it writes)
};

// owned(a, c, d, assigned_only): the body only assigns the elements it owns
// (a[i] = v) and never reads them, so a thief in another process gets none
// of their values, only their results come back.
struct assigned_only_t {};
inline constexpr assigned_only_t assigned_only{};

namespace detail {

template <class X> auto* elements_of(X& x) {
  if constexpr (std::is_pointer_v<std::remove_cvref_t<X>>) {
    return x;
  } else if constexpr (std::is_array_v<std::remove_cvref_t<X>>) {
    return &x[0];
  } else {
    static_assert(std::ranges::contiguous_range<X&>,
                  "a per-iteration write needs a C array, a pointer or a contiguous range (std::vector, "
                  "std::array, std::span, ...): its elements must be one block of memory");
    return std::ranges::data(x);
  }
}

}  // namespace detail

template <class X> auto owned(X&& x, std::int64_t scale, std::int64_t offset) {
  auto* p = detail::elements_of(x);
  using E = std::remove_pointer_t<decltype(p)>;
  static_assert(!std::is_const_v<E>, "a per-iteration write needs elements that can be written");
  return owned_t<E>{p, scale, offset};
}
template <class X> auto owned(X&& x, std::int64_t scale, std::int64_t offset, assigned_only_t) {
  auto o = owned(std::forward<X>(x), scale, offset);
  o.carried = false;
  return o;
}

namespace detail {

// The iterations of a loop piece: i = first + k * step for k in [lo, hi).
struct iteration_span {
  std::int64_t first, step, lo, hi;
  std::int64_t count() const { return hi - lo; }
  std::int64_t value(std::int64_t k) const { return first + k * step; }
};

template <class E> struct owned_stored {
  E* base = nullptr;  // indexes the container's elements (or the thief's copy of its own)
  std::int64_t scale = 1, offset = 0;
  bool carried = true;  // the elements' values go to a thief
  std::unique_ptr<E[]> copy;  // a thief in another process: its elements

  std::int64_t index(const iteration_span& r, std::int64_t k) const { return scale * r.value(k) + offset; }
  // The lowest and highest index the span owns.
  std::pair<std::int64_t, std::int64_t> bounds(const iteration_span& r) const {
    std::int64_t a = index(r, r.lo), b = index(r, r.hi - 1);
    return a <= b ? std::pair{a, b} : std::pair{b, a};
  }
  // The owned elements, in iteration order: as one block when they are
  // contiguous and can be copied as bytes.
  void save(out_archive& a, const iteration_span& r) const {
    if (r.count() <= 0) return;
    if constexpr (bytes_portable_v<E>) {
      if (scale * r.step == 1) {
        a(cereal::binary_data(base + index(r, r.lo), static_cast<std::size_t>(r.count()) * sizeof(E)));
        return;
      }
    }
    for (std::int64_t k = r.lo; k < r.hi; ++k) save_value(a, base[index(r, k)]);
  }
  void load(in_archive& a, const iteration_span& r) {
    if (r.count() <= 0) return;
    if constexpr (bytes_portable_v<E>) {
      if (scale * r.step == 1) {
        a(cereal::binary_data(base + index(r, r.lo), static_cast<std::size_t>(r.count()) * sizeof(E)));
        return;
      }
    }
    for (std::int64_t k = r.lo; k < r.hi; ++k) load_value(a, base[index(r, k)]);
  }
};

template <class C> struct clause_traits;

template <class E> struct clause_traits<owned_t<E>> {
  static constexpr bool local_only = !portable_v<E>;
  using ref = owned_t<E>;
  using stored = owned_stored<E>;
  struct target {};
  TASCELL_INLINE static ref make_ref(const owned_t<E>& c) { return c; }
  TASCELL_INLINE static ref ref_of(stored& s) { return {s.base, s.scale, s.offset, s.carried}; }
  TASCELL_INLINE static void put(const ref& r, stored& s) {
    s.base = r.base;
    s.scale = r.scale;
    s.offset = r.offset;
    s.carried = r.carried;
  }
  TASCELL_INLINE static E* param(const owned_t<E>& c) { return c.base; }
  TASCELL_INLINE static E* param(stored& s) { return s.base; }
  TASCELL_INLINE static target target_of(const owned_t<E>&) { return {}; }
  TASCELL_INLINE static target target_of(stored&) { return {}; }
  // In one process every piece wrote in place; from another process the
  // result was written in place when it arrived (unpack_out_range).
  TASCELL_INLINE static void merge(target, stored&, bool) {}

  // Between processes: only with the piece's iterations (loop_site).
  static void pack_in_range(out_archive& a, stored& s, const iteration_span& r) {
    a(s.scale, s.offset, s.carried);
    if (s.carried) s.save(a, r);
  }
  static void unpack_in_range(in_archive& a, stored& s, const iteration_span& r) {
    a(s.scale, s.offset, s.carried);
    if (s.scale == 0) throw cereal::Exception("a per-iteration write with scale 0");
    auto [lo, hi] = s.bounds(r);
    s.copy.reset(new E[static_cast<std::size_t>(hi - lo + 1)]());
    // Indexes the copy like the container: base[lo] is copy[0].
    s.base = s.copy.get() - lo;
    if (s.carried) s.load(a, r);
  }
  static void pack_out_range(out_archive& a, stored& s, const iteration_span& r) { s.save(a, r); }
  // The victim's task points at the container itself.
  static void unpack_out_range(in_archive& a, stored& s, const iteration_span& r) { s.load(a, r); }
};

}  // namespace detail
}  // namespace tascell
