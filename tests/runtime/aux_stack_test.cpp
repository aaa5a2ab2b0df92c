// The aux stack (serve.cpp): the slow-path state of the spawn points that
// gave work away, kept in chain order so that find_aux can search it by
// address. A worker made by hand in a region of its own (a point's worker
// and fiber are found from its address), points at made-up addresses on its
// node stack; no root call.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <random>
#include <vector>

#include "worker.hpp"

namespace tascell::detail {
namespace {

struct hand_made_worker {
  void* region = std::aligned_alloc(region_bytes, region_bytes);  // address space only; pages untouched
  worker_impl* w = ::new (region) worker_impl;
  ~hand_made_worker() {
    for (point_aux* a : w->aux_stack) delete a;
    w->aux_stack.clear();
    w->~worker_impl();
    std::free(region);
  }
  // The i-th spawn point up the node stack (4 words each).
  spawn_point* point(int i) const { return reinterpret_cast<spawn_point*>(stack_base(w) + 32 * i); }
};

TEST(AuxStack, KeepsChainOrderAndFindsEveryPointWhateverTheOrderOfCreation) {
  hand_made_worker h;
  ASSERT_NE(h.region, nullptr);
  // Points 0, 2, 4, ... give work away in a shuffled order (a deep chain
  // gives from its oldest point first, then from newer ones, and steal-backs
  // give from points in between).
  std::vector<int> order;
  for (int i = 0; i < 600; i += 2) order.push_back(i);
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  std::vector<point_aux*> made(600, nullptr);
  for (int i : order) {
    made[static_cast<std::size_t>(i)] = get_aux(h.w, h.point(i));
    ASSERT_EQ(made[static_cast<std::size_t>(i)]->point, h.point(i));
  }
  ASSERT_EQ(h.w->aux_stack.size(), order.size());
  EXPECT_TRUE(std::is_sorted(h.w->aux_stack.begin(), h.w->aux_stack.end(),
                             [](const point_aux* a, const point_aux* b) { return a->point < b->point; }));
  // The newest point with an aux owns the slow path (its join finds it at
  // the back).
  EXPECT_EQ(h.w->aux_owner, h.point(598));
  for (int i = 0; i < 600; ++i) {
    point_aux* found = find_aux(h.w, h.point(i));
    if (i % 2 == 0) {
      EXPECT_EQ(found, made[static_cast<std::size_t>(i)]) << "point " << i;
      // Asking again gives the same aux, not a second one.
      EXPECT_EQ(get_aux(h.w, h.point(i)), found) << "point " << i;
    } else {
      EXPECT_EQ(found, nullptr) << "point " << i;
    }
  }
  EXPECT_EQ(h.w->aux_stack.size(), order.size());
  EXPECT_EQ(find_aux(h.w, h.point(600)), nullptr);  // above every aux
}

TEST(AuxStack, AnEmptyStackHasNoAux) {
  hand_made_worker h;
  ASSERT_NE(h.region, nullptr);
  EXPECT_EQ(find_aux(h.w, h.point(0)), nullptr);
  EXPECT_EQ(find_aux(h.w, h.point(5)), nullptr);
}

}  // namespace
}  // namespace tascell::detail
