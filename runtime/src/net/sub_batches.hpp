// Updates of this process's table entries sorted by sub-block
// (table_core.hpp), applied a sub-block at a time under its lock with plain
// stores: the message thread sorts each batch that comes from another
// process here before applying it (table_protocol.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tascell/detail/table_core.hpp"

namespace tascell::detail {

class sub_batches {
 public:
  // Records the update; true when its sub-block's buffer is full (apply it).
  bool add(table_core& t, table_op_fn fn, std::int64_t pos, const void* update, std::uint32_t bytes);
  // Applies the buffer of the sub-block of pos. With `wait`, waits for the
  // lock; without, leaves the buffer when the lock is held; true if applied.
  bool apply(table_core& t, std::int64_t pos, bool wait);
  // Applies every buffer (see apply); true when nothing is left.
  bool apply_all(bool wait);
  bool empty() const { return records_ == 0; }
  std::int64_t records() const { return records_; }

  // Records per sub-block buffer at which add() says it is full.
  static constexpr std::uint32_t full = 1024;

 private:
  struct buffer {
    std::string bytes;  // runs: (fn, count, update size) then count records (position, update)
    std::size_t run_at = std::string::npos;
    table_op_fn run_fn = nullptr;
    std::uint32_t count = 0;  // records in bytes
  };
  struct table_buffers {
    std::shared_ptr<table_core> t;
    std::vector<buffer> subs;
  };
  table_buffers& of(table_core& t);
  bool apply(table_core& t, buffer& b, std::int64_t sub, bool wait);

  std::vector<table_buffers> tables_;
  std::size_t last_ = 0;
  std::int64_t records_ = 0;
};

}  // namespace tascell::detail
