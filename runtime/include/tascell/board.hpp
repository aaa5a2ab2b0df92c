// The bulletin board (docs/language.md, the para-base seed): named values that
// any task publishes and every worker of every process can read, for
// example an alpha bound per subtree of a game search.
//
//   tascell::board<int> alpha;                 // at namespace scope
//   alpha.publish(subtree_id, a);              // newest write wins
//   if (auto a = alpha.read(subtree_id)) ...   // std::optional<int>
//
// A read sees this process's copy (a shared lock, no message). A write is
// applied here at once and, during a root call with several processes, sent
// to every other process. "Newest" is by a Lamport clock with ties broken by
// rank, so every process keeps the same winner for a key whatever order the
// writes arrive in. At the end of each root call the entries written during
// it are combined over every process, so afterwards every process's board
// holds the same values. T must be copyable between processes (wire.hpp).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "tascell/wire.hpp"

namespace tascell {
namespace detail {

struct board_ops {
  // Applies a write (the value as bytes) unless the board holds a newer one.
  void (*apply)(void* obj, std::uint64_t key, std::uint64_t stamp, std::string_view value);
  // The entries written since the last call, as (key, stamp, value bytes);
  // clears that list.
  std::vector<std::tuple<std::uint64_t, std::uint64_t, std::string>> (*take_written)(void* obj);
};
std::uint64_t register_board(void* obj, const board_ops* ops);
void unregister_board(void* obj);
// A stamp for a new write: a Lamport clock in the high bits, the rank below.
std::uint64_t board_stamp();
// Keeps the Lamport clock ahead of a stamp that was received.
void board_seen(std::uint64_t stamp);
// A write was made here: send it to the other processes.
void board_published(std::uint64_t id, std::uint64_t key, std::uint64_t stamp, std::string value);

}  // namespace detail

template <class T>
class board {
  static_assert(detail::portable_v<T> && std::is_default_constructible_v<T>,
                "a board's values must be default-constructible and copyable between processes");

 public:
  board() : id_(detail::register_board(this, &ops)) {}
  board(const board&) = delete;
  board& operator=(const board&) = delete;
  ~board() { detail::unregister_board(this); }

  // Makes v the value of key (the newest write wins everywhere).
  void publish(std::uint64_t key, const T& v) {
    std::uint64_t stamp = detail::board_stamp();
    store(key, stamp, v);
    std::ostringstream os;
    {
      out_archive a(os);
      detail::save_value(a, v);
    }
    detail::board_published(id_, key, stamp, os.str());
  }
  void publish(const T& v) { publish(0, v); }

  // The value of key, or nothing if nobody has published one.
  std::optional<T> read(std::uint64_t key = 0) const {
    std::shared_lock<std::shared_mutex> g(m_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return std::nullopt;
    return it->second.second;
  }

  // Forgets every value, in this process only (for example between searches
  // that every process starts the same way).
  void clear() {
    std::unique_lock<std::shared_mutex> g(m_);
    entries_.clear();
    written_.clear();
  }

 private:
  bool store(std::uint64_t key, std::uint64_t stamp, const T& v) {
    std::unique_lock<std::shared_mutex> g(m_);
    auto& e = entries_[key];
    if (e.first > stamp) return false;
    e = {stamp, v};
    written_.insert(key);
    return true;
  }
  static void apply(void* obj, std::uint64_t key, std::uint64_t stamp, std::string_view value) {
    T v{};
    std::istringstream is{std::string(value)};
    {
      in_archive a(is);
      detail::load_value(a, v);
    }
    static_cast<board*>(obj)->store(key, stamp, v);
  }
  static std::vector<std::tuple<std::uint64_t, std::uint64_t, std::string>> take_written(void* obj) {
    auto* b = static_cast<board*>(obj);
    std::vector<std::tuple<std::uint64_t, std::uint64_t, std::string>> out;
    std::unique_lock<std::shared_mutex> g(b->m_);
    for (std::uint64_t key : b->written_) {
      auto& e = b->entries_[key];
      std::ostringstream os;
      {
        out_archive a(os);
        detail::save_value(a, e.second);
      }
      out.emplace_back(key, e.first, os.str());
    }
    b->written_.clear();
    return out;
  }
  static constexpr detail::board_ops ops{&apply, &take_written};

  mutable std::shared_mutex m_;
  std::unordered_map<std::uint64_t, std::pair<std::uint64_t, T>> entries_;  // key -> (stamp, value)
  std::unordered_set<std::uint64_t> written_;  // keys written since the last combine
  std::uint64_t id_;
};

}  // namespace tascell
