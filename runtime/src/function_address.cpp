// Pointers to functions between processes (function_address.hpp): the
// loaded objects are those dl_iterate_phdr lists, on both sides.
#include "tascell/function_address.hpp"

#include <link.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <string>

#include <cereal/types/string.hpp>

namespace tascell::detail {
namespace {

// The object's segments that hold code: a function is in one of them.
bool code_segment(const ElfW(Phdr) & ph) { return ph.p_type == PT_LOAD && (ph.p_flags & PF_X) != 0; }

std::string name_of(const dl_phdr_info* info) { return info->dlpi_name ? info->dlpi_name : ""; }

// How error messages call an object.
std::string describe(const std::string& object) {
  if (!object.empty()) return object;
  char path[4096];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? "the program's executable (" + std::string(path, static_cast<std::size_t>(n)) + ")"
               : std::string("the program's executable");
}

std::string hex(std::uint64_t x) {
  char s[24];
  std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(x));
  return s;
}

struct by_address {
  std::uintptr_t address = 0;
  bool first = true;  // the next object listed is the first: the executable
  bool found = false, unnamed = false;
  function_place place;
};

int find_address(dl_phdr_info* info, std::size_t, void* data) {
  auto* s = static_cast<by_address*>(data);
  bool first = s->first;
  s->first = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    std::uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
    if (!code_segment(ph) || s->address < lo || s->address - lo >= ph.p_memsz) continue;
    s->found = true;
    s->place = {name_of(info), s->address - info->dlpi_addr};
    // Only the executable may go by the empty name: the receiver looks for
    // it as the first object listed.
    s->unnamed = !first && s->place.object.empty();
    return 1;
  }
  return 0;
}

struct by_place {
  const function_place* place = nullptr;
  bool first = true;
  bool found = false, in_code = false;
  std::uintptr_t address = 0;
};

int find_place(dl_phdr_info* info, std::size_t, void* data) {
  auto* s = static_cast<by_place*>(data);
  bool first = s->first;
  s->first = false;
  const std::string& want = s->place->object;
  if (want.empty() ? !first : name_of(info) != want) return 0;
  s->found = true;
  std::uint64_t offset = s->place->offset;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (code_segment(ph) && offset >= ph.p_vaddr && offset - ph.p_vaddr < ph.p_memsz) {
      s->in_code = true;
      s->address = info->dlpi_addr + offset;
      break;
    }
  }
  return 1;
}

}  // namespace

function_place place_of_function(std::uintptr_t f) {
  by_address s;
  s.address = f;
  dl_iterate_phdr(find_address, &s);
  if (!s.found)
    throw cereal::Exception("a pointer to a function at " + hex(f) +
                            " is in the code of no loaded object: it cannot be sent to another process");
  if (s.unnamed)
    throw cereal::Exception("a pointer to a function at " + hex(f) +
                            " is in a loaded object without a name: it cannot be sent to another process");
  return s.place;
}

std::uintptr_t function_at(const function_place& p) {
  by_place s;
  s.place = &p;
  dl_iterate_phdr(find_place, &s);
  if (!s.found)
    throw cereal::Exception("a pointer to a function from another process is in " + describe(p.object) +
                            ", which this process has not loaded");
  if (!s.in_code)
    throw cereal::Exception("a pointer to a function from another process is at offset " + hex(p.offset) + " of " +
                            describe(p.object) + ", outside its code (do the processes run different builds?)");
  return s.address;
}

void save_function_address(cereal::BinaryOutputArchive& a, std::uintptr_t f) {
  if (f == 0) {
    a(std::uint8_t{0});
    return;
  }
  function_place p = place_of_function(f);
  a(std::uint8_t{1}, p.object, p.offset);
}

std::uintptr_t load_function_address(cereal::BinaryInputArchive& a) {
  std::uint8_t tag = 0;
  a(tag);
  if (tag == 0) return 0;
  if (tag != 1) throw cereal::Exception("a pointer to a function arrived malformed (tag " + std::to_string(tag) + ")");
  function_place p;
  a(p.object, p.offset);
  return function_at(p);
}

}  // namespace tascell::detail
