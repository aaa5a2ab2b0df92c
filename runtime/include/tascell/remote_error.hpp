// Exceptions that cross processes (docs/language.md "Search and optimisation
// support"): a type registered with TASCELL_EXCEPTION(Type) arrives as the
// same type; any other arrives as tascell::remote_error with its what().
#pragma once

#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <typeinfo>

#include "tascell/wire.hpp"

namespace tascell {

struct remote_error : std::runtime_error {
  remote_error(int rank, std::string type, const std::string& what)
      : std::runtime_error(what), rank(rank), type(std::move(type)) {}
  int rank;          // the process where it was thrown
  std::string type;  // its type's (mangled) name
};

namespace detail {

struct exception_codec {
  // Writes e into a and returns true when e is of this type.
  bool (*pack)(const std::exception_ptr& e, out_archive& a);
  // Reads one and returns it as an exception_ptr.
  std::exception_ptr (*unpack)(in_archive& a);
};
void register_exception(const char* type_name, const exception_codec* c);

template <class T>
struct exception_codec_of {
  static bool pack(const std::exception_ptr& e, out_archive& a) {
    try {
      std::rethrow_exception(e);
    } catch (const T& x) {
      if (typeid(x) != typeid(T)) return false;  // a derived type: not this one
      save_value(a, x);
      return true;
    } catch (...) {
      return false;
    }
  }
  static std::exception_ptr unpack(in_archive& a) {
    T x{};
    load_value(a, x);
    return std::make_exception_ptr(std::move(x));
  }
  static constexpr exception_codec codec{&pack, &unpack};
  static bool enrol() {
    register_exception(typeid(T).name(), &codec);
    return true;
  }
};

}  // namespace detail
}  // namespace tascell

#define TASCELL_EXCEPTION_CAT2(a, b) a##b
#define TASCELL_EXCEPTION_CAT(a, b) TASCELL_EXCEPTION_CAT2(a, b)
// At namespace scope: exceptions of Type thrown in one process arrive in
// another as Type (it must be default-constructible and copyable between
// processes: trivially copyable or with a serialize function). Written with
// or without a semicolon after it (the macro ends its declaration itself; a
// second `;` is an empty declaration).
#define TASCELL_EXCEPTION(Type)                                                     \
  [[maybe_unused]] static const bool TASCELL_EXCEPTION_CAT(tascell_exception_, __LINE__) = \
      ::tascell::detail::exception_codec_of<Type>::enrol();
