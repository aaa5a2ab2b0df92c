// in(v) of a view: a std::span<E, Extent> or a std::basic_string_view<C, Tr>.
//
// In one process the piece gets the view as it is: the elements are not
// copied (they cannot change while the @dowork runs, docs/language.md), and
// the spawn point keeps the view by value, as in() keeps any small trivially
// copyable value. A piece that goes to another process carries the elements
// the view shows, not the view: the view's bytes are an address of this
// process (wire.hpp: holds_address, so no other clause, result or table can
// send them either). The thief's piece holds its own copy of the elements
// and a view of the same type over it. Elements that cannot travel make the
// work local_only.
//
// A non-const span is an input too: a thief in another process writes its
// own copy, and nothing of that comes back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "tascell/clauses.hpp"
#include "tascell/detail/macros.hpp"
#include "tascell/wire.hpp"

namespace tascell::detail {

template <class View>
struct view_in_traits {
  // What the view shows, and its elements as a thief's copy holds them.
  using pointer = decltype(std::declval<const View&>().data());
  using element = std::remove_cv_t<std::remove_pointer_t<pointer>>;
  static constexpr std::size_t extent = [] {
    if constexpr (requires { View::extent; }) return View::extent;
    else return std::dynamic_extent;
  }();

  static constexpr bool local_only = !portable_v<element>;
  using ref = View;
  // The view as its data and size: a span of static extent has no empty
  // state, and a task's stored values are default-constructed.
  struct stored {
    pointer data = nullptr;
    std::size_t size = 0;
    std::unique_ptr<element[]> copy;  // a thief in another process: the elements
  };
  struct target {};

  TASCELL_INLINE static View view(const stored& s) {
    if constexpr (extent == std::dynamic_extent) return View(s.data, s.size);
    else return View(s.data, extent);
  }
  TASCELL_INLINE static ref make_ref(const in_t<View>& c) { return c.v; }
  TASCELL_INLINE static ref ref_of(stored& s) { return view(s); }
  TASCELL_INLINE static void put(const ref& r, stored& s) {
    s.data = r.data();
    s.size = r.size();
  }
  TASCELL_INLINE static const View& param(const in_t<View>& c) { return c.v; }
  TASCELL_INLINE static View param(stored& s) { return view(s); }
  TASCELL_INLINE static target target_of(const in_t<View>&) { return {}; }
  TASCELL_INLINE static target target_of(stored&) { return {}; }
  TASCELL_INLINE static void merge(target, stored&, bool) {}

  static void pack_in(out_archive& a, stored& s) {
    a(static_cast<std::uint64_t>(s.size));
    if constexpr (bytes_portable_v<element>) {
      a(cereal::binary_data(const_cast<element*>(s.data), s.size * sizeof(element)));
    } else {
      for (std::size_t i = 0; i < s.size; ++i) save_value(a, s.data[i]);
    }
  }
  static void unpack_in(in_archive& a, stored& s) {
    std::uint64_t n = 0;
    a(n);
    if (extent != std::dynamic_extent && n != extent)
      throw cereal::Exception("a span of static extent " + std::to_string(extent) + " arrived with " +
                              std::to_string(n) + " elements");
    if (n > (std::uint64_t{1} << 40) / sizeof(element))
      throw cereal::Exception("a viewed range is impossibly long");
    s.copy = std::make_unique_for_overwrite<element[]>(n);
    if constexpr (bytes_portable_v<element>) {
      a(cereal::binary_data(s.copy.get(), n * sizeof(element)));
    } else {
      for (std::uint64_t i = 0; i < n; ++i) load_value(a, s.copy[i]);
    }
    s.data = s.copy.get();
    s.size = n;
  }
  static void pack_out(out_archive&, stored&) {}
  static void unpack_out(in_archive&, stored&) {}
};

template <class E, std::size_t N>
struct clause_traits<in_t<std::span<E, N>>> : view_in_traits<std::span<E, N>> {};
template <class C, class Tr>
struct clause_traits<in_t<std::basic_string_view<C, Tr>>> : view_in_traits<std::basic_string_view<C, Tr>> {};

}  // namespace tascell::detail
