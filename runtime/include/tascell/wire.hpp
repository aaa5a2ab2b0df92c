// Values as bytes: how work, results and root results travel between
// processes (docs/language.md, "Several processes": the copyable types).
//
// cereal's binary archives do the encoding. A value can travel when cereal
// can serialise it (arithmetic types, enums, C arrays, the standard
// containers included below, and any type with a cereal-style
// `serialize(Archive&)` member or free function), or when it is trivially
// copyable and holds no address the runtime knows of (its bytes are
// copied). A pointer to a function travels as the place of the function
// (function_address.hpp). Work whose captured values cannot travel stays in
// its process (its kind is local_only).
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>

#include <cereal/archives/binary.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/complex.hpp>
#include <cereal/types/deque.hpp>
#include <cereal/types/list.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/set.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/tuple.hpp>
#include <cereal/types/unordered_map.hpp>
#include <cereal/types/unordered_set.hpp>
#include <cereal/types/utility.hpp>
#include <cereal/types/variant.hpp>
#include <cereal/types/vector.hpp>

#include "tascell/detail/holds_address.hpp"
#include "tascell/function_address.hpp"

namespace tascell {

using out_archive = cereal::BinaryOutputArchive;
using in_archive = cereal::BinaryInputArchive;

struct task;

namespace detail {

template <class T>
inline constexpr bool cereal_can =
    cereal::traits::is_output_serializable<T, out_archive>::value &&
    cereal::traits::is_input_serializable<T, in_archive>::value;

// Travels as the place of the function (function_address.hpp).
template <class T>
inline constexpr bool function_pointer_v = std::is_pointer_v<T> && std::is_function_v<std::remove_pointer_t<T>>;

// True when cereal encodes T: by its serialize (or save and load), or as
// cereal encodes arithmetic types and the standard containers.
template <class T>
inline constexpr bool serializable_v = cereal_can<T> && !holds_address_v<T>;

// True when a value of type T can be sent to another process.
template <class T>
inline constexpr bool portable_v = function_pointer_v<T> || serializable_v<T> || bytes_portable_v<T>;

template <class T>
void save_value(out_archive& a, const T& v) {
  static_assert(portable_v<T>, "this type cannot be sent to another process");
  if constexpr (function_pointer_v<T>) save_function_address(a, reinterpret_cast<std::uintptr_t>(v));
  else if constexpr (cereal_can<T>) a(v);
  else a(cereal::binary_data(const_cast<T*>(&v), sizeof(T)));
}

template <class T>
void load_value(in_archive& a, T& v) {
  static_assert(portable_v<T>, "this type cannot be sent to another process");
  if constexpr (function_pointer_v<T>) v = reinterpret_cast<T>(load_function_address(a));
  else if constexpr (cereal_can<T>) a(v);
  else a(cereal::binary_data(&v, sizeof(T)));
}

// How a kind of work (one @dowork site) travels: its inputs out to the
// thief's process, its outputs back. A kind that cannot travel has none.
struct wire_ops {
  // The inputs of a task made by the kind's put().
  void (*pack)(task* t, out_archive& a);
  // A new task of the kind with the inputs read from a (lo and hi are set
  // by the caller before the task runs).
  task* (*unpack)(std::int64_t lo, std::int64_t hi, in_archive& a);
  // The outputs and reductions of a finished task, and reading them into
  // the victim's own task object.
  void (*pack_result)(task* t, out_archive& a);
  void (*unpack_result)(task* t, in_archive& a);
};

// Kinds of work are known to every process of a binary under the same id:
// a hash of the site's type name. Registered before main.
std::uint64_t register_kind(const void* kind, const char* type_name);

}  // namespace detail
}  // namespace tascell
