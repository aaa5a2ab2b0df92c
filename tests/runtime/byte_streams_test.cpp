// Packing in place (net/byte_streams.hpp, net/frame.hpp): cereal writes a
// piece's inputs straight after a message's fields and reads them from the
// bytes received; a sink with a limit stops at it (a piece too big for a
// mailbox is not packed whole only to be refused).
#include <gtest/gtest.h>

#include <cereal/archives/binary.hpp>
#include <cereal/types/vector.hpp>
#include <cstdint>
#include <cstring>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "net/byte_streams.hpp"
#include "net/frame.hpp"

namespace tascell::detail::net {
namespace {

std::vector<double> ramp(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i) * 0.5;
  return v;
}

TEST(ByteStreams, PacksAfterTheFieldsAndReadsInPlace) {
  std::string message = "prefix";
  writer w(message);
  w.put<std::uint64_t>(42);
  std::size_t at = w.open_bytes();
  std::vector<double> v = ramp(300000);  // 2.4 MB: past any small buffer
  {
    string_sink sink(w.out());
    std::ostream os(&sink);
    cereal::BinaryOutputArchive a(os);
    a(v);
  }
  std::uint64_t n = w.close_bytes(at);
  EXPECT_EQ(n, sizeof(std::uint64_t) + v.size() * sizeof(double));  // cereal: the size, then the elements
  EXPECT_EQ(message.size(), 6 + 8 + 8 + n);
  w.put<std::uint32_t>(7);  // a field after the bytes

  ASSERT_EQ(message.substr(0, 6), "prefix");
  reader r(std::string_view(message).substr(6));
  EXPECT_EQ(r.get<std::uint64_t>("a field"), 42u);
  std::string_view inputs = r.bytes("the inputs");
  EXPECT_EQ(inputs.size(), n);
  EXPECT_EQ(r.get<std::uint32_t>("a field"), 7u);
  EXPECT_TRUE(r.done());

  std::vector<double> back;
  view_source source(inputs);
  std::istream is(&source);
  cereal::BinaryInputArchive b(is);
  b(back);
  EXPECT_EQ(back, v);
}

TEST(ByteStreams, ASinkStopsAtItsLimit) {
  std::string body = "head";
  std::vector<double> v = ramp(100000);  // 800 KB
  constexpr std::size_t limit = 16384;
  {
    string_sink sink(body, limit);
    std::ostream os(&sink);
    cereal::BinaryOutputArchive a(os);
    EXPECT_THROW(a(v), cereal::Exception);
  }
  EXPECT_LE(body.size(), limit);
  EXPECT_EQ(body.substr(0, 4), "head");

  // What fits is written whole.
  std::string small;
  std::vector<double> few = ramp(100);
  {
    string_sink sink(small, limit);
    std::ostream os(&sink);
    cereal::BinaryOutputArchive a(os);
    a(few);
  }
  EXPECT_EQ(small.size(), sizeof(std::uint64_t) + few.size() * sizeof(double));
}

TEST(ByteStreams, ReadingPastTheBytesFails) {
  std::string bytes(12, '\0');  // a size field and 4 bytes: not the 8 elements it will say
  std::uint64_t n = 8;
  std::memcpy(bytes.data(), &n, sizeof n);
  std::vector<double> back;
  view_source source(bytes);
  std::istream is(&source);
  cereal::BinaryInputArchive b(is);
  EXPECT_THROW(b(back), cereal::Exception);
}

}  // namespace
}  // namespace tascell::detail::net
