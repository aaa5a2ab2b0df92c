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
#line 1 "root.tcpp"
// Prototypes, void tasks, and root calls from ordinary code.
      void work(int n);
      int twice(int n) { return 2 * n; }

      void work(int n) {
  int a = 0;
          {
    a = twice(n);
    work(n - 1);
  }
  (void)a;
}

int run(int n) {
  work(n);
  return twice(n) + 1;
}
