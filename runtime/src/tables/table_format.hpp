// The table file format (tascell/table_file.hpp; byte by byte in
// docs/cluster.md, "The table file format"): writing one part file and the
// header, opening a part file with every check of its own structure, and
// reading its blocks with their checksums. Knows nothing of processes or
// of the runtime: the runtime's save and load (table_store.cpp), the probe
// handle (table_reader.cpp) and the tascell-table command use it.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <functional>
#include <string>
#include <vector>

#include "tascell/table_file.hpp"

namespace tascell::detail::files {

inline constexpr std::uint32_t format_version = 1;
inline constexpr std::size_t part_header_bytes = 64;
inline constexpr std::size_t index_entry_bytes = 24;
inline constexpr std::size_t trailer_bytes = 32;
// The codec field of a part file's header: the compressor, and a flag for
// byte planes.
inline constexpr std::uint32_t codec_zstd = 1;
inline constexpr std::uint32_t codec_lz4 = 2;
inline constexpr std::uint32_t codec_planes = 0x100;
// The codec's word in the table header ("zstd", "lz4+planes", ...) for a
// save of entries of `entry_bytes` bytes, and the field value of a word; 0
// for a word this library does not read.
std::string codec_word(const save_options& o, std::size_t entry_bytes);
std::uint32_t codec_field(const std::string& word);

// "dir/table.tct", "dir/part-3.tcb".
std::string header_path(const std::string& dir);
std::string part_name(int part);

// The raw bytes of the entries at positions [lo, hi) of the file's order:
// where they already lie in that order, or copied into `scratch` (room for
// a block) and scratch returned.
using source_fn = std::function<const char*(std::int64_t lo, std::int64_t hi, char* scratch)>;

struct part_summary {
  std::int64_t blocks = 0;
  std::uint64_t stored_bytes = 0;  // the file's size
};

// One part file (positions [first, first + count)) being written into dir
// as part-N.tcb.tmp: its blocks first, then, once every process knows the
// save id, its header, synced, renamed over part-N.tcb. Destroyed before
// finish, it removes the .tmp file. Throws table_file_error naming the
// file when the system refuses.
class part_writer {
 public:
  part_writer(const std::string& dir, int part, std::int64_t first, std::int64_t count, std::uint32_t entry_bytes,
              std::int64_t block_entries, const save_options& o);
  ~part_writer();
  part_writer(const part_writer&) = delete;
  part_writer& operator=(const part_writer&) = delete;

  // Every block, filled and compressed on `threads` threads (source is
  // called from all of them) and written in order while later blocks are
  // compressed. Returns a checksum of the stored blocks (of their index),
  // which stands for the entries and from which the save id is made.
  std::uint64_t write_blocks(const source_fn& source, int threads = 1);
  part_summary finish(std::uint64_t save_id);

 private:
  std::string dir_, path_, tmp_;
  int part_ = 0, fd_ = -1;
  std::int64_t first_ = 0, count_ = 0, block_entries_ = 0, blocks_ = 0;
  std::uint32_t entry_bytes_ = 0, codec_ = 0;
  int level_ = 1;
  std::vector<char> index_;
  std::uint64_t offset_ = 0;
};

// The header as text, and back (parse checks the checksum line and every
// field; `path` names the file in errors).
std::string format_header(const table_file_info& info);
table_file_info parse_header(const std::string& text, const std::string& path);
// Writes info's header into info.dir (through a .tmp file, synced,
// renamed: a reader sees the old header or the new one, never half).
void write_header(const table_file_info& info);

// The steps every save takes (the collective one, table_store.cpp, and the
// plain one of a --serial program, table_plain.cpp):
// the directory made and its old header removed (a save that stops
// half-way leaves none: never read as complete) ...
void begin_save(const std::string& dir, bool remove_header);
// ... whole entries per block ...
std::int64_t block_entries_for(const save_options& o, std::size_t entry_bytes);
// ... the save id: a checksum of the size, the type and each part's
// entries (part_writer::write_blocks), so that the same entries saved on the
// same number of processes give the same bytes, while parts of other saves
// differ ...
std::uint64_t save_id(std::int64_t n, const char* entry_type, std::size_t entry_bytes,
                      const std::vector<std::uint64_t>& part_checksums);
// ... and, once every part is written, the header (info's version filled
// in here), and parts of an earlier save on more processes removed.
void finish_save(table_file_info info);

// Memory for runs of stored blocks, aligned for direct reads, kept between
// reads.
class run_buffer {
 public:
  static constexpr std::size_t align = 4096;
  char* room(std::size_t bytes);

 private:
  struct release {
    void operator()(char* p) const { std::free(p); }
  };
  std::unique_ptr<char, release> p_;
  std::size_t capacity_ = 0;
};

// One part file, opened: its header, trailer and index checked against
// the table's header. read_block may run in several threads at once.
class part_file {
 public:
  part_file(const table_file_info& info, std::size_t part);
  ~part_file();
  part_file(const part_file&) = delete;
  part_file& operator=(const part_file&) = delete;

  const std::string& path() const { return path_; }
  std::int64_t first() const { return first_; }
  std::int64_t count() const { return count_; }
  std::int64_t blocks() const { return static_cast<std::int64_t>(index_.size()); }
  std::int64_t block_entries() const { return block_entries_; }
  // Positions [block_first(b), block_first(b) + block_count(b)).
  std::int64_t block_first(std::int64_t b) const { return first_ + b * block_entries_; }
  std::int64_t block_count(std::int64_t b) const;
  std::uint64_t stored_bytes(std::int64_t b) const { return index_[static_cast<std::size_t>(b)].stored; }
  std::uint64_t file_bytes() const { return file_bytes_; }
  // Block b's entries into out (block_count(b) * entry_bytes), after its
  // checksum and its decompressed size are checked.
  void read_block(std::int64_t b, char* out) const;
  // The stored bytes of blocks [b0, b1), in one read into `room`;
  // returns where block b0's bytes begin there. decode_block(b, its bytes,
  // out) then checks and decompresses block b.
  const char* read_stored(std::int64_t b0, std::int64_t b1, class run_buffer& room) const;
  void decode_block(std::int64_t b, const char* stored, char* out) const;

 private:
  struct block_ref {
    std::uint64_t offset = 0;
    std::uint32_t stored = 0, raw = 0;
    std::uint64_t sum = 0;
  };
  [[noreturn]] void fail(const std::string& what, std::int64_t block = -1) const;
  std::string path_;
  int fd_ = -1;
  // The same file opened for direct reads (past the page cache, as large
  // requests), or -1 where the file system refuses them.
  mutable int direct_fd_ = -1;
  std::uint64_t file_bytes_ = 0;
  std::int64_t first_ = 0, count_ = 0, block_entries_ = 0;
  std::uint32_t entry_bytes_ = 0, codec_ = 0;
  std::vector<block_ref> index_;
};

// The entries at positions [lo, hi) of the file's order, from the part
// files, into out (every block read is checked), on `threads` threads.
void read_positions(const std::vector<const part_file*>& parts, std::int64_t lo, std::int64_t hi,
                    std::uint32_t entry_bytes, char* out, int threads = 1);

// Every entry of the parts (the whole table) into data in index order:
// position p of the file's order `order` is entry order.to_index(p).
void read_index_order(const std::vector<const part_file*>& parts, const table_shape& order, std::uint32_t entry_bytes,
                      char* data);

// Every problem of the table saved in dir, each naming its file (and
// block): the header, a part missing or of another save, a truncated file,
// a block whose checksum or size is wrong. Empty when every block is sound.
std::vector<std::string> verify(const std::string& dir, std::int64_t* blocks_checked = nullptr);

// XXH3-64, as the files use it.
std::uint64_t checksum(const void* bytes, std::size_t n);

}  // namespace tascell::detail::files
