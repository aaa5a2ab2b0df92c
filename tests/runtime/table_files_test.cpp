// The table file format without processes (runtime/src/tables/
// table_format.hpp): the file order does not depend on the number of
// processes (what lets a table saved on P processes load on Q), the
// header's text round trip and its checks, and a part written and read
// back block by block with each codec, then damaged; the same bytes from
// any number of threads; byte planes. check_table_files.py tries the same
// through save and load on 1-3 processes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tables/byte_planes.hpp"
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

// Each codec, with and without byte planes.
struct coding {
  tascell::table_codec codec;
  bool planes;
};
class TableFilesCoded : public ::testing::TestWithParam<coding> {};

std::string coding_name(const ::testing::TestParamInfo<coding>& p) {
  return std::string(p.param.codec == tascell::table_codec::lz4 ? "lz4" : "zstd") + (p.param.planes ? "_planes" : "");
}

tascell::save_options options_of(const coding& c) {
  tascell::save_options o;
  o.codec = c.codec;
  o.byte_planes = c.planes;
  return o;
}

TEST_P(TableFilesCoded, PartWrittenReadAndDamaged) {
  scratch s;
  auto info = sample(s.dir);
  tascell::save_options o = options_of(GetParam());
  info.codec = files::codec_word(o, 4);
  auto value = [](std::int64_t p) { return static_cast<std::uint32_t>(p * 40503u) & 0xff0fu; };
  for (int k = 0; k < 2; ++k) {
    files::part_writer w(s.dir, k, info.parts[k].first, info.parts[k].count, 4, 64, o);
    w.write_blocks([&](std::int64_t lo, std::int64_t hi, char* out) {
      char* at = out;
      for (std::int64_t p = lo; p < hi; ++p, at += 4) {
        std::uint32_t v = value(p);
        std::memcpy(at, &v, 4);
      }
      return static_cast<const char*>(out);
    }, 1 + k * 2);
    auto sum = w.finish(info.save_id);
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

// The entries' checksum (the save id's part) and the bytes written depend
// on the entries and the options, not on how many threads compressed them
// nor on whether the entries lay in place.
TEST_P(TableFilesCoded, SameBytesOnAnyNumberOfThreads) {
  scratch s;
  tascell::save_options o = options_of(GetParam());
  std::vector<std::uint16_t> data(100000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint16_t>((i * i) % 977);
  std::vector<std::uint64_t> sums;
  std::vector<std::string> bytes;
  for (int threads : {1, 2, 5}) {
    std::string dir = s.dir + "/t" + std::to_string(threads);
    std::filesystem::create_directories(dir);
    files::part_writer w(dir, 0, 0, static_cast<std::int64_t>(data.size()), 2, 1000, o);
    sums.push_back(w.write_blocks([&](std::int64_t lo, std::int64_t hi, char* out) {
      if (threads == 2) return reinterpret_cast<const char*>(&data[static_cast<std::size_t>(lo)]);  // in place
      std::memcpy(out, &data[static_cast<std::size_t>(lo)], static_cast<std::size_t>(hi - lo) * 2);
      return static_cast<const char*>(out);
    }, threads));
    w.finish(7);
    std::ifstream in(dir + "/part-0.tcb", std::ios::binary);
    bytes.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  EXPECT_EQ(sums[0], sums[1]);
  EXPECT_EQ(sums[0], sums[2]);
  EXPECT_EQ(bytes[0], bytes[1]);
  EXPECT_EQ(bytes[0], bytes[2]);
  // Other entries, another checksum.
  data[500] ^= 1;
  files::part_writer w(s.dir, 9, 0, static_cast<std::int64_t>(data.size()), 2, 1000, o);
  EXPECT_NE(w.write_blocks([&](std::int64_t lo, std::int64_t, char*) {
    return reinterpret_cast<const char*>(&data[static_cast<std::size_t>(lo)]);
  }), sums[0]);
}

INSTANTIATE_TEST_SUITE_P(Codecs, TableFilesCoded,
                         ::testing::Values(coding{tascell::table_codec::zstd, false},
                                           coding{tascell::table_codec::zstd, true},
                                           coding{tascell::table_codec::lz4, false},
                                           coding{tascell::table_codec::lz4, true}),
                         coding_name);

// A part whose writer ends before finish (a failed save) leaves no file.
TEST(TableFiles, UnfinishedPartLeavesNothing) {
  scratch s;
  {
    files::part_writer w(s.dir, 0, 0, 1000, 1, 64, tascell::save_options{});
    std::vector<char> ones(1000, 1);
    w.write_blocks([&](std::int64_t lo, std::int64_t, char*) { return ones.data() + lo; });
  }
  EXPECT_TRUE(std::filesystem::is_empty(s.dir));
}

// The codec's word in the header: byte planes only for entries of more
// than one byte; words this library does not know are refused by name.
TEST(TableFiles, CodecWords) {
  tascell::save_options o;
  EXPECT_EQ(files::codec_word(o, 2), "zstd+planes");
  EXPECT_EQ(files::codec_word(o, 1), "zstd");
  o.codec = tascell::table_codec::lz4;
  EXPECT_EQ(files::codec_word(o, 3), "lz4+planes");
  o.byte_planes = false;
  EXPECT_EQ(files::codec_word(o, 3), "lz4");
  EXPECT_EQ(files::codec_field("lz4+planes"), files::codec_lz4 | files::codec_planes);
  EXPECT_EQ(files::codec_field("zstd"), files::codec_zstd);
  EXPECT_EQ(files::codec_field("brotli"), 0u);
  EXPECT_EQ(files::codec_field("+planes"), 0u);
  scratch s;
  auto info = sample(s.dir);
  info.codec = "brotli+planes";
  try {
    files::parse_header(files::format_header(info), "h");
    FAIL() << "an unknown codec was read";
  } catch (const tascell::table_file_error& e) {
    EXPECT_NE(std::string(e.what()).find("is compressed with 'brotli+planes'"), std::string::npos) << e.what();
  }
}

// Byte planes and back, for every entry size up to 9 (the sizes with a
// loop of their own and the others).
TEST(TableFiles, BytePlanesRoundTrip) {
  for (std::size_t e = 1; e <= 9; ++e) {
    const std::size_t n = 1000 + e;
    std::vector<char> in(n * e), planes(n * e), back(n * e);
    for (std::size_t k = 0; k < in.size(); ++k) in[k] = static_cast<char>(k * 31 + k / 7);
    files::to_planes(in.data(), n, e, planes.data());
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < e; ++j) ASSERT_EQ(planes[j * n + i], in[i * e + j]) << e << " " << i << " " << j;
    files::from_planes(planes.data(), n, e, back.data());
    ASSERT_EQ(back, in) << e;
  }
}
