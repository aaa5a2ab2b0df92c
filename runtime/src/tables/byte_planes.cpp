// Byte planes (byte_planes.hpp). The usual entry sizes have a loop of
// their own, whose fixed stride the compiler turns into vector shuffles
// (about seven times the speed of the loop with the size unknown).
#include "byte_planes.hpp"

namespace tascell::detail::files {

namespace {

template <std::size_t E>
void split(const char* in, std::size_t n, char* out) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < E; ++j) out[j * n + i] = in[i * E + j];
}
template <std::size_t E>
void join(const char* in, std::size_t n, char* out) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < E; ++j) out[i * E + j] = in[j * n + i];
}

}  // namespace

void to_planes(const char* entries, std::size_t n, std::size_t e, char* planes) {
  switch (e) {
    case 2: return split<2>(entries, n, planes);
    case 3: return split<3>(entries, n, planes);
    case 4: return split<4>(entries, n, planes);
    case 8: return split<8>(entries, n, planes);
    default:
      for (std::size_t j = 0; j < e; ++j, planes += n)
        for (std::size_t i = 0; i < n; ++i) planes[i] = entries[i * e + j];
  }
}

void from_planes(const char* planes, std::size_t n, std::size_t e, char* entries) {
  switch (e) {
    case 2: return join<2>(planes, n, entries);
    case 3: return join<3>(planes, n, entries);
    case 4: return join<4>(planes, n, entries);
    case 8: return join<8>(planes, n, entries);
    default:
      for (std::size_t j = 0; j < e; ++j, planes += n)
        for (std::size_t i = 0; i < n; ++i) entries[i * e + j] = planes[i];
  }
}

}  // namespace tascell::detail::files
