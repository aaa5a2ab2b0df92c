// Fib(n) as the runtime runs it (tests/runtime/programs/fib.hpp): a node
// fib(k), k >= 2, is a @dowork of two parts, fib(k-1) then fib(k-2). Exact:
// a subtree's work is calls(k) * cost, calls(k) = 2 F(k+1) - 1.
#pragma once

#include <vector>

#include "tree.hpp"

namespace scaling {

class fib_tree final : public tree_model {
 public:
  fib_tree(int n, double seconds_per_call);
  std::string name() const override;
  node_id root() override { return static_cast<node_id>(n_); }
  double root_work() override { return work(n_); }
  const expansion& expand(node_id k, double work) override;
  std::int64_t piece_bytes() const override { return 8; }
  double nodes() override { return calls(n_); }
  double frames_below(node_id k) override;

  static double calls(int k);  // calls of fib(k), itself included

 private:
  double work(int k) const { return calls(k) * cost_; }
  int n_;
  double cost_;
  expansion buf_;
  std::vector<double> mean_depth_;  // of the calls of fib(k) below fib(k), by k
};

}  // namespace scaling
