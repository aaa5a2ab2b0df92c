// 0-1 knapsack by branch and bound with a shared incumbent:
//   @shared(max) long best = 0;
//   @task void bb(int i, long weight, long value) {
//     if (value > best) improve(best, value);
//     if (i == n || bound(i, weight, value) <= best) return;
//     @dowork { if (w[i] fits) bb(i+1, weight+w[i], value+v[i]); bb(i+1, weight, value); }
//   }
// Items are sorted by value density so the fractional bound is valid.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <tascell/tascell.hpp>

namespace programs {

struct knapsack {
  std::vector<long> w, v;
  long capacity = 0;

  // Random items; `correlated`: values are weights + 10, hard for branch
  // and bound.
  static knapsack random(int n, unsigned seed, bool correlated = false) {
    std::mt19937 g(seed);
    std::uniform_int_distribution<long> dw(5, 60), dv(5, 90), dcw(20, 100);
    knapsack k;
    std::vector<std::pair<long, long>> items;
    for (int i = 0; i < n; ++i) {
      if (correlated) {
        long w = dcw(g);
        items.emplace_back(w, w + 10);
      } else {
        long w = dw(g);
        items.emplace_back(w, dv(g));
      }
    }
    std::sort(items.begin(), items.end(), [](auto a, auto b) {
      return a.second * b.first > b.second * a.first;  // by v/w, highest first
    });
    long total = 0;
    for (auto [wi, vi] : items) {
      k.w.push_back(wi);
      k.v.push_back(vi);
      total += wi;
    }
    k.capacity = total / 3;
    return k;
  }

  // Fractional (greedy) upper bound of what items i.. can still add.
  double bound(int i, long weight, long value) const {
    double b = static_cast<double>(value);
    long room = capacity - weight;
    for (int j = i; j < static_cast<int>(w.size()); ++j) {
      if (w[j] <= room) {
        room -= w[j];
        b += static_cast<double>(v[j]);
      } else {
        b += static_cast<double>(v[j]) * static_cast<double>(room) / static_cast<double>(w[j]);
        break;
      }
    }
    return b;
  }

  long dynamic_programming() const {
    std::vector<long> best(static_cast<std::size_t>(capacity) + 1, 0);
    for (std::size_t i = 0; i < w.size(); ++i)
      for (long c = capacity; c >= w[i]; --c)
        best[static_cast<std::size_t>(c)] =
            std::max(best[static_cast<std::size_t>(c)], best[static_cast<std::size_t>(c - w[i])] + v[i]);
    return best[static_cast<std::size_t>(capacity)];
  }
};

inline tascell::incumbent<tascell::op::max, long> knapsack_best{0};

inline void knapsack_bb(tascell::ctx c, const knapsack* k, int i, long weight, long value) {
  if (value > knapsack_best) tascell::improve(knapsack_best, value);
  if (i == static_cast<int>(k->w.size())) return;
  if (k->bound(i, weight, value) <= static_cast<double>(knapsack_best.get())) return;
  tascell::dowork(
      c,
      [&](tascell::ctx c) {
        if (weight + k->w[static_cast<std::size_t>(i)] <= k->capacity)
          knapsack_bb(c, k, i + 1, weight + k->w[static_cast<std::size_t>(i)],
                      value + k->v[static_cast<std::size_t>(i)]);
      },
      tascell::part(tascell::shared(k), tascell::in(i), tascell::in(weight), tascell::in(value),
                    [](tascell::ctx c, const knapsack* k, const int& i, const long& weight,
                       const long& value) { knapsack_bb(c, k, i + 1, weight, value); }));
}

inline long knapsack_solve(tascell::ctx c, const knapsack* k) {
  knapsack_best.reset(0);
  knapsack_bb(c, k, 0, 0, 0);
  return knapsack_best.get();
}

}  // namespace programs
