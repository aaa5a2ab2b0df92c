// This process's distributed tables and the update types known to every
// process (tascell/detail/table_core.hpp), as the message thread reads them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "tascell/detail/table_core.hpp"

namespace tascell::detail {

// The table with this id, or nullptr (never made here, or gone).
std::shared_ptr<table_core> table_by_id(std::uint32_t id);

struct table_op_info {
  table_op_fn fn;
  std::uint32_t update_bytes;
};
// The update type with this id, or nullptr.
const table_op_info* table_op_by_id(std::uint64_t id);

// Copies the entries at positions [lo, hi) of this process's part of t
// (the caller holds the locks of their sub-blocks, when the table has any).
std::string copy_entries(table_core& t, std::int64_t lo, std::int64_t hi);

}  // namespace tascell::detail
