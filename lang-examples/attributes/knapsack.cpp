// 0-1 knapsack in the attribute spelling: the same program as
// ../knapsack.tcpp, and standard C++20. The incumbent is declared
// [[tascell::shared(max)]] and improved by tascell::improve_max, which a
// plain compiler (to which the attribute means nothing) understands too:
//   tascell++ -O2 knapsack.cpp -o knapsack && TASCELL_WORKERS=2 ./knapsack 100
//   g++ -std=c++20 -O2 -Wno-attributes -I<install>/include knapsack.cpp -o knapsack-seq
// The argument is the number of items; the capacity is half their weight.
#include <tascell/api.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct item {
  long weight, value;
};

// The items, by decreasing value per weight (set once by main).
std::vector<item> items;
long capacity;

[[tascell::shared(max)]] long best = 0;  // the best total value found so far

// An upper bound on the value of any completion of a choice of items 0..k-1
// that left room `room`: fill the room greedily, the last item fractionally.
long bound(int k, long room, long value) {
  double b = static_cast<double>(value);
  for (int i = k; i < static_cast<int>(items.size()); ++i) {
    if (items[i].weight <= room) {
      room -= items[i].weight;
      b += static_cast<double>(items[i].value);
    } else {
      b += static_cast<double>(items[i].value) * static_cast<double>(room) / static_cast<double>(items[i].weight);
      break;
    }
  }
  return static_cast<long>(b);
}

// Items 0..k-1 are decided, leaving room `room` and worth `value`.
[[tascell::task]] void knapsack(int k, long room, long value) {
  tascell::improve_max(best, value);
  if (k == static_cast<int>(items.size())) return;
  if (bound(k, room, value) <= best) return;  // cannot beat the incumbent
  // Take item k (if it fits) or leave it; near the leaves, spawning is not
  // worth its cost: if(...) runs the two parts as plain code.
  [[tascell::dowork(if (static_cast<int>(items.size()) - k > 10))]] {
    if (items[k].weight <= room) knapsack(k + 1, room - items[k].weight, value + items[k].value);
    knapsack(k + 1, room, value);
  }
}

// The same optimum by dynamic programming over the capacity.
long knapsack_dp() {
  std::vector<long> v(static_cast<std::size_t>(capacity) + 1, 0);  // v[c]: best value in weight c
  for (const item& it : items)
    for (long c = capacity; c >= it.weight; --c) v[c] = std::max(v[c], v[c - it.weight] + it.value);
  return v[capacity];
}

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100;
  // Deterministic pseudo-random weights (a 64-bit LCG); the values are the
  // weights plus a constant (strongly correlated), which makes the bounds weak
  // and the search large.
  std::uint64_t x = 12345;
  auto next = [&x](long m) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<long>((x >> 33) % static_cast<std::uint64_t>(m));
  };
  long total = 0;
  for (int i = 0; i < n; ++i) {
    long w = 100 + next(900);
    items.push_back({w, w + 100});
    total += w;
  }
  capacity = total / 2;
  std::sort(items.begin(), items.end(), [](const item& a, const item& b) {
    return a.value * b.weight > b.value * a.weight;
  });

  knapsack(0, capacity, 0);
  long bb = best, dp = knapsack_dp();
  std::printf("knapsack(%d items, capacity %ld): branch and bound %ld, dynamic programming %ld: %s\n", n,
              capacity, bb, dp, bb == dp ? "agree" : "DISAGREE");
  return bb == dp ? 0 : 1;
}
