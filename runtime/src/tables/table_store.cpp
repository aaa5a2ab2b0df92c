// Saving a table into files and loading it back, collectively
// (tascell/table_file.hpp): each process writes its own part and reads the
// positions it holds now, from whichever parts hold them; the processes
// agree at each step, so that a failure in one (a full disk, a corrupt
// block) is thrown in all of them instead of leaving the others waiting.
#include <cstring>
#include <memory>
#include <sstream>

#include "../net/table_protocol.hpp"
#include "table_process.hpp"
#include "table_format.hpp"
#include "tascell/remote_error.hpp"

TASCELL_EXCEPTION(tascell::table_file_error)

namespace tascell::detail {

namespace {

// The file order: positions for two or more processes (table_file.hpp).
table_shape file_order(std::int64_t n, tascell::spread how) { return table_shape(n, how, 2, 0); }

// One process's outcome of a step: "" when it went well, else what went
// wrong, as a table_file_error's fields.
std::string encode(const table_file_error& e) {
  return e.file() + '\n' + std::to_string(e.block()) + '\n' + e.what();
}
table_file_error decode(const std::string& s, int rank) {
  std::size_t a = s.find('\n'), b = s.find('\n', a + 1);
  std::string what = s.substr(b + 1);
  return table_file_error(what + " (rank " + std::to_string(rank) + ")", s.substr(0, a),
                          std::stoll(s.substr(a + 1, b - a - 1)));
}

// Collective: every process's string (one process: its own).
std::vector<std::string> all_of(const std::string& mine) {
  const int procs = table_process::processes();
  if (procs < 2) return {mine};
  static std::uint32_t step = 0;  // the same sequence in every process
  std::uint32_t key = (std::uint32_t{1} << 30) | (++step & 0x3fffffffu);
  std::vector<std::string> out(static_cast<std::size_t>(procs));
  for (auto& [rank, s] : table_process::protocol().exchange(key, mine)) out[static_cast<std::size_t>(rank)] = s;
  return out;
}

// Runs f here; then every process learns how every other's went, and each
// throws if any failed (its own error first, else the lowest rank's).
template <class F>
void together(F&& f) {
  std::string mine;
  try {
    f();
  } catch (const table_file_error& e) {
    mine = "E" + encode(e);
  } catch (const std::exception& e) {
    mine = "E" + encode(table_file_error(e.what(), ""));
  }
  std::vector<std::string> all = all_of(mine);
  int rank = table_process::rank();
  if (!mine.empty()) throw decode(mine.substr(1), rank);
  for (std::size_t r = 0; r < all.size(); ++r)
    if (!all[r].empty()) throw decode(all[r].substr(1), static_cast<int>(r));
}

void between_root_calls(const char* what, const std::string& dir) {
  if (table_process::current_worker())
    throw table_error(std::string("tascell: ") + what + " '" + dir +
                      "' inside parallel work: saving and loading tables are collective; call them from the "
                      "program's own code between root calls, in every process");
}

}  // namespace

void save_table(table_core& t, const std::string& dir, const char* entry_type, const save_options& o) {
  between_root_calls("table::save", dir);
  const int threads = o.threads > 0 ? o.threads : table_process::workers();
  const int rank = table_process::rank();
  const table_shape& s = t.shape;
  table_shape order = file_order(s.n, s.how);
  std::int64_t block_entries = files::block_entries_for(o, t.entry_bytes);
  together([&] { files::begin_save(dir, rank == 0); });

  // Each process writes its part's blocks; the save id, made from every
  // part's checksum, then goes into each part's header.
  std::unique_ptr<files::part_writer> part;
  std::uint64_t sum = 0;
  together([&] {
    if (s.permuted() == order.permuted()) {
      // This process's positions are the file's [first, first + local_n), in place.
      part = std::make_unique<files::part_writer>(dir, s.rank, t.first, t.local_n,
                                                  static_cast<std::uint32_t>(t.entry_bytes), block_entries, o);
      sum = part->write_blocks([&](std::int64_t lo, std::int64_t, char*) { return t.local(lo); }, threads);
    } else {
      // One process, hashed: every entry, in the file's order.
      part = std::make_unique<files::part_writer>(dir, 0, 0, s.n, static_cast<std::uint32_t>(t.entry_bytes),
                                                  block_entries, o);
      sum = part->write_blocks([&](std::int64_t lo, std::int64_t hi, char* out) {
        char* at = out;
        for (std::int64_t p = lo; p < hi; ++p, at += t.entry_bytes)
          std::memcpy(at, t.local(order.to_index(p)), t.entry_bytes);
        return static_cast<const char*>(out);
      }, threads);
    }
  });
  std::vector<std::uint64_t> sums;
  for (const std::string& h : all_of(std::to_string(sum))) sums.push_back(std::stoull(h));
  std::uint64_t save_id = files::save_id(s.n, entry_type, t.entry_bytes, sums);
  together([&] { part->finish(save_id); });

  together([&] {
    if (rank != 0) return;
    table_file_info info;
    info.dir = dir;
    info.name = t.name;
    info.entry_type = entry_type;
    info.entry_bytes = static_cast<std::uint32_t>(t.entry_bytes);
    info.entries = s.n;
    info.how = s.how;
    info.block_entries = block_entries;
    info.codec = files::codec_word(o, t.entry_bytes);
    info.save_id = save_id;
    for (int r = 0; r < s.procs; ++r)
      info.parts.push_back({files::part_name(r), s.first_pos(r), s.end_pos(r) - s.first_pos(r)});
    files::finish_save(info);
  });
}

table_file_info load_table_info(const std::string& dir, const char* entry_type, std::size_t entry_bytes) {
  between_root_calls("table::load", dir);
  table_file_info info;
  together([&] {
    info = read_table_info(dir);
    check_entry_type(info, entry_type, entry_bytes);
  });
  return info;
}

void load_table(table_core& t, const table_file_info& info) {
  const table_shape& s = t.shape;
  const int threads = table_process::workers();
  table_shape order = file_order(s.n, s.how);
  together([&] {
    // The parts that hold this process's positions.
    std::int64_t lo = 0, hi = s.n;
    bool direct = s.permuted() == order.permuted();
    if (direct) lo = t.first, hi = t.first + t.local_n;
    std::vector<std::unique_ptr<files::part_file>> open;
    std::vector<const files::part_file*> parts;
    for (std::size_t k = 0; k < info.parts.size(); ++k) {
      const table_file_part& p = info.parts[k];
      if (p.count == 0 || p.first >= hi || p.first + p.count <= lo) continue;
      open.push_back(std::make_unique<files::part_file>(info, k));
      parts.push_back(open.back().get());
    }
    if (direct) {
      files::read_positions(parts, lo, hi, info.entry_bytes, t.data, threads);
      return;
    }
    // One process, hashed: the file's order back to index order.
    files::read_index_order(parts, order, info.entry_bytes, t.data);
  });
}

}  // namespace tascell::detail
