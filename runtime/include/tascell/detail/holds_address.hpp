// Types whose bytes are, or hold, an address of this process: a pointer, a
// pointer to member, a view (std::span, std::basic_string_view), and arrays
// of these. Their bytes mean nothing in another process, so none of them
// travels as bytes (wire.hpp; tables, table.hpp). A view captured by in()
// travels as the elements it shows (views.hpp), a pointer to a function as
// the function's place (function_address.hpp).
//
// Only the types the runtime can recognise: a struct with a pointer member
// looks like any other trivially copyable struct here; the translator marks
// it (in_here.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <type_traits>

namespace tascell::detail {

template <class T>
struct holds_address : std::bool_constant<std::is_pointer_v<T> || std::is_member_pointer_v<T>> {};
template <class E, std::size_t N> struct holds_address<std::span<E, N>> : std::true_type {};
template <class C, class Tr> struct holds_address<std::basic_string_view<C, Tr>> : std::true_type {};
template <class T, std::size_t N> struct holds_address<T[N]> : holds_address<std::remove_cv_t<T>> {};
template <class T, std::size_t N> struct holds_address<std::array<T, N>> : holds_address<std::remove_cv_t<T>> {};

template <class T> inline constexpr bool holds_address_v = holds_address<std::remove_cv_t<T>>::value;

// True when T may travel as its bytes.
template <class T>
inline constexpr bool bytes_portable_v = std::is_trivially_copyable_v<T> && !holds_address_v<T>;

}  // namespace tascell::detail
