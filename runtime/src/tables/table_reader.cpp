// table_file<T>: a saved table read entry by entry, through a cache of
// decompressed blocks (tascell/table_file.hpp).
#include <algorithm>
#include <list>
#include <mutex>
#include <unordered_map>

#include "table_format.hpp"

namespace tascell::detail {

class table_reader {
 public:
  table_reader(const std::string& dir, std::size_t cache_blocks)
      : info_(read_table_info(dir)), order_(info_.entries, info_.how, 2, 0), capacity_(std::max<std::size_t>(1, cache_blocks)) {
    for (std::size_t k = 0; k < info_.parts.size(); ++k) parts_.push_back(std::make_unique<files::part_file>(info_, k));
  }
  const table_file_info& info() const { return info_; }

  void get(std::int64_t index, void* out) {
    if (index < 0 || index >= info_.entries)
      throw table_file_error("tascell: table file '" + files::header_path(info_.dir) + "': entry " +
                                 std::to_string(index) + " is out of range: the table has " +
                                 std::to_string(info_.entries) + " entries",
                             files::header_path(info_.dir));
    std::int64_t pos = order_.to_pos(index);
    // The part that holds pos: the last whose first position is <= pos.
    auto it = std::upper_bound(parts_.begin(), parts_.end(), pos,
                               [](std::int64_t p, const auto& f) { return p < f->first(); });
    const files::part_file& f = **(it - 1);
    std::size_t part = static_cast<std::size_t>(it - 1 - parts_.begin());
    std::int64_t b = (pos - f.first()) / f.block_entries();
    std::size_t at = static_cast<std::size_t>(pos - f.block_first(b)) * info_.entry_bytes;
    std::uint64_t key = (static_cast<std::uint64_t>(part) << 40) | static_cast<std::uint64_t>(b);
    std::lock_guard<std::mutex> g(m_);
    ++stats_.gets;
    auto hit = where_.find(key);
    if (hit != where_.end()) {
      ++stats_.hits;
      lru_.splice(lru_.begin(), lru_, hit->second);
      std::memcpy(out, hit->second->bytes.data() + at, info_.entry_bytes);
      return;
    }
    if (lru_.size() >= capacity_) {
      where_.erase(lru_.back().key);
      lru_.pop_back();
    }
    lru_.push_front({key, std::vector<char>(static_cast<std::size_t>(f.block_count(b)) * info_.entry_bytes)});
    try {
      f.read_block(b, lru_.front().bytes.data());
    } catch (...) {
      lru_.pop_front();
      throw;
    }
    ++stats_.blocks_read;
    where_[key] = lru_.begin();
    std::memcpy(out, lru_.front().bytes.data() + at, info_.entry_bytes);
  }
  probe_stats stats() const {
    std::lock_guard<std::mutex> g(m_);
    return stats_;
  }

 private:
  struct cached {
    std::uint64_t key;
    std::vector<char> bytes;
  };
  table_file_info info_;
  table_shape order_;  // the file's order: positions for two or more processes
  std::vector<std::unique_ptr<files::part_file>> parts_;
  std::size_t capacity_;
  mutable std::mutex m_;
  std::list<cached> lru_;
  std::unordered_map<std::uint64_t, std::list<cached>::iterator> where_;
  probe_stats stats_;
};

std::shared_ptr<table_reader> open_table_reader(const std::string& dir, std::size_t cache_blocks) {
  return std::make_shared<table_reader>(dir, cache_blocks);
}
const table_file_info& reader_info(const table_reader& r) { return r.info(); }
void reader_get(table_reader& r, std::int64_t index, void* out) { r.get(index, out); }
probe_stats reader_stats(const table_reader& r) { return r.stats(); }

}  // namespace tascell::detail
