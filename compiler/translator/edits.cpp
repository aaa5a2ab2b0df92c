#include "edits.hpp"

#include <algorithm>

namespace tascell::translator {

std::string edit_list::apply(std::string_view text) const { return apply(text, 0, text.size(), true); }

std::string edit_list::apply(std::string_view text, std::size_t b, std::size_t e) const {
  return apply(text, b, e, false);
}

std::string edit_list::apply(std::string_view text, std::size_t b, std::size_t end, bool whole) const {
  std::vector<const edit*> order;
  for (const auto& e : edits_)
    if (whole || (e.at > b && e.at < end) || (e.at == b && e.k == kind::open) || (e.at == end && e.k == kind::close))
      order.push_back(&e);
  std::stable_sort(order.begin(), order.end(), [](const edit* x, const edit* y) {
    if (x->at != y->at) return x->at < y->at;
    bool xc = x->k == kind::close, yc = y->k == kind::close;
    if (xc != yc) return xc;
    if (xc) return x->depth > y->depth;
    return x->depth < y->depth;
  });
  std::string out;
  std::size_t pos = b;
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
  if (pos < end) out.append(text.substr(pos, end - pos));
  return out;
}

}  // namespace tascell::translator
