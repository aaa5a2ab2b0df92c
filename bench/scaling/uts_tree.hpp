// UTS (bench/uts/uts-config.hpp) as the runtime runs it: a node is a loop
// over its children. The tree is the real one (SHA-1 splittable random
// numbers): one pass at construction counts every subtree and keeps the
// sizes of those with at least `keep` nodes; a smaller subtree is counted
// again when a steal needs it. So every size is exact.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "tree.hpp"
#include "uts/uts-config.hpp"

namespace scaling {

class uts_tree final : public tree_model {
 public:
  // name: T1, T3, T5 (the project's trees) or T1L (-t 1 -a 3 -d 13 -b 4 -r 29).
  uts_tree(const std::string& name, double seconds_per_node, std::uint64_t keep = 512);
  std::string name() const override { return name_; }
  node_id root() override { return 0; }
  double root_work() override { return static_cast<double>(total_) * cost_; }
  const expansion& expand(node_id id, double work) override;
  std::int64_t piece_bytes() const override { return 20 + 4 + 48; }
  double nodes() override { return static_cast<double>(total_); }
  // The translator keeps UTS eager (docs/scaling.md): never asked.
  double frames_below(node_id) override { throw std::logic_error("uts: no lazy frames"); }

  static const uts_config::tree* find(const std::string& name);

 private:
  struct node {
    uts_config::state s;
    int depth;
  };
  std::uint64_t count(const uts_config::state& s, int depth, bool keep_sizes);
  std::uint64_t size(const uts_config::state& s, int depth);
  static std::uint64_t key(const uts_config::state& s);

  std::string name_;
  const uts_config::tree* tree_;
  double cost_;
  std::uint64_t keep_;
  std::uint64_t total_ = 0;
  std::unordered_map<std::uint64_t, std::uint64_t> sizes_;
  std::vector<node> nodes_;
  std::unordered_map<std::uint64_t, node_id> ids_;
  expansion buf_;
};

}  // namespace scaling
