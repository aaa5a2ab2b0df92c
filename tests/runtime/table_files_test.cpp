// The table file format without processes (runtime/src/tables/
// table_format.hpp): the file order does not depend on the number of
// processes (what lets a table saved on P processes load on Q), the
// header's text round trip and its checks, and a part written and read
// back block by block, then damaged. check_table_files.py tries the same
// through save and load on 1-3 processes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tables/table_format.hpp"

namespace files = tascell::detail::files;
using tascell::detail::table_shape;

TEST(TableFiles, FileOrderIsTheSameForEveryNumberOfProcesses) {
  for (std::int64_t n : {1, 2, 5, 1000, 4097, 100003}) {
    table_shape two(n, tascell::spread::hashed, 2, 0);
    std::vector<bool> seen(static_cast<std::size_t>(n));
    for (int procs : {3, 4, 7}) {
      table_shape other(n, tascell::spread::hashed, procs, procs - 1);
      for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(two.to_pos(i), other.to_pos(i)) << n << " " << procs;
    }
    for (std::int64_t i = 0; i < n; ++i) {
      std::int64_t p = two.to_pos(i);
      ASSERT_TRUE(p >= 0 && p < n && !seen[static_cast<std::size_t>(p)]);
      seen[static_cast<std::size_t>(p)] = true;
      ASSERT_EQ(two.to_index(p), i);
    }
  }
}

namespace {

tascell::table_file_info sample(const std::string& dir) {
  tascell::table_file_info info;
  info.dir = dir;
  info.version = files::format_version;
  info.name = "white table";
  info.entry_type = "5entry";
  info.entry_bytes = 4;
  info.entries = 1000;
  info.how = tascell::spread::hashed;
  info.block_entries = 64;
  info.codec = "zstd";
  info.save_id = 0x0123456789abcdefull;
  info.parts = {{"part-0.tcb", 0, 600}, {"part-1.tcb", 600, 400}};
  return info;
}

struct scratch {
  std::string dir;
  scratch() {
    char t[] = "/tmp/tascell-table-test-XXXXXX";
    dir = ::mkdtemp(t);
  }
  ~scratch() { std::filesystem::remove_all(dir); }
};

}  // namespace

TEST(TableFiles, HeaderRoundTripAndChecks) {
  auto info = sample("/nowhere");
  std::string text = files::format_header(info);
  auto back = files::parse_header(text, "h");
  EXPECT_EQ(back.name, "white table");
  EXPECT_EQ(back.entry_type, "5entry");
  EXPECT_EQ(back.entries, 1000);
  EXPECT_EQ(back.how, tascell::spread::hashed);
  EXPECT_EQ(back.save_id, info.save_id);
  ASSERT_EQ(back.parts.size(), 2u);
  EXPECT_EQ(back.parts[1].first, 600);
  // Any changed byte is found.
  for (std::size_t at = 0; at + 1 < text.size(); at += 7) {
    std::string bad = text;
    bad[at] ^= 0x01;
    EXPECT_THROW(files::parse_header(bad, "h"), tascell::table_file_error) << at;
  }
  // Truncated.
  EXPECT_THROW(files::parse_header(text.substr(0, text.size() / 2), "h"), tascell::table_file_error);
  // Parts that do not cover the entries (checksum made right again).
  info.parts[1].count = 399;
  EXPECT_THROW(files::parse_header(files::format_header(info), "h"), tascell::table_file_error);
}

TEST(TableFiles, PartWrittenReadAndDamaged) {
  scratch s;
  auto info = sample(s.dir);
  auto value = [](std::int64_t p) { return static_cast<std::uint32_t>(p * 40503u) & 0xff0fu; };
  for (int k = 0; k < 2; ++k) {
    auto sum = files::write_part(s.dir, k, info.save_id, info.parts[k].first, info.parts[k].count, 4, 64, 1,
                                 [&](std::int64_t lo, std::int64_t hi, char* out) {
                                   for (std::int64_t p = lo; p < hi; ++p, out += 4) {
                                     std::uint32_t v = value(p);
                                     std::memcpy(out, &v, 4);
                                   }
                                 });
    EXPECT_EQ(sum.blocks, (info.parts[k].count + 63) / 64);
  }
  files::write_header(info);
  EXPECT_TRUE(files::verify(s.dir).empty());
  files::part_file p0(info, 0), p1(info, 1);
  // Positions 500..700 straddle both parts and several blocks.
  std::vector<std::uint32_t> got(200);
  files::read_positions({&p0, &p1}, 500, 700, 4, reinterpret_cast<char*>(got.data()));
  for (std::int64_t p = 500; p < 700; ++p) ASSERT_EQ(got[static_cast<std::size_t>(p - 500)], value(p)) << p;
  EXPECT_EQ(p1.block_count(p1.blocks() - 1), 400 - 6 * 64);

  // A byte of block 3 of part 1 changed: named, with its block.
  std::string path = s.dir + "/part-1.tcb";
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    files::part_file before(info, 1);
    std::uint64_t at = files::part_header_bytes;
    for (int b = 0; b < 3; ++b) at += before.stored_bytes(b);
    f.seekg(static_cast<std::streamoff>(at + 2));
    char c;
    f.get(c);
    f.seekp(static_cast<std::streamoff>(at + 2));
    f.put(static_cast<char>(c ^ 0x40));
  }
  files::part_file damaged(info, 1);
  std::vector<char> buf(64 * 4);
  damaged.read_block(2, buf.data());
  try {
    damaged.read_block(3, buf.data());
    FAIL() << "a changed block was read";
  } catch (const tascell::table_file_error& e) {
    EXPECT_EQ(e.block(), 3);
    EXPECT_EQ(e.file(), path);
    EXPECT_NE(std::string(e.what()).find("block 3 fails its checksum"), std::string::npos) << e.what();
  }
  auto problems = files::verify(s.dir);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("part-1.tcb': block 3"), std::string::npos) << problems[0];
  // Truncated by one byte: its trailer is not at its end.
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 1);
  EXPECT_THROW(files::part_file(info, 1), tascell::table_file_error);
}
