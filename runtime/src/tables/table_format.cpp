// The table file format: part files and the header (table_format.hpp).
#include "table_format.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

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

void finish(int fd, const std::string& tmp, const std::string& path, const std::string& dir) {
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
struct zstd_dctx {
  ZSTD_DCtx* d = ZSTD_createDCtx();
  ~zstd_dctx() { ZSTD_freeDCtx(d); }
};

}  // namespace

std::uint64_t checksum(const void* bytes, std::size_t n) { return XXH3_64bits(bytes, n); }

std::string header_path(const std::string& dir) { return dir + "/table.tct"; }
std::string part_name(int part) { return "part-" + std::to_string(part) + ".tcb"; }

part_summary write_part(const std::string& dir, int part, std::uint64_t save_id, std::int64_t first,
                        std::int64_t count, std::uint32_t entry_bytes, std::int64_t block_entries, int level,
                        const fill_fn& fill, int threads) {
  std::string path = dir + "/" + part_name(part), tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw table_file_error(sys_error("cannot create", tmp), tmp);
  try {
    char head[part_header_bytes] = {};
    char* p = head;
    std::memcpy(p, part_magic, 8);
    p += 8;
    put<std::uint32_t>(p, format_version);
    put<std::uint32_t>(p, static_cast<std::uint32_t>(part));
    put<std::uint64_t>(p, save_id);
    put<std::uint64_t>(p, static_cast<std::uint64_t>(first));
    put<std::uint64_t>(p, static_cast<std::uint64_t>(count));
    put<std::uint64_t>(p, static_cast<std::uint64_t>(block_entries));
    put<std::uint32_t>(p, entry_bytes);
    put<std::uint32_t>(p, codec_zstd);
    put<std::uint64_t>(p, checksum(head, 56));
    write_all(fd, head, sizeof head, tmp);

    // Windows of blocks compressed on `threads` threads, written in order;
    // each thread keeps its zstd context and raw buffer for the whole part.
    std::size_t raw_max = static_cast<std::size_t>(block_entries) * entry_bytes;
    const std::int64_t blocks = block_entries > 0 ? (count + block_entries - 1) / block_entries : 0;
    const int workers = std::max(1, threads);
    const std::int64_t window = 32 * workers;
    struct slot {
      std::vector<char> stored;
      std::size_t bytes = 0, n = 0;
    };
    std::vector<slot> slots(static_cast<std::size_t>(std::min(window, std::max<std::int64_t>(blocks, 1))));
    std::vector<zstd_cctx> contexts(static_cast<std::size_t>(workers));
    std::vector<std::vector<char>> raws(static_cast<std::size_t>(workers), std::vector<char>(raw_max ? raw_max : 1));
    std::vector<char> index;
    std::uint64_t offset = part_header_bytes;
    for (std::int64_t w0 = 0; w0 < blocks; w0 += window) {
      std::int64_t in_window = std::min(window, blocks - w0);
      parallel_for(in_window, workers, [&](std::int64_t j, int t) {
        slot& sl = slots[static_cast<std::size_t>(j)];
        std::vector<char>& raw = raws[static_cast<std::size_t>(t)];
        std::int64_t b = w0 + j, lo = first + b * block_entries, hi = std::min(first + count, lo + block_entries);
        sl.n = static_cast<std::size_t>(hi - lo) * entry_bytes;
        sl.stored.resize(ZSTD_compressBound(raw_max));
        fill(lo, hi, raw.data());
        std::size_t k = ZSTD_compressCCtx(contexts[static_cast<std::size_t>(t)].c, sl.stored.data(), sl.stored.size(),
                                          raw.data(), sl.n, level);
        if (ZSTD_isError(k))
          throw table_file_error("tascell: table file '" + tmp + "': zstd cannot compress block " + std::to_string(b) +
                                     ": " + ZSTD_getErrorName(k),
                                 tmp, b);
        sl.bytes = k;
      });
      for (std::int64_t j = 0; j < in_window; ++j) {
        const slot& sl = slots[static_cast<std::size_t>(j)];
        char e[index_entry_bytes];
        char* q = e;
        put<std::uint64_t>(q, offset);
        put<std::uint32_t>(q, static_cast<std::uint32_t>(sl.bytes));
        put<std::uint32_t>(q, static_cast<std::uint32_t>(sl.n));
        put<std::uint64_t>(q, checksum(sl.stored.data(), sl.bytes));
        index.insert(index.end(), e, e + sizeof e);
        write_all(fd, sl.stored.data(), sl.bytes, tmp);
        offset += sl.bytes;
      }
    }
    write_all(fd, index.data(), index.size(), tmp);
    char tail[trailer_bytes];
    p = tail;
    put<std::uint64_t>(p, offset);
    put<std::uint64_t>(p, static_cast<std::uint64_t>(blocks));
    put<std::uint64_t>(p, checksum(index.data(), index.size()));
    std::memcpy(p, end_magic, 8);
    write_all(fd, tail, sizeof tail, tmp);
    finish(fd, tmp, path, dir);
    fd = -1;
    return {blocks, offset + index.size() + trailer_bytes};
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
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
  if (info.codec != "zstd") throw bad("is compressed with '" + info.codec + "'; this library reads zstd");
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
  finish(fd, tmp, path, info.dir);
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
  info.codec = "zstd";
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
      static_cast<std::int64_t>(be) != block_entries_ || eb != entry_bytes_ || codec != codec_zstd)
    fail("does not match the header (its positions, block size or entry size differ)");

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
}

part_file::~part_file() {
  if (fd_ >= 0) ::close(fd_);
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

void part_file::read_stored(std::int64_t b0, std::int64_t b1, std::vector<char>& out) const {
  const block_ref& a = index_[static_cast<std::size_t>(b0)];
  const block_ref& z = index_[static_cast<std::size_t>(b1 - 1)];
  out.resize(z.offset + z.stored - a.offset);
  if (!read_at(fd_, out.data(), out.size(), a.offset))
    fail("cannot be read (the file is shorter than its index)", b0);
}

void part_file::decode_block(std::int64_t b, const char* stored, char* out) const {
  const block_ref& r = index_[static_cast<std::size_t>(b)];
  std::size_t want = static_cast<std::size_t>(block_count(b)) * entry_bytes_;
  if (r.raw != want) fail("holds " + std::to_string(r.raw) + " bytes where " + std::to_string(want) + " belong", b);
  if (checksum(stored, r.stored) != r.sum) fail("fails its checksum: the file is corrupt", b);
  thread_local zstd_dctx dc;
  std::size_t k = ZSTD_decompressDCtx(dc.d, out, want, stored, r.stored);
  if (ZSTD_isError(k) || k != want)
    fail(std::string("does not decompress to its size: ") + (ZSTD_isError(k) ? ZSTD_getErrorName(k) : "short"), b);
}

void read_positions(const std::vector<const part_file*>& parts, std::int64_t lo, std::int64_t hi,
                    std::uint32_t entry_bytes, char* out, int threads) {
  // Runs of blocks of about 8 MiB stored, each read in one call, then
  // checked and decompressed on `threads` threads.
  std::vector<char> run;
  for (const part_file* f : parts) {
    std::int64_t a = std::max(lo, f->first()), z = std::min(hi, f->first() + f->count());
    if (a >= z) continue;
    std::int64_t b = (a - f->first()) / f->block_entries(), end = b;
    while (end < f->blocks() && f->block_first(end) < z) ++end;
    while (b < end) {
      std::int64_t e = b;
      std::uint64_t bytes = 0;
      while (e < end && (e == b || bytes + f->stored_bytes(e) <= (std::uint64_t{8} << 20))) bytes += f->stored_bytes(e++);
      f->read_stored(b, e, run);
      std::vector<std::size_t> at(static_cast<std::size_t>(e - b) + 1, 0);
      for (std::int64_t k = b; k < e; ++k) at[static_cast<std::size_t>(k - b + 1)] = at[static_cast<std::size_t>(k - b)] + f->stored_bytes(k);
      const std::int64_t b0 = b;
      parallel_for(e - b, std::max(1, threads), [&](std::int64_t j, int) {
        std::int64_t k = b0 + j;
        const char* stored = run.data() + at[static_cast<std::size_t>(j)];
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
      b = e;
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
