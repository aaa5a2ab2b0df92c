// This process's distributed tables by id (tascell/detail/table_core.hpp),
// as the message thread finds them (net/table_protocol.hpp's
// find_tables_with).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "tascell/detail/table_core.hpp"

namespace tascell::detail {

// This process's part of a table of this shape: its entries zeroed, its
// sub-blocks and their locks (`guarded`: several workers write here).
void lay_out_table(table_core& t, const table_shape& shape, std::size_t entry_bytes, std::size_t entry_align,
                   bool guarded);

// The table with this id, or nullptr (never made here, or gone).
std::shared_ptr<table_core> table_by_id(std::uint32_t id);


}  // namespace tascell::detail
