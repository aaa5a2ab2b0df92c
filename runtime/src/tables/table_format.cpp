// The table file format: part files and the header (table_format.hpp).
#include "table_format.hpp"

#include "byte_planes.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <future>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include <lz4.h>
#include <xxhash.h>
#include <zstd.h>

static_assert(std::endian::native == std::endian::little, "table files are little-endian, as this machine");

namespace tascell::detail::files {

namespace {

const char part_magic[8] = {'T', 'C', 'T', 'P', 'A', 'R', 'T', '1'};
const char end_magic[8] = {'T', 'C', 'T', 'E', 'N', 'D', '0', '1'};
const char* header_magic = "tascell-table";

template <class V>
void put(char*& p, V v) {
  std::memcpy(p, &v, sizeof v);
  p += sizeof v;
}
template <class V>
V take(const char*& p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  p += sizeof v;
  return v;
}

std::string sys_error(const std::string& what, const std::string& path) {
  return "tascell: table file '" + path + "': " + what + ": " + std::strerror(errno);
}

void write_all(int fd, const char* p, std::size_t n, const std::string& path) {
  while (n > 0) {
    ssize_t k = ::write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) throw table_file_error(sys_error("cannot write", path), path);
    p += k;
    n -= static_cast<std::size_t>(k);
  }
}

// Writes the buffers of io[0, count) in their order (io is used up).
void write_all(int fd, iovec* io, int count, const std::string& path) {
  while (count > 0) {
    ssize_t k = ::writev(fd, io, count);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) throw table_file_error(sys_error("cannot write", path), path);
    auto left = static_cast<std::size_t>(k);
    for (; count > 0 && left >= io->iov_len; ++io, --count) left -= io->iov_len;
    if (count > 0) {  // stopped inside a buffer: its rest next
      io->iov_base = static_cast<char*>(io->iov_base) + left;
      io->iov_len -= left;
    }
  }
}

// Reads exactly n bytes at offset; false at the end of the file.
bool read_at(int fd, char* p, std::size_t n, std::uint64_t offset) {
  while (n > 0) {
    ssize_t k = ::pread(fd, p, n, static_cast<off_t>(offset));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<std::size_t>(k);
    offset += static_cast<std::uint64_t>(k);
  }
  return true;
}

// The directory's entry of a renamed file reaches the disk too.
void sync_dir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

void finish_file(int fd, const std::string& tmp, const std::string& path, const std::string& dir) {
  if (::fsync(fd) != 0) {
    ::close(fd);
    throw table_file_error(sys_error("cannot sync", tmp), tmp);
  }
  if (::close(fd) != 0) throw table_file_error(sys_error("cannot close", tmp), tmp);
  if (::rename(tmp.c_str(), path.c_str()) != 0)
    throw table_file_error(sys_error("cannot rename it from " + tmp, path), path);
  sync_dir(dir);
}

const char* spread_word(tascell::spread s) { return s == tascell::spread::hashed ? "hashed" : "block"; }

// f(0, t) ... f(count - 1, t) on `threads` threads (this one included,
// t = 0, 1, ...: which thread), each index once; the first exception
// thrown is rethrown here after all end.
template <class F>
void parallel_for(std::int64_t count, int threads, F&& f) {
  std::atomic<std::int64_t> next{0};
  std::exception_ptr first;
  std::mutex m;
  auto run = [&](int t) {
    for (std::int64_t k; (k = next.fetch_add(1)) < count;) {
      try {
        f(k, t);
      } catch (...) {
        std::lock_guard<std::mutex> g(m);
        if (!first) first = std::current_exception();
        next.store(count);
      }
    }
  };
  std::vector<std::thread> others;
  for (int t = 1; t < threads && t < count; ++t) others.emplace_back(run, t);
  run(0);
  for (auto& t : others) t.join();
  if (first) std::rethrow_exception(first);
}

struct zstd_cctx {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  zstd_cctx() = default;
  zstd_cctx(const zstd_cctx&) = delete;
  zstd_cctx& operator=(const zstd_cctx&) = delete;
  ~zstd_cctx() { ZSTD_freeCCtx(c); }
};
// The most a block of `raw` bytes takes compressed, by either codec.
std::size_t compress_bound(std::size_t raw) {
  return std::max<std::size_t>(ZSTD_compressBound(raw), static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(raw))));
}

std::size_t compress_block(std::uint32_t codec, int level, ZSTD_CCtx* z, const char* raw, std::size_t n, char* out,
                           std::size_t cap, const std::string& path, std::int64_t block) {
  if ((codec & 0xff) == codec_lz4) {
    int k = LZ4_compress_fast(raw, out, static_cast<int>(n), static_cast<int>(cap), level < 0 ? -level : 1);
    if (k <= 0 && n > 0)
      throw table_file_error("tascell: table file '" + path + "': LZ4 cannot compress block " + std::to_string(block),
                             path, block);
    return static_cast<std::size_t>(k);
  }
  std::size_t k = ZSTD_compressCCtx(z, out, cap, raw, n, level);
  if (ZSTD_isError(k))
    throw table_file_error("tascell: table file '" + path + "': zstd cannot compress block " + std::to_string(block) +
                               ": " + ZSTD_getErrorName(k),
                           path, block);
  return k;
}

struct zstd_dctx {
  ZSTD_DCtx* d = ZSTD_createDCtx();
  ~zstd_dctx() { ZSTD_freeDCtx(d); }
};

}  // namespace

std::uint64_t checksum(const void* bytes, std::size_t n) { return XXH3_64bits(bytes, n); }

std::string header_path(const std::string& dir) { return dir + "/table.tct"; }

std::string codec_word(const save_options& o, std::size_t entry_bytes) {
  return std::string(o.codec == table_codec::lz4 ? "lz4" : "zstd") + (o.byte_planes && entry_bytes > 1 ? "+planes" : "");
}
std::uint32_t codec_field(const std::string& word) {
  std::string base = word;
  std::uint32_t planes = 0;
  if (base.size() > 7 && base.compare(base.size() - 7, 7, "+planes") == 0) {
    base.resize(base.size() - 7);
    planes = codec_planes;
  }
  std::uint32_t c = base == "zstd" ? codec_zstd : base == "lz4" ? codec_lz4 : 0;
  return c ? c | planes : 0;
}
std::string part_name(int part) { return "part-" + std::to_string(part) + ".tcb"; }

part_writer::part_writer(const std::string& dir, int part, std::int64_t first, std::int64_t count,
                         std::uint32_t entry_bytes, std::int64_t block_entries, const save_options& o)
    : dir_(dir),
      path_(dir + "/" + part_name(part)),
      tmp_(path_ + ".tmp"),
      part_(part),
      first_(first),
      count_(count),
      block_entries_(block_entries),
      blocks_(block_entries > 0 ? (count + block_entries - 1) / block_entries : 0),
      entry_bytes_(entry_bytes),
      codec_(codec_field(codec_word(o, entry_bytes))),
      level_(o.level) {
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw table_file_error(sys_error("cannot create", tmp_), tmp_);
}

part_writer::~part_writer() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(tmp_.c_str());
  }
}

std::uint64_t part_writer::write_blocks(const source_fn& source, int threads) {
  // The header's place, written by finish once the save id is known.
  char zeros[part_header_bytes] = {};
  write_all(fd_, zeros, sizeof zeros, tmp_);
  offset_ = part_header_bytes;
  // Blocks compressed on `threads` threads into a ring of slots and
  // written in order by whichever thread finds the next one ready (one at
  // a time, up to 64 blocks in one writev), so that the writing overlaps
  // the compressing; the disk is asked to start on every MiB written, so
  // that the final sync has little left to do.
  const std::size_t raw_max = static_cast<std::size_t>(block_entries_) * entry_bytes_;
  const std::int64_t blocks = blocks_;
  const std::int64_t first = first_, count = count_, block_entries = block_entries_;
  const std::uint32_t entry_bytes = entry_bytes_, codec = codec_;
  const int fd = fd_;
  const std::string& tmp = tmp_;
  const int workers = static_cast<int>(std::clamp<std::int64_t>(threads, 1, std::max<std::int64_t>(blocks, 1)));
  const std::int64_t ring = 16 * workers;
  struct slot {
    std::vector<char> stored;
    std::size_t bytes = 0, n = 0;
    std::uint64_t sum = 0;
    std::atomic<std::int64_t> ready{-1};  // the block it holds, once compressed
  };
  std::vector<slot> slots(static_cast<std::size_t>(ring));
  std::vector<char>& index = index_;
  index.clear();
  index.reserve(static_cast<std::size_t>(blocks) * index_entry_bytes);
  std::uint64_t& offset = offset_;
  std::uint64_t flushed = 0;
  std::atomic<std::int64_t> next{0}, written{0};
  std::atomic<bool> writing{false}, failed{false};
  std::exception_ptr first_error;
  std::mutex error_mutex;

  // Writes the ready blocks that follow the written ones. seq_cst on
  // `writing` and `ready`: a block made ready while another thread writes
  // is seen by that thread when it lets go, or this one gets the turn.
  auto drain = [&] {
    for (;;) {
      if (writing.exchange(true)) return;
      std::int64_t w = written.load();
      // The ready blocks that follow, up to 64 of them, in one writev.
      iovec io[64];
      int k = 0;
      for (slot* sl; k < 64 && w + k < blocks && (sl = &slots[static_cast<std::size_t>((w + k) % ring)])->ready.load() == w + k; ++k) {
        char e[index_entry_bytes];
        char* q = e;
        put<std::uint64_t>(q, offset);
        put<std::uint32_t>(q, static_cast<std::uint32_t>(sl->bytes));
        put<std::uint32_t>(q, static_cast<std::uint32_t>(sl->n));
        put<std::uint64_t>(q, sl->sum);
        index.insert(index.end(), e, e + sizeof e);
        io[k] = {sl->stored.data(), sl->bytes};
        offset += sl->bytes;
      }
      try {
        write_all(fd, io, k, tmp);
      } catch (...) {
        writing.store(false);
        throw;
      }
      if (offset - flushed >= (std::uint64_t{1} << 20)) {
        ::sync_file_range(fd, static_cast<off_t>(flushed), static_cast<off_t>(offset - flushed), SYNC_FILE_RANGE_WRITE);
        flushed = offset;
      }
      w += k;
      written.store(w);
      writing.store(false);
      if (!(w < blocks && slots[static_cast<std::size_t>(w % ring)].ready.load() == w)) return;
    }
  };
  auto compress = [&] {
    zstd_cctx z;
    std::vector<char> scratch(raw_max ? raw_max : 1), planes((codec & codec_planes) ? scratch.size() : 0);
    try {
      for (std::int64_t b; !failed.load(std::memory_order_relaxed) && (b = next.fetch_add(1)) < blocks;) {
        // Slot b % ring is free once block b - ring is written.
        while (written.load() <= b - ring) {
          if (failed.load(std::memory_order_relaxed)) return;
          drain();
          std::this_thread::yield();
        }
        slot& sl = slots[static_cast<std::size_t>(b % ring)];
        std::int64_t lo = first + b * block_entries, hi = std::min(first + count, lo + block_entries);
        sl.n = static_cast<std::size_t>(hi - lo) * entry_bytes;
        sl.stored.resize(compress_bound(raw_max));
        const char* in = source(lo, hi, scratch.data());
        if (codec & codec_planes) {
          to_planes(in, static_cast<std::size_t>(hi - lo), entry_bytes, planes.data());
          in = planes.data();
        }
        sl.bytes = compress_block(codec, level_, z.c, in, sl.n, sl.stored.data(), sl.stored.size(), tmp, b);
        sl.sum = checksum(sl.stored.data(), sl.bytes);
        sl.ready.store(b);
        drain();
      }
    } catch (...) {
      std::lock_guard<std::mutex> g(error_mutex);
      if (!first_error) first_error = std::current_exception();
      failed.store(true);
    }
  };
  std::vector<std::thread> others;
  for (int t = 1; t < workers; ++t) others.emplace_back(compress);
  compress();
  for (auto& t : others) t.join();
  if (first_error) std::rethrow_exception(first_error);
  drain();  // every block is compressed: what is left is written here
  // The block index (each block's place, sizes and checksum) stands for
  // the entries: the same entries saved with the same options give the
  // same index.
  return checksum(index.data(), index.size());
}

part_summary part_writer::finish(std::uint64_t save_id) {
  char head[part_header_bytes] = {};
  char* p = head;
  std::memcpy(p, part_magic, 8);
  p += 8;
  put<std::uint32_t>(p, format_version);
  put<std::uint32_t>(p, static_cast<std::uint32_t>(part_));
  put<std::uint64_t>(p, save_id);
  put<std::uint64_t>(p, static_cast<std::uint64_t>(first_));
  put<std::uint64_t>(p, static_cast<std::uint64_t>(count_));
  put<std::uint64_t>(p, static_cast<std::uint64_t>(block_entries_));
  put<std::uint32_t>(p, entry_bytes_);
  put<std::uint32_t>(p, codec_);
  put<std::uint64_t>(p, checksum(head, 56));
  write_all(fd_, index_.data(), index_.size(), tmp_);
  char tail[trailer_bytes];
  p = tail;
  put<std::uint64_t>(p, offset_);
  put<std::uint64_t>(p, static_cast<std::uint64_t>(blocks_));
  put<std::uint64_t>(p, checksum(index_.data(), index_.size()));
  std::memcpy(p, end_magic, 8);
  write_all(fd_, tail, sizeof tail, tmp_);
  if (::pwrite(fd_, head, sizeof head, 0) != static_cast<ssize_t>(sizeof head))
    throw table_file_error(sys_error("cannot write its header", tmp_), tmp_);
  int fd = fd_;
  fd_ = -1;
  try {
    finish_file(fd, tmp_, path_, dir_);
  } catch (...) {
    ::unlink(tmp_.c_str());
    throw;
  }
  return {blocks_, offset_ + index_.size() + trailer_bytes};
}

std::string format_header(const table_file_info& info) {
  std::ostringstream s;
  s << header_magic << " " << info.version << "\n";
  s << "name " << info.name << "\n";
  s << "entry-type " << info.entry_type << "\n";
  s << "entry-bytes " << info.entry_bytes << "\n";
  s << "entries " << info.entries << "\n";
  s << "spread " << spread_word(info.how) << "\n";
  s << "block-entries " << info.block_entries << "\n";
  s << "codec " << info.codec << "\n";
  char id[32];
  std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(info.save_id));
  s << "save-id " << id << "\n";
  s << "parts " << info.parts.size() << "\n";
  for (std::size_t k = 0; k < info.parts.size(); ++k)
    s << "part " << k << " " << info.parts[k].file << " " << info.parts[k].first << " " << info.parts[k].count << "\n";
  std::string body = s.str();
  char sum[40];
  std::snprintf(sum, sizeof sum, "checksum %016llx\n", static_cast<unsigned long long>(checksum(body.data(), body.size())));
  return body + sum;
}

table_file_info parse_header(const std::string& text, const std::string& path) {
  auto bad = [&](const std::string& what) -> table_file_error {
    return table_file_error("tascell: table file '" + path + "': " + what, path);
  };
  std::size_t at = text.rfind("checksum ");
  if (text.rfind(header_magic, 0) != 0) throw bad("is not a table header (it does not start with '" + std::string(header_magic) + "')");
  if (at == std::string::npos || (at > 0 && text[at - 1] != '\n')) throw bad("has no checksum line: the file is truncated");
  unsigned long long want = 0;
  if (std::sscanf(text.c_str() + at, "checksum %llx", &want) != 1 || checksum(text.data(), at) != want)
    throw bad("fails its checksum: the header is corrupt");
  std::istringstream in(text.substr(0, at));
  table_file_info info;
  std::string word, line;
  auto field = [&](const char* key) -> std::string {
    if (!std::getline(in, line)) throw bad(std::string("ends before its '") + key + "' line");
    std::string k = line.substr(0, line.find(' '));
    if (k != key) throw bad(std::string("has '") + k + "' where '" + key + "' belongs");
    return line.size() > k.size() ? line.substr(k.size() + 1) : std::string();
  };
  auto number = [&](const char* key) -> std::int64_t {
    std::string v = field(key);
    char* end = nullptr;
    long long x = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end || x < 0) throw bad(std::string("has a bad ") + key + ": '" + v + "'");
    return x;
  };
  std::getline(in, line);
  if (std::sscanf(line.c_str(), "tascell-table %u", &info.version) != 1) throw bad("has a bad first line");
  if (info.version != format_version)
    throw bad("is in format version " + std::to_string(info.version) + "; this library reads version " +
              std::to_string(format_version));
  info.name = field("name");
  info.entry_type = field("entry-type");
  info.entry_bytes = static_cast<std::uint32_t>(number("entry-bytes"));
  info.entries = number("entries");
  std::string how = field("spread");
  if (how == "block") info.how = tascell::spread::block;
  else if (how == "hashed") info.how = tascell::spread::hashed;
  else throw bad("has an unknown spread '" + how + "'");
  info.block_entries = number("block-entries");
  info.codec = field("codec");
  if (codec_field(info.codec) == 0)
    throw bad("is compressed with '" + info.codec + "'; this library reads zstd and lz4, each with +planes or not");
  info.save_id = std::strtoull(field("save-id").c_str(), nullptr, 16);
  std::int64_t parts = number("parts");
  std::int64_t next = 0;
  for (std::int64_t k = 0; k < parts; ++k) {
    std::istringstream p(field("part"));
    std::int64_t no = -1;
    table_file_part d;
    if (!(p >> no >> d.file >> d.first >> d.count) || no != k || d.first != next || d.count < 0)
      throw bad("has a bad line for part " + std::to_string(k) + ": '" + line + "'");
    next += d.count;
    info.parts.push_back(d);
  }
  if (next != info.entries)
    throw bad("has parts that hold " + std::to_string(next) + " entries of its " + std::to_string(info.entries));
  if (info.entry_bytes == 0 || (info.block_entries == 0 && info.entries > 0)) throw bad("has a zero size");
  return info;
}

void write_header(const table_file_info& info) {
  std::string path = header_path(info.dir), tmp = path + ".tmp";
  std::string text = format_header(info);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw table_file_error(sys_error("cannot create", tmp), tmp);
  try {
    write_all(fd, text.data(), text.size(), tmp);
  } catch (...) {
    ::close(fd);
    throw;
  }
  finish_file(fd, tmp, path, info.dir);
}

void begin_save(const std::string& dir, bool remove_header) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw table_file_error("tascell: table file directory '" + dir + "': " + ec.message(), dir);
  if (remove_header) std::filesystem::remove(header_path(dir), ec);
}

std::int64_t block_entries_for(const save_options& o, std::size_t entry_bytes) {
  return std::max<std::int64_t>(1, o.block_bytes / static_cast<std::int64_t>(entry_bytes));
}

std::uint64_t save_id(std::int64_t n, const char* entry_type, std::size_t entry_bytes,
                      const std::vector<std::uint64_t>& part_checksums) {
  std::string ids = std::to_string(n);
  ids.append(" ").append(entry_type).append(" ").append(std::to_string(entry_bytes));
  for (std::uint64_t h : part_checksums) ids.append(" ").append(std::to_string(h));
  return checksum(ids.data(), ids.size());
}

void finish_save(table_file_info info) {
  info.version = format_version;
  write_header(info);
  for (std::size_t r = info.parts.size();; ++r) {
    std::error_code ec;
    if (!std::filesystem::remove(info.dir + "/" + part_name(static_cast<int>(r)), ec)) break;
  }
}

// --- reading ---

part_file::part_file(const table_file_info& info, std::size_t part) {
  const table_file_part& d = info.parts.at(part);
  path_ = info.dir + "/" + d.file;
  first_ = d.first;
  count_ = d.count;
  block_entries_ = info.block_entries;
  entry_bytes_ = info.entry_bytes;
  codec_ = codec_field(info.codec);
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0)
    throw table_file_error(sys_error(errno == ENOENT ? "is missing" : "cannot be opened", path_), path_);
  struct stat st;
  if (::fstat(fd_, &st) != 0) fail(std::string("cannot be read: ") + std::strerror(errno));
  file_bytes_ = static_cast<std::uint64_t>(st.st_size);
  if (file_bytes_ < part_header_bytes + trailer_bytes)
    fail("is truncated: " + std::to_string(file_bytes_) + " bytes, less than a header and a trailer");
  char head[part_header_bytes];
  if (!read_at(fd_, head, sizeof head, 0)) fail("cannot read its header");
  const char* p = head;
  if (std::memcmp(p, part_magic, 8) != 0) fail("is not a part file of a table (its first bytes are not TCTPART1)");
  p += 8;
  auto version = take<std::uint32_t>(p);
  auto no = take<std::uint32_t>(p);
  auto id = take<std::uint64_t>(p);
  auto f = take<std::uint64_t>(p);
  auto c = take<std::uint64_t>(p);
  auto be = take<std::uint64_t>(p);
  auto eb = take<std::uint32_t>(p);
  auto codec = take<std::uint32_t>(p);
  auto sum = take<std::uint64_t>(p);
  if (sum != checksum(head, 56)) fail("fails the checksum of its header: the file is corrupt");
  if (version != format_version) fail("is in format version " + std::to_string(version));
  if (no != part || id != info.save_id)
    fail("belongs to another save (part " + std::to_string(no) + " of save " + std::to_string(id) +
         "; the header names part " + std::to_string(part) + " of save " + std::to_string(info.save_id) +
         "): a save was interrupted, or files of two saves were mixed");
  if (static_cast<std::int64_t>(f) != first_ || static_cast<std::int64_t>(c) != count_ ||
      static_cast<std::int64_t>(be) != block_entries_ || eb != entry_bytes_ || codec != codec_)
    fail("does not match the header (its positions, block size, entry size or codec differ)");

  char tail[trailer_bytes];
  if (!read_at(fd_, tail, sizeof tail, file_bytes_ - trailer_bytes)) fail("cannot read its trailer");
  p = tail;
  auto index_at = take<std::uint64_t>(p);
  auto blocks = take<std::uint64_t>(p);
  auto index_sum = take<std::uint64_t>(p);
  std::int64_t want_blocks = block_entries_ > 0 ? (count_ + block_entries_ - 1) / block_entries_ : 0;
  if (std::memcmp(p, end_magic, 8) != 0 || static_cast<std::int64_t>(blocks) != want_blocks ||
      index_at + blocks * index_entry_bytes + trailer_bytes != file_bytes_)
    fail("is truncated or has bytes appended: its trailer is not at its end (" + std::to_string(file_bytes_) +
         " bytes)");
  std::vector<char> raw(blocks * index_entry_bytes);
  if (!read_at(fd_, raw.data(), raw.size(), index_at)) fail("cannot read its index");
  if (checksum(raw.data(), raw.size()) != index_sum) fail("fails the checksum of its block index: the file is corrupt");
  index_.resize(blocks);
  p = raw.data();
  std::uint64_t next = part_header_bytes;
  for (auto& b : index_) {
    b.offset = take<std::uint64_t>(p);
    b.stored = take<std::uint32_t>(p);
    b.raw = take<std::uint32_t>(p);
    b.sum = take<std::uint64_t>(p);
    if (b.offset != next) fail("has a block index that does not follow its blocks");
    next += b.stored;
  }
  if (next != index_at) fail("has a block index that does not end where its blocks end");
  direct_fd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
}

part_file::~part_file() {
  if (fd_ >= 0) ::close(fd_);
  if (direct_fd_ >= 0) ::close(direct_fd_);
}

void part_file::fail(const std::string& what, std::int64_t block) const {
  std::string where = block >= 0 ? "block " + std::to_string(block) + " " : std::string();
  throw table_file_error("tascell: table file '" + path_ + "': " + where + what, path_, block);
}

std::int64_t part_file::block_count(std::int64_t b) const {
  std::int64_t lo = b * block_entries_;
  return std::min(count_ - lo, block_entries_);
}

void part_file::read_block(std::int64_t b, char* out) const {
  const block_ref& r = index_[static_cast<std::size_t>(b)];
  thread_local std::vector<char> stored;
  stored.resize(r.stored);
  if (!read_at(fd_, stored.data(), r.stored, r.offset)) fail("cannot be read (the file is shorter than its index)", b);
  decode_block(b, stored.data(), out);
}

char* run_buffer::room(std::size_t bytes) {
  if (bytes > capacity_) {
    std::size_t want = (bytes + align - 1) / align * align;
    p_.reset(static_cast<char*>(std::aligned_alloc(align, want)));
    if (!p_) throw std::bad_alloc();
    capacity_ = want;
  }
  return p_.get();
}

const char* part_file::read_stored(std::int64_t b0, std::int64_t b1, run_buffer& room) const {
  const block_ref& a = index_[static_cast<std::size_t>(b0)];
  const block_ref& z = index_[static_cast<std::size_t>(b1 - 1)];
  const std::uint64_t end = z.offset + z.stored;
  if (direct_fd_ >= 0) {
    // Whole pages around the run; the last may be cut by the file's end.
    const std::uint64_t from = a.offset / run_buffer::align * run_buffer::align;
    const std::uint64_t to = (end + run_buffer::align - 1) / run_buffer::align * run_buffer::align;
    char* p = room.room(to - from);
    std::uint64_t got = 0;
    while (from + got < end) {
      ssize_t k = ::pread(direct_fd_, p + got, to - from - got, static_cast<off_t>(from + got));
      if (k < 0 && errno == EINTR) continue;
      if (k < 0 && errno == EINVAL && got == 0) break;  // refused after all: read through the page cache
      if (k <= 0) fail("cannot be read (the file is shorter than its index)", b0);
      got += static_cast<std::uint64_t>(k);
    }
    if (from + got >= end) return p + (a.offset - from);
    ::close(direct_fd_);
    direct_fd_ = -1;
  }
  char* p = room.room(end - a.offset);
  if (!read_at(fd_, p, end - a.offset, a.offset)) fail("cannot be read (the file is shorter than its index)", b0);
  return p;
}

void part_file::decode_block(std::int64_t b, const char* stored, char* out) const {
  const block_ref& r = index_[static_cast<std::size_t>(b)];
  std::size_t want = static_cast<std::size_t>(block_count(b)) * entry_bytes_;
  if (r.raw != want) fail("holds " + std::to_string(r.raw) + " bytes where " + std::to_string(want) + " belong", b);
  if (checksum(stored, r.stored) != r.sum) fail("fails its checksum: the file is corrupt", b);
  thread_local std::vector<char> planes;
  char* to = out;
  if (codec_ & codec_planes) {
    planes.resize(want);
    to = planes.data();
  }
  if ((codec_ & 0xff) == codec_lz4) {
    int k = LZ4_decompress_safe(stored, to, static_cast<int>(r.stored), static_cast<int>(want));
    if (k < 0 || static_cast<std::size_t>(k) != want)
      fail(std::string("does not decompress to its size: ") + (k < 0 ? "LZ4 finds it malformed" : "short"), b);
  } else {
    thread_local zstd_dctx dc;
    std::size_t k = ZSTD_decompressDCtx(dc.d, to, want, stored, r.stored);
    if (ZSTD_isError(k) || k != want)
      fail(std::string("does not decompress to its size: ") + (ZSTD_isError(k) ? ZSTD_getErrorName(k) : "short"), b);
  }
  if (codec_ & codec_planes) from_planes(planes.data(), static_cast<std::size_t>(block_count(b)), entry_bytes_, out);
}

void read_positions(const std::vector<const part_file*>& parts, std::int64_t lo, std::int64_t hi,
                    std::uint32_t entry_bytes, char* out, int threads) {
  // Runs of blocks of about 4 MiB stored, each read in one call, then
  // checked and decompressed on `threads` threads while the next run is
  // read by a thread of its own (which waits for the disk).
  struct run_of {
    const part_file* f;
    std::int64_t b, e;
    const char* bytes = nullptr;
  };
  std::vector<run_of> runs;
  for (const part_file* f : parts) {
    std::int64_t a = std::max(lo, f->first()), z = std::min(hi, f->first() + f->count());
    if (a >= z) continue;
    std::int64_t b = (a - f->first()) / f->block_entries(), end = b;
    while (end < f->blocks() && f->block_first(end) < z) ++end;
    while (b < end) {
      std::int64_t e = b;
      std::uint64_t bytes = 0;
      while (e < end && (e == b || bytes + f->stored_bytes(e) <= (std::uint64_t{4} << 20))) bytes += f->stored_bytes(e++);
      runs.push_back({f, b, e});
      b = e;
    }
  }
  run_buffer rooms[2];
  auto read = [&](std::size_t r) { runs[r].bytes = runs[r].f->read_stored(runs[r].b, runs[r].e, rooms[r % 2]); };
  std::future<void> next;
  if (!runs.empty()) next = std::async(std::launch::async, read, 0);
  for (std::size_t r = 0; r < runs.size(); ++r) {
    next.get();
    if (r + 1 < runs.size()) next = std::async(std::launch::async, read, r + 1);
    const part_file* f = runs[r].f;
    const std::int64_t b0 = runs[r].b, e = runs[r].e;
    const char* run = runs[r].bytes;
    std::vector<std::size_t> at(static_cast<std::size_t>(e - b0) + 1, 0);
    for (std::int64_t k = b0; k < e; ++k)
      at[static_cast<std::size_t>(k - b0 + 1)] = at[static_cast<std::size_t>(k - b0)] + f->stored_bytes(k);
    try {
      parallel_for(e - b0, std::max(1, threads), [&](std::int64_t j, int) {
        std::int64_t k = b0 + j;
        const char* stored = run + at[static_cast<std::size_t>(j)];
        std::int64_t bl = f->block_first(k), bh = bl + f->block_count(k);
        std::int64_t from = std::max(lo, bl), to = std::min(hi, bh);
        char* dst = out + static_cast<std::size_t>(from - lo) * entry_bytes;
        if (from == bl && to == bh) {
          f->decode_block(k, stored, dst);  // the whole block: straight into place
        } else {
          thread_local std::vector<char> tmp;
          tmp.resize(static_cast<std::size_t>(bh - bl) * entry_bytes);
          f->decode_block(k, stored, tmp.data());
          std::memcpy(dst, tmp.data() + static_cast<std::size_t>(from - bl) * entry_bytes,
                      static_cast<std::size_t>(to - from) * entry_bytes);
        }
      });
    } catch (...) {
      if (next.valid()) next.wait();  // the read in flight ends before its room does
      throw;
    }
  }
}

void read_index_order(const std::vector<const part_file*>& parts, const table_shape& order, std::uint32_t entry_bytes,
                      char* data) {
  std::vector<char> block;
  for (const part_file* f : parts)
    for (std::int64_t b = 0; b < f->blocks(); ++b) {
      block.resize(static_cast<std::size_t>(f->block_count(b)) * entry_bytes);
      f->read_block(b, block.data());
      const char* in = block.data();
      for (std::int64_t p = f->block_first(b), e = p + f->block_count(b); p < e; ++p, in += entry_bytes)
        std::memcpy(data + static_cast<std::size_t>(order.to_index(p)) * entry_bytes, in, entry_bytes);
    }
}

std::vector<std::string> verify(const std::string& dir, std::int64_t* blocks_checked) {
  std::vector<std::string> problems;
  std::int64_t checked = 0;
  table_file_info info;
  try {
    info = read_table_info(dir);
  } catch (const table_file_error& e) {
    problems.push_back(e.what());
    if (blocks_checked) *blocks_checked = 0;
    return problems;
  }
  std::vector<char> buf;
  for (std::size_t k = 0; k < info.parts.size(); ++k) {
    try {
      part_file f(info, k);
      buf.resize(static_cast<std::size_t>(f.block_entries()) * info.entry_bytes);
      for (std::int64_t b = 0; b < f.blocks(); ++b) {
        try {
          f.read_block(b, buf.data());
          ++checked;
        } catch (const table_file_error& e) {
          problems.push_back(e.what());
        }
      }
    } catch (const table_file_error& e) {
      problems.push_back(e.what());
    }
  }
  if (blocks_checked) *blocks_checked = checked;
  return problems;
}

}  // namespace tascell::detail::files

namespace tascell::detail {

table_file_info read_table_info(const std::string& dir) {
  std::string path = files::header_path(dir);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    struct stat st;
    bool is_dir = ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    throw table_file_error("tascell: table file '" + path + "' is missing" +
                               (is_dir ? std::string(": the save did not complete, or this is not a saved table")
                                       : std::string(": there is no directory '" + dir + "'")),
                           path);
  }
  std::ostringstream s;
  s << in.rdbuf();
  table_file_info info = files::parse_header(s.str(), path);
  info.dir = dir;
  return info;
}

void check_entry_type(const table_file_info& info, const char* type_name, std::size_t bytes) {
  if (info.entry_bytes != bytes || info.entry_type != type_name)
    throw table_file_error("tascell: table file '" + files::header_path(info.dir) + "' holds entries of type '" +
                               info.entry_type + "' (" + std::to_string(info.entry_bytes) +
                               " bytes); this table's type is '" + type_name + "' (" + std::to_string(bytes) +
                               " bytes)",
                           files::header_path(info.dir));
}

}  // namespace tascell::detail
