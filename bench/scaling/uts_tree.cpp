#include "uts_tree.hpp"

#include <cstring>
#include <stdexcept>

namespace scaling {

namespace {
// The larger sample tree of the UTS distribution, same shape as T1.
constexpr uts_config::tree t1l{101, "T1L", "-t 1 -a 3 -d 13 -b 4 -r 29", uts_config::GEO, 4,
                               uts_config::FIXED, 13, 0, 0, 29};
}  // namespace

const uts_config::tree* uts_tree::find(const std::string& name) {
  if (name == "T1L") return &t1l;
  for (const auto& t : uts_config::trees)
    if (name == t.name) return &t;
  return nullptr;
}

uts_tree::uts_tree(const std::string& name, double seconds_per_node, std::uint64_t keep)
    : name_("uts " + name), tree_(find(name)), cost_(seconds_per_node), keep_(keep) {
  if (!tree_) throw std::invalid_argument("unknown UTS tree " + name);
  auto root = uts_config::root_state(tree_->seed);
  nodes_.push_back({root, 0});
  total_ = count(root, 0, true);
}

std::uint64_t uts_tree::key(const uts_config::state& s) {
  std::uint64_t k;
  std::memcpy(&k, s.d, sizeof k);
  return k;
}

std::uint64_t uts_tree::count(const uts_config::state& s, int depth, bool keep_sizes) {
  int m = uts_config::num_children(*tree_, s, depth);
  std::uint64_t n = 1;
  for (int i = 0; i < m; ++i) n += count(uts_config::child_state(s, i), depth + 1, keep_sizes);
  if (keep_sizes && n >= keep_) sizes_[key(s)] = n;
  return n;
}

std::uint64_t uts_tree::size(const uts_config::state& s, int depth) {
  if (auto it = sizes_.find(key(s)); it != sizes_.end()) return it->second;
  return count(s, depth, false);
}

const expansion& uts_tree::expand(node_id id, double w) {
  node nd = nodes_[id];
  buf_.its.clear();
  int m = uts_config::num_children(*tree_, nd.s, nd.depth);
  if (m == 0) {
    buf_.own = w;
    return buf_;
  }
  double sum = 0;
  for (int i = 0; i < m; ++i) {
    auto c = uts_config::child_state(nd.s, i);
    double sz = static_cast<double>(size(c, nd.depth + 1));
    sum += sz;
    auto [it, fresh] = ids_.try_emplace(key(c), nodes_.size());
    if (fresh) nodes_.push_back({c, nd.depth + 1});
    buf_.its.push_back({sz, it->second});
  }
  // Exact: w == (1 + sum) * cost_ up to rounding; scale to keep the sum.
  buf_.own = w < cost_ ? w : cost_;
  double scale = (w - buf_.own) / sum;
  for (auto& it : buf_.its) it.work *= scale;
  return buf_;
}

}  // namespace scaling
