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
#line 1 "templates.tcpp"
// @task function templates: calls that depend on a template parameter are
// found through their candidates; they are emitted once, as written.
#include <vector>

template <class T>
      T total(const std::vector<T>& v, int lo, int hi) {
  if (hi - lo < 2) return lo < hi ? v[lo] : T{};
  int mid = (lo + hi) / 2;
  T a{}, b{};
          {
    a = total(v, lo, mid);
    b = total(v, mid, hi);
  }
  return a + b;
}

template <class T>
      T dot(const std::vector<T>& x, const std::vector<T>& y) {
  T s{};
                         
  for (int i = 0; i < static_cast<int>(x.size()); ++i) s += x[i] * y[i];
  return s + total(x, 0, static_cast<int>(x.size()));
}

double both(const std::vector<int>& vi, const std::vector<double>& vd) {
  return total(vi, 0, 3) + dot(vd, vd);
}
