// Table files (docs/cluster.md, "Tables that outlive the run"): a table
// written by table<T>::save, read back by table<T>::load (collective, with
// any number of processes) or probed entry by entry by table_file<T>
// without loading it (one process or all, through a small cache of
// decompressed blocks).
//
//   black.save("kqkr-black");                      // collective: every process writes its part
//   auto b = tascell::table<entry>::load("kqkr-black");   // collective, on any number of processes
//   tascell::table_file<entry> f("kqkr-black");    // read-only, no process needs the whole table
//   entry e = f.get(12345);
//
// A saved table is a directory: `table.tct` (a text header: element type,
// size, spread, parts, format version, its own checksum) and one part file
// per saving process, `part-R.tcb`, holding that process's entries in
// blocks compressed with zstd or LZ4, an index of the blocks (offset, sizes, an
// XXH3-64 checksum of each), and a trailer. The layout, byte by byte, is in
// docs/cluster.md ("The table file format"). A file that is truncated,
// missing or has a byte changed is found by its checksums and named (file,
// block) by a table_file_error; its data is never used.
#pragma once
// (tascell++ --serial force-includes this header by its path, -include, so
// that a sequential program's tables save and load too: its own includes
// are relative to it. The serial prelude looks for this macro.)
#define TASCELL_TABLE_FILE_HPP 1

#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "detail/table_core.hpp"

namespace tascell {

// A table file that cannot be used: missing, truncated, corrupt, of another
// element type. file() names the file; block() the block, or -1.
struct table_file_error : std::runtime_error {
  table_file_error() : std::runtime_error("") {}
  table_file_error(const std::string& what, std::string file, std::int64_t block = -1)
      : std::runtime_error(what), file_(std::move(file)), block_(block) {}
  const std::string& file() const { return file_; }
  std::int64_t block() const { return block_; }
  template <class A> void save(A& a) const { a(std::string(what()), file_, block_); }
  template <class A> void load(A& a) {
    std::string w, f;
    std::int64_t b = -1;
    a(w, f, b);
    *this = table_file_error(w, std::move(f), b);
  }

 private:
  std::string file_;
  std::int64_t block_ = -1;
};

// One part file of a saved table: the entries at positions [first,
// first + count) of the file's order (below).
struct table_file_part {
  std::string file;  // its name in the directory
  std::int64_t first = 0, count = 0;
};

// What a saved table's header says. The entries are stored in the order of
// their positions for two or more processes (table_shape): the index order
// for the block spread, the hashed permutation for the hashed one. That
// order does not depend on the number of processes, so a table saved on P
// processes loads on any number.
struct table_file_info {
  std::string dir;
  std::uint32_t version = 0;
  std::string name;        // the table's name when saved
  std::string entry_type;  // typeid(T).name() of the saving program
  std::uint32_t entry_bytes = 0;
  std::int64_t entries = 0;
  tascell::spread how = tascell::spread::block;
  std::int64_t block_entries = 0;  // entries per compressed block (the last of a part may hold fewer)
  std::string codec;               // "zstd" or "lz4", "+planes" when stored in byte planes
  std::uint64_t save_id = 0;       // the same in the header and every part of one save
  std::vector<table_file_part> parts;
};

// How blocks are compressed. zstd stores about half what LZ4 stores;
// LZ4 compresses about twice as fast. Where the cores, not the disk, bound
// a save (docs/performance.md, "Table files"), LZ4 saves faster: a
// build's checkpoints, rewritten often and removed at the end, are its
// use; a finished table, kept and copied, is zstd's.
//
// Byte planes: a block of entries of several bytes is stored as all their
// first bytes, then all their second bytes, and so on (the shuffle of HDF5
// and Blosc): the bytes of one field sit together, which both codecs
// compress faster and smaller (the endgame tables: 1.2 times as fast, 0.84
// of the size). Entries of one byte are stored as they are.
enum class table_codec : std::uint8_t { zstd, lz4 };

struct save_options {
  table_codec codec = table_codec::zstd;
  int level = 1;                       // zstd's level; for both codecs a negative level is faster and larger
  bool byte_planes = true;             // each block stored byte plane by byte plane (below)
  std::int64_t block_bytes = 1 << 16;  // raw bytes per block (rounded to whole entries)
  int threads = 0;                     // threads compressing in each process (0: its number of workers)
};

// How a table_file's cache did.
struct probe_stats {
  std::int64_t gets = 0, hits = 0, blocks_read = 0;
};

namespace detail {

// The header of the table saved in `dir` (checked: its checksum, its
// version). Throws table_file_error.
table_file_info read_table_info(const std::string& dir);
// Throws table_file_error unless the file holds entries of this type.
void check_entry_type(const table_file_info& info, const char* type_name, std::size_t bytes);

class table_reader;
// Reads a saved table's blocks, keeping up to `cache_blocks` of them
// decompressed (least recently used first out). Thread-safe.
std::shared_ptr<table_reader> open_table_reader(const std::string& dir, std::size_t cache_blocks);
const table_file_info& reader_info(const table_reader& r);
// The bytes of entry `index` into out (entry_bytes of them).
void reader_get(table_reader& r, std::int64_t index, void* out);
probe_stats reader_stats(const table_reader& r);

// Collective (table.hpp): every process writes its part of t into `dir`;
// rank 0 writes the header once every part is written. Returns when the
// save is complete in every process; a failure anywhere throws everywhere.
void save_table(table_core& t, const std::string& dir, const char* entry_type, const save_options& o);
// Collective: the header of `dir`, checked for this entry type, read by
// every process (a failure anywhere throws everywhere).
table_file_info load_table_info(const std::string& dir, const char* entry_type, std::size_t entry_bytes);
// Collective: fills t (made from `info`) with its entries from the files.
void load_table(table_core& t, const table_file_info& info);

// One process without the runtime (the table of a --serial program):
// entries in index order, the same files.
void save_plain(const char* data, std::int64_t n, std::size_t entry_bytes, tascell::spread how,
                const std::string& name, const char* entry_type, const std::string& dir, const save_options& o);
table_file_info load_plain_info(const std::string& dir, const char* entry_type, std::size_t entry_bytes);
void load_plain(const table_file_info& info, char* data);

}  // namespace detail

// A saved table, read without loading it: get(i) reads entry i from the
// files (the block that holds it, through a cache of decompressed blocks).
// Needs no other process; copies share the cache.
template <class T>
class table_file {
  static_assert(std::is_trivially_copyable_v<T>, "a table file's entry type must be trivially copyable");

 public:
  explicit table_file(const std::string& dir, std::size_t cache_blocks = 64)
      : r_(detail::open_table_reader(dir, cache_blocks)) {
    detail::check_entry_type(info(), typeid(T).name(), sizeof(T));
  }
  const table_file_info& info() const { return detail::reader_info(*r_); }
  std::int64_t size() const { return info().entries; }
  T get(std::int64_t i) const {
    T v;
    detail::reader_get(*r_, i, &v);
    return v;
  }
  probe_stats stats() const { return detail::reader_stats(*r_); }

 private:
  std::shared_ptr<detail::table_reader> r_;
};

}  // namespace tascell
