// Pointers to functions between processes: by what they point at, not by
// their address. Every process runs the same binary, but each loads it and
// its libraries where it likes (address space layout randomisation), so an
// address means nothing elsewhere; the place of a function does: the loaded
// object holding it and its offset from that object's load address. The
// receiver finds the same object among its own and adds the offset.
//
// An object is known by its name as the dynamic loader lists it
// (dl_iterate_phdr's dlpi_name): "" for the program's executable, the path
// it was loaded from for a shared library; both sides compute it the same
// way. A receiver that has not loaded the object, or whose object has no
// code at that offset, throws cereal::Exception naming the object: it never
// calls a wrong address.
//
// On the wire: a byte (0: null, 1: a function), then the object's name and
// the offset.
#pragma once

#include <cstdint>
#include <string>

#include <cereal/archives/binary.hpp>

namespace tascell::detail {

struct function_place {
  std::string object;        // "" for the executable
  std::uint64_t offset = 0;  // from the object's load address
};

// The place of the function at address f (not null). Throws
// cereal::Exception when f is not in the code of any loaded object.
function_place place_of_function(std::uintptr_t f);
// The address in this process of the function at p. Throws
// cereal::Exception naming the object when this process has not loaded it,
// or when the offset is outside its code.
std::uintptr_t function_at(const function_place& p);

// A function's address, written as its place (null as null).
void save_function_address(cereal::BinaryOutputArchive& a, std::uintptr_t f);
// The address of the function written by save_function_address.
std::uintptr_t load_function_address(cereal::BinaryInputArchive& a);

}  // namespace tascell::detail
