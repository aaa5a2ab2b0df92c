// The API a Tascell++ program calls, for a program that is also standard
// C++ (docs/language.md, "The attribute spelling"). Include it in such a
// program:
//   - built by tascell++, it adds nothing: the runtime (tascell/tascell.hpp,
//     which the translation includes first) defines TASCELL_API_HPP;
//   - built by a plain compiler (g++ -std=c++20, clang++), whose attributes
//     [[tascell::...]] are ignored, it is the sequential program's API: one
//     process, one worker, an incumbent a plain variable, a board a map, a
//     table an array.
// `tascellc --serial` writes this text into its output (it is the serial
// prelude), and drops the program's #include of it.
//
// What a plain compiler must not lose has a spelling that keeps its meaning:
// TASCELL_WIND(before, after) statement runs before, the statement, and
// after (also when the statement leaves by break, return or an exception),
// and tascell::improve_min / improve_max name their direction, which the
// declaration's [[tascell::shared(min)]] tells only the translator.
// No #pragma once: the serial program holds this text in its main file.
#ifndef TASCELL_API_HPP
#define TASCELL_API_HPP 1
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>
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
// An incumbent is a plain variable: improve_min / improve_max make v its
// value if it is better.
template <class T, class U> inline bool improve_min(T& best, const U& v) {
  if (v < best) { best = static_cast<T>(v); return true; }
  return false;
}
template <class T, class U> inline bool improve_max(T& best, const U& v) {
  if (best < v) { best = static_cast<T>(v); return true; }
  return false;
}
template <class T, class U> inline bool improve(T&, const U&) {
  static_assert(sizeof(T) == 0,
                "compiled without the translator, tascell::improve cannot see whether the variable is "
                "[[tascell::shared(min)]] or (max): write tascell::improve_min(x, v) or tascell::improve_max(x, v)");
  return false;
}
namespace detail {
template <class Before, class After> struct wind_scope {
  After after;
  wind_scope(Before before, After a) : after(a) { before(); }
  wind_scope(const wind_scope&) = delete;
  wind_scope& operator=(const wind_scope&) = delete;
  ~wind_scope() { after(); }
};
}  // namespace detail
}  // namespace tascell
#define TASCELL_WIND(before, after) \
  if (::tascell::detail::wind_scope tascell_wind_{[&] { before; }, [&] { after; }}; true)
// A distributed table in one process: a plain array, apply() a call; saved
// and loaded as table files when tascell/table_file.hpp was included first
// (tascell++ --serial force-includes it and links the file format), or, in
// a plain compile, when it is on the include path (a program that saves or
// loads then links the runtime's library for the file format, with zstd,
// LZ4 and xxHash).
#if !defined(TASCELL_TABLE_FILE_HPP) && defined(__has_include)
#if __has_include(<tascell/table_file.hpp>)
#include <tascell/table_file.hpp>
#endif
#endif
#ifdef TASCELL_TABLE_FILE_HPP
#include <typeinfo>
#define TASCELL_SERIAL_TABLE_FILES 1
#else
namespace tascell { enum class spread { block, hashed }; }
#endif
namespace tascell {
template <class T> class table {
 public:
  struct index_range {
    std::int64_t n;
    struct iterator {
      std::int64_t i;
      std::int64_t operator*() const { return i; }
      iterator& operator++() { ++i; return *this; }
      bool operator!=(const iterator& o) const { return i != o.i; }
    };
    iterator begin() const { return {0}; }
    iterator end() const { return {n}; }
  };
  table() = default;
  explicit table(std::int64_t n, spread how = spread::block, const char* name = nullptr)
      : d_(std::make_shared<std::vector<T>>(static_cast<std::size_t>(n))), how_(how), name_(name ? name : "") {}
  std::int64_t size() const { return static_cast<std::int64_t>(d_->size()); }
  int owner(std::int64_t) const { return 0; }
  bool is_local(std::int64_t) const { return true; }
  const T& operator[](std::int64_t i) const { return (*d_)[static_cast<std::size_t>(i)]; }
  T& operator[](std::int64_t i) { return (*d_)[static_cast<std::size_t>(i)]; }
  T get(std::int64_t i) const { return (*d_)[static_cast<std::size_t>(i)]; }
  template <class U> void apply(std::int64_t i, const U& u) const { u((*d_)[static_cast<std::size_t>(i)]); }
  index_range indices() const { return {size()}; }
  index_range local_indices() const { return {size()}; }
  std::vector<T> gather() const { return *d_; }
  const std::string& name() const { return name_; }
#ifdef TASCELL_SERIAL_TABLE_FILES
  void save(const std::string& dir, const save_options& o = {}) const {
    detail::save_plain(reinterpret_cast<const char*>(d_->data()), size(), sizeof(T), how_, name_, typeid(T).name(), dir, o);
  }
  static table load(const std::string& dir, const char* name = nullptr) {
    table_file_info info = detail::load_plain_info(dir, typeid(T).name(), sizeof(T));
    table t(info.entries, info.how, name ? name : info.name.c_str());
    detail::load_plain(info, reinterpret_cast<char*>(t.d_->data()));
    return t;
  }
#endif
 private:
  std::shared_ptr<std::vector<T>> d_;
  spread how_ = spread::block;
  std::string name_;
};
}  // namespace tascell
#define TASCELL_EXCEPTION(Type) static_assert(true, "");
#endif  // TASCELL_API_HPP
#line 1 "members.tcpp"
// Member @task functions: *this captured like a variable by pieces that may
// run elsewhere (a copy when read, copied in and back when one part writes).
#include <vector>

struct Grid {
  std::vector<long> cells;
  long scale = 2;
  long updates = 0;

        long sum(int lo, int hi) const;  // defined out of class
        long scaled(int n) const {       // in class; a loop body reading members
    long s = 0;
                           
    for (int i = 0; i < n; ++i) s += cells[i] * this->scale;
    return s;
  }
        void touch(int k);               // non-const: a part writes members
        long nested(int n) const {       // a @dowork inside a piece
    long a = 0, b = 0;
            {
      a = sum(0, n);
      {
        long c = 0, d = 0;
                {
          c = scale;
          d = [&, this] { return scaled(n); }() + [=, this] { return scale; }();
        }
        b = c + d;
      }
    }
    return a + b;
  }
};

      long Grid::sum(int lo, int hi) const {
  if (hi - lo < 2) return lo < hi ? cells[lo] : 0;
  int mid = (lo + hi) / 2;
  long a = 0, b = 0;
          {
    a = sum(lo, mid);
    b = this->sum(mid, hi);
  }
  return a + b;
}

      void Grid::touch(int k) {
  long extra = 0;
          {
    extra = k;
    {
      scale += k;
      ++updates;
    }
  }
  updates += extra;
}

      long through(const Grid& g, const Grid* p, int n) {
  long a = 0, b = 0;
                    {
    a = g.sum(0, n);
    b = p->scaled(n);
  }
  return a + b;
}

long root_calls(Grid& g) {
  g.touch(1);
  return g.sum(0, 4) + through(g, &g, 4);
}
