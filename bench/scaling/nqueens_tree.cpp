#include "nqueens_tree.hpp"

#include <bit>

namespace scaling {

nqueens_tree::nqueens_tree(int n, double seconds_per_node, nqueens_options o)
    : n_(n), full_(n >= 32 ? ~0u : (1u << n) - 1), cost_(seconds_per_node), opt_(o) {
  boards_.push_back({0, 0, 0, 0});
}

std::string nqueens_tree::name() const {
  std::string s = "nqueens(";
  s += std::to_string(n_);
  s += ")";
  return s;
}

std::uint64_t nqueens_tree::key(const board& b) {
  std::uint64_t h = b.cols;
  h = h * 0x9E3779B97F4A7C15ull ^ b.left;
  h = h * 0x9E3779B97F4A7C15ull ^ b.right;
  h = h * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(b.row);
  return h;
}

template <class Visit>
void nqueens_tree::walk(std::uint32_t cols, std::uint32_t left, std::uint32_t right, int row, Visit& visit) {
  visit(row);
  if (row == n_) return;
  std::uint32_t avail = full_ & ~(cols | left | right);
  while (avail) {
    std::uint32_t bit = avail & (~avail + 1);
    avail ^= bit;
    walk(cols | bit, ((left | bit) << 1) & full_, (right | bit) >> 1, row + 1, visit);
  }
}

std::uint64_t nqueens_tree::count(std::uint32_t cols, std::uint32_t left, std::uint32_t right, int row,
                                  std::uint64_t* solutions) {
  std::uint64_t nodes = 0;
  auto visit = [&](int r) {
    ++nodes;
    if (r == n_ && solutions) ++*solutions;
  };
  walk(cols, left, right, row, visit);
  return nodes;
}

template <class Visit>
void nqueens_tree::probe(const board& b, std::uint64_t& s, Visit&& visit) {
  // One random path down from b (xorshift64 in s): visit(row, m) for each
  // row below b it reaches, m the product of the branching factors so far.
  double mult = 1;
  std::uint32_t cols = b.cols, left = b.left, right = b.right;
  for (int row = b.row; row < n_; ++row) {
    std::uint32_t avail = full_ & ~(cols | left | right);
    int c = std::popcount(avail);
    if (c == 0) break;
    mult *= c;
    visit(row + 1, mult);
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    int pick = static_cast<int>(s % static_cast<std::uint64_t>(c));
    std::uint32_t bit = 0;
    for (int i = 0; i <= pick; ++i) {
      bit = avail & (~avail + 1);
      avail ^= bit;
    }
    cols |= bit;
    left = ((left | bit) << 1) & full_;
    right = (right | bit) >> 1;
  }
}

double nqueens_tree::knuth(const board& b) {
  // Deterministic per board, so every run sees the same tree.
  std::uint64_t s = key(b) | 1;
  double total = 0;
  for (int p = 0; p < opt_.probes; ++p) {
    double est = 1;
    probe(b, s, [&](int, double m) { est += m; });
    total += est;
  }
  return total / opt_.probes;
}

double nqueens_tree::size(const board& b) {
  std::uint64_t k = key(b);
  if (auto it = sizes_.find(k); it != sizes_.end()) return it->second;
  double s;
  if (opt_.all_exact || n_ - b.row <= opt_.exact_levels) {
    s = static_cast<double>(count(b.cols, b.left, b.right, b.row, nullptr));
  } else if (b.row < opt_.top_rows) {
    s = 1;
    std::uint32_t avail = full_ & ~(b.cols | b.left | b.right);
    while (avail) {
      std::uint32_t bit = avail & (~avail + 1);
      avail ^= bit;
      s += size({b.cols | bit, ((b.left | bit) << 1) & full_, (b.right | bit) >> 1, b.row + 1});
    }
  } else {
    s = knuth(b);
  }
  sizes_.emplace(k, s);
  return s;
}

double nqueens_tree::nodes() { return size(boards_[0]); }
double nqueens_tree::root_work() { return nodes() * cost_; }

node_id nqueens_tree::intern(const board& b) {
  auto [it, fresh] = ids_.try_emplace(key(b), boards_.size());
  if (fresh) boards_.push_back(b);
  return it->second;
}

const expansion& nqueens_tree::expand(node_id id, double w) {
  board b = boards_[id];
  buf_.its.clear();
  if (b.row == n_) {
    buf_.own = w;
    return buf_;
  }
  double sum = 0;
  for (int col = 0; col < n_; ++col) {
    std::uint32_t bit = 1u << col;
    if ((b.cols | b.left | b.right) & bit) {
      buf_.its.push_back({0, no_node});
      continue;
    }
    board c{b.cols | bit, ((b.left | bit) << 1) & full_, (b.right | bit) >> 1, b.row + 1};
    double s = size(c);
    sum += s;
    buf_.its.push_back({s, intern(c)});
  }
  if (sum == 0) {
    buf_.own = w;
    return buf_;
  }
  buf_.own = w < cost_ ? w : cost_;
  double scale = (w - buf_.own) / sum;
  for (auto& it : buf_.its) it.work *= scale;
  return buf_;
}

double nqueens_tree::frames_below(node_id id) {
  // A subtree's nodes are assumed spread over the rows below it as the whole
  // tree's are (most nodes lie a few rows above the bottom, where boards die).
  if (level_nodes_.empty()) {
    level_nodes_.assign(static_cast<std::size_t>(n_) + 1, 0.0);
    if (opt_.all_exact || n_ <= 14) {
      auto visit = [&](int row) { level_nodes_[static_cast<std::size_t>(row)] += 1; };
      walk(0, 0, 0, 0, visit);
    } else {
      // Knuth's estimator per row: 65,536 probes from the empty board.
      std::uint64_t s = 0x243F6A8885A308D3ull;
      const int probes = 65536;
      level_nodes_[0] = 1;
      for (int p = 0; p < probes; ++p)
        probe(boards_[0], s, [&](int row, double m) { level_nodes_[static_cast<std::size_t>(row)] += m / probes; });
    }
  }
  int r = boards_[static_cast<std::size_t>(id)].row;
  double nodes = 0, depth = 0;
  for (int l = r; l <= n_; ++l) {
    nodes += level_nodes_[static_cast<std::size_t>(l)];
    depth += (l - r) * level_nodes_[static_cast<std::size_t>(l)];
  }
  return nodes > 0 ? 1 + depth / nodes : 1;
}

std::uint64_t nqueens_tree::exact_nodes() { return count(0, 0, 0, 0, nullptr); }

std::uint64_t nqueens_tree::exact_solutions() {
  std::uint64_t s = 0;
  count(0, 0, 0, 0, &s);
  return s;
}

}  // namespace scaling
