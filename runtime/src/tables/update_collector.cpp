#include "update_collector.hpp"

namespace tascell::detail {

update_collector::table_buffers& update_collector::of(table_core& t) {
  if (&t == last_) return *last_buffers_;
  for (auto& tb : tables_)
    if (tb.t.get() == &t) {
      last_ = &t;
      return *(last_buffers_ = &tb);
    }
  tables_.push_back({t.shared_from_this(), std::vector<buffer>(static_cast<std::size_t>(t.subs)), {}});
  last_ = &t;
  return *(last_buffers_ = &tables_.back());
}

void update_collector::apply(table_core& t, buffer& b, std::int64_t sub) {
  if (b.count == 0) return;
  t.lock_sub(sub);
  b.fn(t, b.recs.get(), b.count);
  t.unlock_sub(sub);
  b.count = 0;
}

void update_collector::add(table_core& t, table_op_fn fn, std::int64_t pos, const void* update, std::uint32_t bytes) {
  if (bytes > max_update) {
    std::int64_t sub = t.sub_of(pos);
    char rec[8 + 4096];
    std::memcpy(rec, &pos, 8);
    std::memcpy(rec + 8, update, bytes);
    t.lock_sub(sub);
    fn(t, rec, 1);
    t.unlock_sub(sub);
    return;
  }
  table_buffers& tb = of(t);
  std::int64_t sub = t.sub_of(pos);
  buffer& b = tb.subs[static_cast<std::size_t>(sub)];
  if (b.fn != fn) {
    apply(t, b, sub);
    b.fn = fn;
    b.bytes = bytes;
    if (!b.recs) b.recs = std::make_unique<char[]>(full * (8 + max_update));
  }
  if (b.count == 0 && !b.listed) {
    b.listed = true;
    tb.used.push_back(static_cast<std::uint32_t>(sub));
  }
  char* r = b.recs.get() + static_cast<std::size_t>(b.count) * (8 + bytes);
  std::memcpy(r, &pos, 8);
  std::memcpy(r + 8, update, bytes);
  if (++b.count == full) apply(t, b, sub);
}

void update_collector::apply_all() {
  bool gone = false;
  for (auto& tb : tables_) {
    for (std::uint32_t sub : tb.used) {
      apply(*tb.t, tb.subs[sub], sub);
      tb.subs[sub].listed = false;
    }
    tb.used.clear();
    gone |= tb.t.use_count() == 1;
  }
  if (gone) {  // a table nobody else holds: let it go (its buffers too)
    std::erase_if(tables_, [](const table_buffers& tb) { return tb.t.use_count() == 1; });
    last_ = nullptr;
    last_buffers_ = nullptr;
  }
}

}  // namespace tascell::detail
