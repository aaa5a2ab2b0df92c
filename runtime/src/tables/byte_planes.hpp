// Byte planes (tascell/table_file.hpp, save_options::byte_planes): n
// entries of e bytes each, as e planes of n bytes, plane j holding byte j of
// every entry in the entries' order; and back. A table file stores a block
// this way before compressing it.
#pragma once
#include <cstddef>

namespace tascell::detail::files {

void to_planes(const char* entries, std::size_t n, std::size_t e, char* planes);
void from_planes(const char* planes, std::size_t n, std::size_t e, char* entries);

}  // namespace tascell::detail::files
