// What a thief writes all through a piece lies in cache lines of its own: a
// piece's copy() range
// (tascell/detail/line_allocator.hpp): the thief writes it all through the
// piece, and a line shared with an object of the victim went back and forth
// between the two cores (n-queens 13 on 2 workers: 5 runs in 20 took 0.36 s
// instead of 0.22 s; docs/history/performance-sessions.md, session 13).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "tascell/chain.hpp"
#include "tascell/clauses.hpp"

namespace tascell {
namespace {

bool shares_a_line(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  auto line = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) / detail::cache_line; };
  auto last = [&](const void* p, std::size_t n) { return line(static_cast<const char*>(p) + n - 1); };
  return line(a) <= last(b, b_bytes) && line(b) <= last(a, a_bytes);
}

TEST(CopyRanges, LieInCacheLinesOfTheirOwn) {
  using traits = detail::clause_traits<copy_t<int>>;
  std::vector<int> board(40, 7);
  std::vector<traits::stored> pieces(12);
  std::vector<std::vector<char>> others;  // small objects allocated in between, as a victim's
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    std::int64_t len = static_cast<std::int64_t>(1 + 3 * i);
    traits::put({board.data(), 2, len}, pieces[i]);
    others.emplace_back(8 + i, 'x');
    const int* range = pieces[i].buf.data();
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(range) % detail::cache_line, 0u) << "length " << len;
    EXPECT_EQ(traits::param(pieces[i])[2], 7);  // p[lo] is the range's first element
    for (std::size_t j = 0; j <= i; ++j)
      EXPECT_FALSE(shares_a_line(range, static_cast<std::size_t>(len) * sizeof(int), others[j].data(),
                                 others[j].size()))
          << "the range of length " << len << " shares a line with object " << j;
  }
}

// A task, too, starts on a line (alignas(64) on task): the thief writes its
// copies all through the piece. And the copies a derived task adds are on
// no line with the `done` and `stop` the victim reads at a join.
TEST(Tasks, TakeWholeCacheLines) {
  struct with_copies : task {
    long sum = 0;
    char board[13] = {};
  };
  EXPECT_EQ(sizeof(task) % detail::cache_line, 0u);
  EXPECT_EQ(sizeof(with_copies) % detail::cache_line, 0u);
  std::vector<std::unique_ptr<with_copies>> made;
  for (int i = 0; i < 16; ++i) {
    made.push_back(std::make_unique<with_copies>());
    std::vector<char> between(static_cast<std::size_t>(1 + 7 * i));  // what the victim allocates meanwhile
    auto at = reinterpret_cast<std::uintptr_t>(made.back().get());
    EXPECT_EQ(at % detail::cache_line, 0u) << "task " << i;
    auto line = [](const void* x) { return reinterpret_cast<std::uintptr_t>(x) / detail::cache_line; };
    for (const void* polled : {static_cast<const void*>(&made.back()->done),
                               static_cast<const void*>(&made.back()->stop)}) {
      EXPECT_NE(line(&made.back()->sum), line(polled)) << "task " << i;
      EXPECT_NE(line(made.back()->board), line(polled)) << "task " << i;
    }
  }
}

}  // namespace
}  // namespace tascell
