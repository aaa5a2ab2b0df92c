// A table of one process without the runtime (the table of a --serial
// program: its entries in index order), saved into and loaded from the
// same files as table<T>::save and load (tascell/table_file.hpp).
#include <filesystem>

#include "table_format.hpp"

namespace tascell::detail {

void save_plain(const char* data, std::int64_t n, std::size_t entry_bytes, tascell::spread how,
                const std::string& name, const char* entry_type, const std::string& dir, const save_options& o) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw table_file_error("tascell: table file directory '" + dir + "': " + ec.message(), dir);
  std::filesystem::remove(files::header_path(dir), ec);
  table_shape order(n, how, 2, 0);  // the file's order
  std::int64_t block_entries = std::max<std::int64_t>(1, o.block_bytes / static_cast<std::int64_t>(entry_bytes));
  std::uint64_t mine = files::checksum(data, static_cast<std::size_t>(n) * entry_bytes);
  std::string ids = std::to_string(n) + " " + entry_type + " " + std::to_string(entry_bytes) + " " + std::to_string(mine);
  std::uint64_t save_id = files::checksum(ids.data(), ids.size());
  files::write_part(dir, 0, save_id, 0, n, static_cast<std::uint32_t>(entry_bytes), block_entries, o.level,
                    [&](std::int64_t lo, std::int64_t hi, char* out) {
                      for (std::int64_t p = lo; p < hi; ++p, out += entry_bytes)
                        std::memcpy(out, data + static_cast<std::size_t>(order.to_index(p)) * entry_bytes, entry_bytes);
                    }, o.threads > 0 ? o.threads : 1);
  table_file_info info;
  info.dir = dir;
  info.version = files::format_version;
  info.name = name;
  info.entry_type = entry_type;
  info.entry_bytes = static_cast<std::uint32_t>(entry_bytes);
  info.entries = n;
  info.how = how;
  info.block_entries = block_entries;
  info.codec = "zstd";
  info.save_id = save_id;
  info.parts.push_back({files::part_name(0), 0, n});
  files::write_header(info);
  for (int r = 1;; ++r)
    if (!std::filesystem::remove(dir + "/" + files::part_name(r), ec)) break;
}

table_file_info load_plain_info(const std::string& dir, const char* entry_type, std::size_t entry_bytes) {
  table_file_info info = read_table_info(dir);
  check_entry_type(info, entry_type, entry_bytes);
  return info;
}

void load_plain(const table_file_info& info, char* data) {
  table_shape order(info.entries, info.how, 2, 0);
  std::vector<char> block;
  for (std::size_t k = 0; k < info.parts.size(); ++k) {
    if (info.parts[k].count == 0) continue;
    files::part_file f(info, k);
    for (std::int64_t b = 0; b < f.blocks(); ++b) {
      block.resize(static_cast<std::size_t>(f.block_count(b)) * info.entry_bytes);
      f.read_block(b, block.data());
      const char* in = block.data();
      for (std::int64_t p = f.block_first(b), e = p + f.block_count(b); p < e; ++p, in += info.entry_bytes)
        std::memcpy(data + static_cast<std::size_t>(order.to_index(p)) * info.entry_bytes, in, info.entry_bytes);
    }
  }
}

}  // namespace tascell::detail
