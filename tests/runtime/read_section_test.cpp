// read_section(a, scale, {offsets}) (read_section.hpp): in one process the
// body reads the container's elements in place; a piece that goes to
// another process carries only the elements its iterations read (its range
// and the offsets' halo, within the container) and indexes them like the
// container. The other process is simulated with the clause's
// pack_in_range and unpack_in_range.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <tascell/tascell.hpp>

#include "range_travel.hpp"

namespace {

using tascell::detail::iteration_span;
using tascell::detail::traits_of;

// The stored values of a loop piece over iterations r of `clause` as a
// thief in another process receives them, and the bytes sent.
template <class C>
typename traits_of<C>::stored travel(const C& clause, const iteration_span& r, std::size_t& bytes) {
  auto here = tascell_test::stored_of(clause);
  std::string sent = tascell_test::pack_range<C>(here, r);
  bytes = sent.size();
  return tascell_test::unpack_range<C>(sent, r);
}

TEST(ReadSection, InOneProcessTheBodyReadsTheContainerItself) {
  std::vector<double> v(100, 1.5);
  auto c = tascell::read_section(v, 1, {-1, 0, 1});
  using tr = traits_of<decltype(c)>;
  typename tr::stored s{};
  tr::put(tr::make_ref(c), s);
  EXPECT_EQ(tr::param(s), v.data());
  EXPECT_EQ(tr::param(c), v.data());
}

TEST(ReadSection, APieceCarriesItsRangeAndTheHaloOnly) {
  std::vector<double> v(1000);
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<double>(k) * 0.5;
  // i from 1 to 998 (first 1, step 1); this piece: k in [400, 500), i in [401, 500]
  iteration_span r{1, 1, 400, 500};
  std::size_t bytes = 0;
  auto there = travel(tascell::read_section(v, 1, {-1, 0, 1}), r, bytes);
  const double* in = traits_of<decltype(tascell::read_section(v, 1, {0}))>::param(there);
  for (std::int64_t i = 401; i <= 500; ++i)
    for (std::int64_t d = -1; d <= 1; ++d) ASSERT_EQ(in[i + d], v[static_cast<std::size_t>(i + d)]) << i << " " << d;
  // 102 elements (400..501) and the clause's six numbers, not 1000.
  EXPECT_LE(bytes, 102 * sizeof(double) + 6 * sizeof(std::int64_t) + 16);
  EXPECT_GE(bytes, 102 * sizeof(double));
}

TEST(ReadSection, AScaleAndTheContainersEndsBoundWhatIsSent) {
  std::vector<std::string> v(50);
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = std::to_string(k) + "s";
  // i = 0..24 reads v[2 * i + 1] and v[2 * i - 1]; the piece: i in [20, 25)
  iteration_span r{0, 1, 20, 25};
  std::size_t bytes = 0;
  auto there = travel(tascell::read_section(v, 2, {1, -1}), r, bytes);
  const std::string* in = traits_of<decltype(tascell::read_section(v, 1, {0}))>::param(there);
  for (std::int64_t i = 20; i < 25; ++i) {
    EXPECT_EQ(in[2 * i - 1], v[static_cast<std::size_t>(2 * i - 1)]);
    EXPECT_EQ(in[2 * i + 1], v[static_cast<std::size_t>(2 * i + 1)]);
  }
  // v[39] .. v[49]: the last index, 2 * 24 + 1 = 49, is within the container.
  EXPECT_EQ(there.copy[0], "39s");
  EXPECT_EQ(there.copy[10], "49s");
}

TEST(ReadSection, IndicesOutsideTheContainerAreNotSent) {
  std::vector<long> v(10, 7);
  iteration_span r{0, 1, 0, 10};  // i in [0, 10) reads v[i - 1], v[i + 1]: -1 and 10 are outside
  std::size_t bytes = 0;
  auto there = travel(tascell::read_section(v, 1, {-1, 1}), r, bytes);
  EXPECT_EQ(there.base + 0, there.copy.get());  // indexes from 0: the first sent is v[0]
  EXPECT_LE(bytes, 10 * sizeof(long) + 6 * sizeof(std::int64_t) + 16);
}

}  // namespace
