// An allocator that gives each allocation whole cache lines of its own, for
// the storage a piece's thief writes all through the piece (a copy() range):
// the victim allocates it among its own objects, and a line shared with one
// of them would go back and forth between the two workers' cores.
#pragma once

#include <cstddef>
#include <new>

namespace tascell::detail {

inline constexpr std::size_t cache_line = 64;

template <class T>
struct line_allocator {
  using value_type = T;
  line_allocator() = default;
  template <class U>
  line_allocator(const line_allocator<U>&) noexcept {}
  static std::size_t bytes(std::size_t n) { return (n * sizeof(T) + cache_line - 1) / cache_line * cache_line; }
  T* allocate(std::size_t n) {
    return static_cast<T*>(::operator new(bytes(n), std::align_val_t{cache_line}));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    ::operator delete(p, bytes(n), std::align_val_t{cache_line});
  }
  template <class U>
  bool operator==(const line_allocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace tascell::detail
