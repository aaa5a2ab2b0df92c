#include "sub_batches.hpp"

#include <cstring>

namespace tascell::detail {

namespace {
constexpr std::size_t header_bytes = sizeof(table_op_fn) + 4 + 4;
}

sub_batches::table_buffers& sub_batches::of(table_core& t) {
  if (last_ < tables_.size() && tables_[last_].t.get() == &t) return tables_[last_];
  for (std::size_t k = 0; k < tables_.size(); ++k)
    if (tables_[k].t.get() == &t) return tables_[last_ = k];
  tables_.push_back({t.shared_from_this(), std::vector<buffer>(static_cast<std::size_t>(t.subs))});
  last_ = tables_.size() - 1;
  return tables_.back();
}

bool sub_batches::add(table_core& t, table_op_fn fn, std::int64_t pos, const void* update, std::uint32_t bytes) {
  buffer& b = of(t).subs[static_cast<std::size_t>(t.sub_of(pos))];
  if (b.run_at == std::string::npos || b.run_fn != fn) {
    b.run_at = b.bytes.size();
    b.run_fn = fn;
    char h[header_bytes] = {};
    std::memcpy(h, &fn, sizeof fn);
    std::memcpy(h + sizeof fn + 4, &bytes, 4);
    b.bytes.append(h, header_bytes);
  }
  b.bytes.append(reinterpret_cast<const char*>(&pos), sizeof pos);
  b.bytes.append(static_cast<const char*>(update), bytes);
  char* count_at = b.bytes.data() + b.run_at + sizeof(table_op_fn);
  std::uint32_t c;
  std::memcpy(&c, count_at, 4);
  ++c;
  std::memcpy(count_at, &c, 4);
  ++records_;
  return ++b.count >= full;
}

bool sub_batches::apply(table_core& t, buffer& b, std::int64_t sub, bool wait) {
  if (b.count == 0) return true;
  if (wait) t.lock_sub(sub);
  else if (!t.try_lock_sub(sub)) return false;
  const char* p = b.bytes.data();
  const char* end = p + b.bytes.size();
  while (p < end) {
    table_op_fn fn;
    std::uint32_t count, bytes;
    std::memcpy(&fn, p, sizeof fn);
    std::memcpy(&count, p + sizeof fn, 4);
    std::memcpy(&bytes, p + sizeof fn + 4, 4);
    p += header_bytes;
    fn(t, p, count);
    p += static_cast<std::size_t>(count) * (sizeof(std::int64_t) + bytes);
  }
  t.unlock_sub(sub);
  records_ -= b.count;
  b.bytes.clear();
  b.run_at = std::string::npos;
  b.count = 0;
  return true;
}

bool sub_batches::apply(table_core& t, std::int64_t pos, bool wait) {
  std::int64_t sub = t.sub_of(pos);
  return apply(t, of(t).subs[static_cast<std::size_t>(sub)], sub, wait);
}

bool sub_batches::apply_all(bool wait) {
  if (records_ == 0) return true;
  for (auto& tb : tables_)
    for (std::size_t s = 0; s < tb.subs.size(); ++s) apply(*tb.t, tb.subs[s], static_cast<std::int64_t>(s), wait);
  if (records_ == 0) {
    tables_.clear();  // lets the tables go
    last_ = 0;
  }
  return records_ == 0;
}

}  // namespace tascell::detail
