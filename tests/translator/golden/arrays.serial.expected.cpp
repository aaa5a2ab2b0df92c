#include <cstdint>
#include <optional>
#include <unordered_map>
namespace tascell {
inline void cancel() {}
inline bool cancelled() { return false; }
inline int rank() { return 0; }
inline int processes() { return 1; }
inline bool is_root() { return true; }
inline int workers() { return 1; }
template <class T> class board {
 public:
  void publish(std::uint64_t key, const T& v) { values_[key] = v; }
  void publish(const T& v) { publish(0, v); }
  std::optional<T> read(std::uint64_t key = 0) const {
    auto it = values_.find(key);
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }
  void clear() { values_.clear(); }
 private:
  std::unordered_map<std::uint64_t, T> values_;
};
}
#define TASCELL_EXCEPTION(Type) static_assert(true, "");
template <class T, class U> inline bool tascell_serial_improve_min(T& best, const U& v) {
  if (v < best) { best = static_cast<T>(v); return true; }
  return false;
}
template <class T, class U> inline bool tascell_serial_improve_max(T& best, const U& v) {
  if (best < v) { best = static_cast<T>(v); return true; }
  return false;
}
#line 1 "arrays.tcpp"
// C arrays of known size captured by value: read by a later part or a loop
// body (a copy), written by one part (a copy, copied back).
      long arrays(int n) {
  int a[8];
  for (int i = 0; i < 8; ++i) a[i] = i * n;
  const double m[2][3] = {{1, 2, 3}, {4, 5, 6}};
  long first = 0, rest = 0;
  int out[4] = {};
          {
    first = a[0];
    {
      for (int x : a) rest += x;
      rest += static_cast<long>(m[1][2]) + static_cast<long>(sizeof(a));
    }
    for (int i = 0; i < 4; ++i) out[i] = i;
  }
  long s = 0;
                         
  for (int i = 0; i < 8; ++i) s += a[i] + static_cast<long>(m[i % 2][i % 3]) + out[i % 4];
  return first + rest + s;
}
