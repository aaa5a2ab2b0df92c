// Which process this one asks for work next (victim_ranks.hpp).
#include "victim_ranks.hpp"

namespace tascell::detail::net {

int victim_ranks::random_other() {
  c_.rng ^= c_.rng << 13;
  c_.rng ^= c_.rng >> 7;
  c_.rng ^= c_.rng << 17;
  int v = static_cast<int>(c_.rng % static_cast<std::uint64_t>(c_.size - 1));
  return v >= c_.rank ? v + 1 : v;
}

int victim_ranks::choose() {
  if (preferred_ >= 0 && preferred_ < c_.size && preferred_ != c_.rank) {
    int v = preferred_;
    preferred_ = -1;
    return v;
  }
  if (c_.cfg.remote_victim == victim_choice::loaded) {
    // The process with the highest load heard of (piggy-backed on every
    // batch); ties and no news: random.
    int best = -1, best_load = 0;
    int start = random_other();
    for (int k = 0; k < c_.size; ++k) {
      int r = (start + k) % c_.size;
      if (r == c_.rank) continue;
      if (c_.loads[static_cast<std::size_t>(r)] > best_load) {
        best = r;
        best_load = c_.loads[static_cast<std::size_t>(r)];
      }
    }
    if (best >= 0) return best;
  }
  return random_other();
}

}  // namespace tascell::detail::net
