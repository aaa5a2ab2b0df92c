// A table of one process without the runtime (the table of a --serial
// program: its entries in index order), saved into and loaded from the
// same files as table<T>::save and load (tascell/table_file.hpp).
#include <cstring>
#include <memory>

#include "table_format.hpp"

namespace tascell::detail {

void save_plain(const char* data, std::int64_t n, std::size_t entry_bytes, tascell::spread how,
                const std::string& name, const char* entry_type, const std::string& dir, const save_options& o) {
  files::begin_save(dir, true);
  table_shape order(n, how, 2, 0);  // the file's order
  std::int64_t block_entries = files::block_entries_for(o, entry_bytes);
  files::part_writer part(dir, 0, 0, n, static_cast<std::uint32_t>(entry_bytes), block_entries, o);
  std::uint64_t sum = part.write_blocks([&](std::int64_t lo, std::int64_t hi, char* out) {
    if (!order.permuted()) return data + static_cast<std::size_t>(lo) * entry_bytes;  // in place
    char* at = out;
    for (std::int64_t p = lo; p < hi; ++p, at += entry_bytes)
      std::memcpy(at, data + static_cast<std::size_t>(order.to_index(p)) * entry_bytes, entry_bytes);
    return static_cast<const char*>(out);
  }, o.threads > 0 ? o.threads : 1);
  std::uint64_t id = files::save_id(n, entry_type, entry_bytes, {sum});
  part.finish(id);
  table_file_info info;
  info.dir = dir;
  info.name = name;
  info.entry_type = entry_type;
  info.entry_bytes = static_cast<std::uint32_t>(entry_bytes);
  info.entries = n;
  info.how = how;
  info.block_entries = block_entries;
  info.codec = files::codec_word(o, entry_bytes);
  info.save_id = id;
  info.parts.push_back({files::part_name(0), 0, n});
  files::finish_save(info);
}

table_file_info load_plain_info(const std::string& dir, const char* entry_type, std::size_t entry_bytes) {
  table_file_info info = read_table_info(dir);
  check_entry_type(info, entry_type, entry_bytes);
  return info;
}

void load_plain(const table_file_info& info, char* data) {
  std::vector<std::unique_ptr<files::part_file>> open;
  std::vector<const files::part_file*> parts;
  for (std::size_t k = 0; k < info.parts.size(); ++k)
    if (info.parts[k].count > 0) {
      open.push_back(std::make_unique<files::part_file>(info, k));
      parts.push_back(open.back().get());
    }
  files::read_index_order(parts, table_shape(info.entries, info.how, 2, 0), info.entry_bytes, data);
}

}  // namespace tascell::detail
