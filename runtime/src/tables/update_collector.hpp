// A worker's updates of its own process's table entries inside a loop over
// a table's indices, per sub-block (table_core.hpp): fixed-size records
// (position, update) appended with two stores, applied `full` at a time
// under the sub-block's lock with plain stores, so the cache misses of the
// entries overlap (a locked instruction per update would wait for each in
// turn). The message thread sorts updates from other processes with
// sub_batches.hpp instead (several update types may be in flight there).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "tascell/detail/table_core.hpp"

namespace tascell::detail {

class update_collector {
 public:
  // Updates larger than this are applied at once instead.
  static constexpr std::uint32_t max_update = 24;
  static constexpr std::uint32_t full = 512;  // records per sub-block buffer

  // Records the update (applying the sub-block's buffer when it is full or
  // holds another kind of update).
  void add(table_core& t, table_op_fn fn, std::int64_t pos, const void* update, std::uint32_t bytes);
  // Applies every buffer.
  void apply_all();

 private:
  struct buffer {
    table_op_fn fn = nullptr;
    std::uint32_t bytes = 0;
    std::uint32_t count = 0;
    bool listed = false;           // in table_buffers::used
    std::unique_ptr<char[]> recs;  // full records of 8 + bytes
  };
  struct table_buffers {
    std::shared_ptr<table_core> t;
    std::vector<buffer> subs;
    std::vector<std::uint32_t> used;  // sub-blocks with records
  };
  table_buffers& of(table_core& t);
  void apply(table_core& t, buffer& b, std::int64_t sub);

  std::vector<table_buffers> tables_;
  table_core* last_ = nullptr;
  table_buffers* last_buffers_ = nullptr;
};

}  // namespace tascell::detail
