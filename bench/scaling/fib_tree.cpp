#include "fib_tree.hpp"

#include <algorithm>
#include <cmath>

namespace scaling {

fib_tree::fib_tree(int n, double seconds_per_call) : n_(n), cost_(seconds_per_call) {}

std::string fib_tree::name() const {
  std::string s = "fib(";
  s += std::to_string(n_);
  s += ")";
  return s;
}

double fib_tree::calls(int k) {
  // 2 F(k+1) - 1, in doubles (exact up to k = 75).
  double a = 0, b = 1;  // F(0), F(1)
  for (int i = 0; i < k + 1; ++i) {
    double c = a + b;
    a = b;
    b = c;
  }
  return 2 * a - 1;
}

const expansion& fib_tree::expand(node_id id, double w) {
  int k = static_cast<int>(id);
  buf_.its.clear();
  if (k < 2) {
    buf_.own = w;
    return buf_;
  }
  // The model is exact: w == work(k) up to rounding; scale to keep the sum.
  double scale = w / work(k);
  buf_.own = cost_ * scale;
  buf_.its.push_back({work(k - 1) * scale, static_cast<node_id>(k - 1)});
  buf_.its.push_back({work(k - 2) * scale, static_cast<node_id>(k - 2)});
  return buf_;
}

double fib_tree::frames_below(node_id id) {
  // The mean depth of fib(k)'s calls below it: fib(k) itself at depth 0,
  // the calls of fib(k-1) and fib(k-2) one deeper than in their own trees.
  int k = static_cast<int>(id);
  if (mean_depth_.empty()) {
    mean_depth_.assign(static_cast<std::size_t>(std::max(n_, 1)) + 1, 0.0);
    for (int j = 2; j <= n_; ++j) {
      auto u = static_cast<std::size_t>(j);
      double a = calls(j - 1), b = calls(j - 2);
      mean_depth_[u] = (a * (mean_depth_[u - 1] + 1) + b * (mean_depth_[u - 2] + 1)) / (a + b + 1);
    }
  }
  if (k < 0 || k > n_) return 1;
  return 1 + mean_depth_[static_cast<std::size_t>(k)];
}

}  // namespace scaling
