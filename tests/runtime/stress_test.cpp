// Stress: give away at least a million pieces of work and check that none is
// lost or run twice. Leaves of a deep binary recursion each mark their own
// slot; root calls repeat until the runtime has handed over a million pieces.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstdint>
#include <vector>

#include <tascell/tascell.hpp>

#include "test_env.hpp"

namespace {

using tascell::ctx;

// One round: many short loops of tiny iterations, one after the other, so
// workers keep running out of work and asking, and owners keep splitting
// their remaining iterations. Every iteration marks its own slot.
void rounds(ctx c, std::int64_t loops, std::int64_t width, std::atomic<std::uint8_t>* slots) {
  for (std::int64_t l = 0; l < loops; ++l)
    tascell::dowork_for(c, tascell::range(l * width, (l + 1) * width), tascell::shared(slots),
                        [](ctx, std::int64_t i, std::atomic<std::uint8_t>* s) {
                          s[i].fetch_add(1, std::memory_order_relaxed);
                        });
}

}  // namespace

TEST(MultiWorkerStress, AMillionPiecesNoneLostNoneTwice) {
  const std::int64_t loops = 2048, width = 512, n = loops * width;
  // A million pieces (TASCELL_STRESS_GOAL lowers it for the sanitizer jobs,
  // where every hand-over is 5-20x slower).
  const char* g = std::getenv("TASCELL_STRESS_GOAL");
  const std::int64_t goal = g ? std::atoll(g) : 1'000'000;
  std::vector<std::atomic<std::uint8_t>> slots(static_cast<std::size_t>(n));
  std::int64_t given = 0, received = 0, calls = 0, wrong = 0;
  while (given < goal && calls < 5000) {
    for (auto& s : slots) s.store(0, std::memory_order_relaxed);
    tascell::root(rounds, loops, width, slots.data());
    for (auto& s : slots) wrong += s.load(std::memory_order_relaxed) != 1;
    auto t = tascell::last_stats().total();
    given += t.pieces_given;
    received += t.pieces_received;
    ++calls;
  }
  EXPECT_EQ(wrong, 0) << "iterations lost or run twice";
  EXPECT_EQ(given, received);
  EXPECT_GE(given, goal) << "only " << given << " pieces handed over in " << calls << " root calls";
  std::printf("stress: %lld pieces handed over in %lld root calls of %lld iterations\n",
              static_cast<long long>(given), static_cast<long long>(calls), static_cast<long long>(n));
}
