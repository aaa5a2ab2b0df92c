// A loop piece's clause between processes, simulated in one: what
// pack_in_range writes for the iterations r, and what unpack_in_range makes
// of it on the thief's side (read_section_test, owned_test).
#pragma once

#include <sstream>
#include <string>

#include <tascell/tascell.hpp>

namespace tascell_test {

// The stored values of `clause` as its owner puts them at the spawn point.
template <class C>
typename tascell::detail::traits_of<C>::stored stored_of(const C& clause) {
  using tr = tascell::detail::traits_of<C>;
  typename tr::stored s{};
  tr::put(tr::make_ref(clause), s);
  return s;
}

// The bytes a piece over r carries of s, and the thief's stored values made
// from them.
template <class C>
std::string pack_range(typename tascell::detail::traits_of<C>::stored& s, const tascell::detail::iteration_span& r) {
  std::ostringstream os;
  {
    tascell::out_archive a(os);
    tascell::detail::traits_of<C>::pack_in_range(a, s, r);
  }
  return os.str();
}
template <class C>
typename tascell::detail::traits_of<C>::stored unpack_range(const std::string& bytes,
                                                             const tascell::detail::iteration_span& r) {
  typename tascell::detail::traits_of<C>::stored there{};
  std::istringstream is(bytes);
  tascell::in_archive a(is);
  tascell::detail::traits_of<C>::unpack_in_range(a, there, r);
  return there;
}

}  // namespace tascell_test
