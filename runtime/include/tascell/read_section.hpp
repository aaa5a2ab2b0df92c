// read_section(a, scale, {offsets...}): the elements of `a` that the
// iterations of a @dowork for read, by their index: iteration i reads
// a[scale * i + d] for each d of the offsets (a stencil's in[i - 1], in[i],
// in[i + 1]: scale 1, offsets -1, 0, 1). The translator gives it for a
// container every use of which in the loop body is such a read, with no
// clause written by the user.
//
// In one process the body reads the elements in place, whoever runs it
// (no copy; as read() does). A piece that goes to another process carries
// only the elements its iterations read, from the lowest index to the
// highest (its own range and the halo the offsets add), and nothing comes
// back: the bytes sent are about those of its iterations, never the whole
// container. The body gets a pointer that indexes the elements like the
// container (as owned() does).
//
// What `a` may be: a C array or a contiguous sized range (std::vector,
// std::array, std::span, std::string, ...). Indices outside the container
// (which the sequential program would not read either) are not sent.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <ranges>
#include <type_traits>

#include "tascell/owned.hpp"
#include "tascell/wire.hpp"

namespace tascell {

template <class E> struct read_section_t {
  const E* base;
  std::int64_t size;  // the container's elements: [0, size)
  std::int64_t scale, lo, hi;  // iteration i reads [scale * i + lo, scale * i + hi]
};

template <class X> auto read_section(const X& x, std::int64_t scale, std::initializer_list<std::int64_t> offsets) {
  const auto* p = detail::elements_of(x);
  using E = std::remove_cv_t<std::remove_pointer_t<decltype(p)>>;
  std::int64_t n;
  if constexpr (std::is_array_v<std::remove_cvref_t<X>>) n = static_cast<std::int64_t>(std::extent_v<std::remove_cvref_t<X>>);
  else n = static_cast<std::int64_t>(std::ranges::size(x));
  return read_section_t<E>{p, n, scale, std::min(offsets), std::max(offsets)};
}

namespace detail {

template <class E> struct read_section_stored {
  const E* base = nullptr;  // indexes the container's elements (or a thief's copy of those it reads)
  std::int64_t size = 0, scale = 1, lo = 0, hi = 0;
  std::unique_ptr<E[]> copy;  // a thief in another process: its elements

  // The indices the iterations r read, within the container: [first, last]
  // (first > last: none).
  std::pair<std::int64_t, std::int64_t> bounds(const iteration_span& r) const {
    if (r.count() <= 0) return {0, -1};
    std::int64_t a = scale * r.value(r.lo), b = scale * r.value(r.hi - 1);
    if (a > b) std::swap(a, b);
    return {std::max<std::int64_t>(a + lo, 0), std::min(b + hi, size - 1)};
  }
};

template <class C> struct clause_traits;

template <class E> struct clause_traits<read_section_t<E>> {
  static constexpr bool local_only = !portable_v<E> || !std::is_default_constructible_v<E>;
  using ref = read_section_t<E>;
  using stored = read_section_stored<E>;
  struct target {};
  TASCELL_INLINE static ref make_ref(const read_section_t<E>& c) { return c; }
  TASCELL_INLINE static ref ref_of(stored& s) { return {s.base, s.size, s.scale, s.lo, s.hi}; }
  TASCELL_INLINE static void put(const ref& r, stored& s) {
    s.base = r.base;
    s.size = r.size;
    s.scale = r.scale;
    s.lo = r.lo;
    s.hi = r.hi;
  }
  TASCELL_INLINE static const E* param(const read_section_t<E>& c) { return c.base; }
  TASCELL_INLINE static const E* param(stored& s) { return s.base; }
  TASCELL_INLINE static target target_of(const read_section_t<E>&) { return {}; }
  TASCELL_INLINE static target target_of(stored&) { return {}; }
  TASCELL_INLINE static void merge(target, stored&, bool) {}

  // Between processes: only with the piece's iterations (loop_site).
  static void pack_in_range(out_archive& a, stored& s, const iteration_span& r) {
    auto [first, last] = s.bounds(r);
    a(s.size, s.scale, s.lo, s.hi, first, last);
    if (first > last) return;
    std::size_t n = static_cast<std::size_t>(last - first + 1);
    if constexpr (bytes_portable_v<E>) {
      a(cereal::binary_data(s.base + first, n * sizeof(E)));
    } else {
      for (std::int64_t k = first; k <= last; ++k) save_value(a, s.base[k]);
    }
  }
  static void unpack_in_range(in_archive& a, stored& s, const iteration_span&) {
    std::int64_t first = 0, last = -1;
    a(s.size, s.scale, s.lo, s.hi, first, last);
    if (first > last) return;
    if (first < 0 || last >= s.size) throw cereal::Exception("read_section: elements out of the container's range");
    std::size_t n = static_cast<std::size_t>(last - first + 1);
    if constexpr (bytes_portable_v<E>) {
      s.copy = std::make_unique_for_overwrite<E[]>(n);  // every byte is read next
      a(cereal::binary_data(s.copy.get(), n * sizeof(E)));
    } else {
      s.copy.reset(new E[n]());
      for (std::size_t k = 0; k < n; ++k) load_value(a, s.copy[k]);
    }
    // Indexes the copy like the container: base[first] is copy[0].
    s.base = s.copy.get() - first;
  }
  static void pack_out_range(out_archive&, stored&, const iteration_span&) {}
  static void unpack_out_range(in_archive&, stored&, const iteration_span&) {}
};

}  // namespace detail
}  // namespace tascell
