#include "edits.hpp"

#include <algorithm>

namespace tascell::translator {

std::string edit_list::apply(std::string_view text) const {
  std::vector<const edit*> order;
  for (const auto& e : edits_) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(), [](const edit* a, const edit* b) {
    if (a->at != b->at) return a->at < b->at;
    bool ac = a->k == kind::close, bc = b->k == kind::close;
    if (ac != bc) return ac;
    if (ac) return a->depth > b->depth;
    return a->depth < b->depth;
  });
  std::string out;
  std::size_t pos = 0;
  for (const edit* e : order) {
    if (e->at < pos) continue;  // inside a replaced span: dropped (cannot happen for valid input)
    out.append(text.substr(pos, e->at - pos));
    out += e->text;
    if (e->len > 0) {
      auto lines = [](std::string_view s) { return std::count(s.begin(), s.end(), '\n'); };
      for (auto n = lines(text.substr(e->at, e->len)) - lines(e->text); n > 0; --n) out += '\n';
      pos = e->at + e->len;
    } else {
      pos = e->at;
    }
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace tascell::translator
