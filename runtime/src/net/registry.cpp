// What every process of a binary knows under the same id. Kinds of work and
// exception types: a hash of the type's name. Two sites whose type names coincide (types
// with internal linkage in two files) get the next free id in registration
// order, which is the same in every process of one binary. Incumbents and
// boards: their place in the binary.
#include "registry.hpp"

#include <mutex>
#include <sstream>
#include <typeinfo>
#include <unordered_map>
#include <vector>

#include "tascell/board.hpp"
#include "tascell/incumbent.hpp"
#include "tascell/remote_error.hpp"
#include "tascell/root.hpp"
#include "tascell/wire.hpp"

namespace tascell::detail {
namespace {

std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 0xcbf29ce484222325ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

struct kind_table {
  std::mutex m;
  std::unordered_map<std::uint64_t, const node_kind*> by_id;
  std::unordered_map<const node_kind*, std::uint64_t> by_kind;
};
kind_table& kinds() {
  static kind_table t;
  return t;
}

struct exception_table {
  std::mutex m;
  std::unordered_map<std::uint64_t, const exception_codec*> by_id;
  std::vector<std::pair<std::uint64_t, const exception_codec*>> all;
};
exception_table& exceptions() {
  static exception_table t;
  return t;
}

// Namespace-scope objects shared between processes (incumbents, boards),
// with the operations of their type.
template <class Ops>
struct object_table {
  std::mutex m;
  std::unordered_map<std::uint64_t, std::pair<void*, const Ops*>> by_id;
};
object_table<incumbent_ops>& incumbents() {
  static object_table<incumbent_ops> t;
  return t;
}
object_table<board_ops>& boards() {
  static object_table<board_ops> t;
  return t;
}
std::atomic<std::uint64_t> lamport{0};
std::atomic<int> my_rank{0};

// Incumbents and boards are known by their distance from this object:
// globals of one binary lie at the same distances from each other in every
// process.
const char anchor = 0;
std::uint64_t object_id(const void* obj) {
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(obj) -
                                    reinterpret_cast<std::uintptr_t>(&anchor));
}

template <class Ops>
std::uint64_t enrol(object_table<Ops>& t, void* obj, const Ops* ops) {
  std::lock_guard<std::mutex> g(t.m);
  std::uint64_t id = object_id(obj);
  t.by_id[id] = {obj, ops};
  return id;
}

template <class Ops>
void withdraw(object_table<Ops>& t, void* obj) {
  std::lock_guard<std::mutex> g(t.m);
  t.by_id.erase(object_id(obj));
}

}  // namespace

std::atomic<bool> spreading{false};

std::uint64_t register_incumbent(void* obj, const incumbent_ops* ops) { return enrol(incumbents(), obj, ops); }
void unregister_incumbent(void* obj) { withdraw(incumbents(), obj); }
std::uint64_t register_board(void* obj, const board_ops* ops) { return enrol(boards(), obj, ops); }
void unregister_board(void* obj) { withdraw(boards(), obj); }

std::uint64_t board_stamp() {
  std::uint64_t clock = lamport.fetch_add(1, std::memory_order_relaxed) + 1;
  return (clock << 16) | static_cast<std::uint64_t>(my_rank.load(std::memory_order_relaxed) & 0xffff);
}

void board_seen(std::uint64_t stamp) {
  std::uint64_t clock = stamp >> 16;
  std::uint64_t cur = lamport.load(std::memory_order_relaxed);
  while (cur < clock && !lamport.compare_exchange_weak(cur, clock, std::memory_order_relaxed)) {
  }
}

std::uint64_t register_kind(const void* kind, const char* type_name) {
  auto* k = static_cast<const node_kind*>(kind);
  kind_table& t = kinds();
  std::lock_guard<std::mutex> g(t.m);
  if (auto it = t.by_kind.find(k); it != t.by_kind.end()) return it->second;
  std::uint64_t id = fnv1a(type_name);
  for (int n = 1; id == 0 || t.by_id.count(id); ++n)
    id = fnv1a(std::string(type_name) + "#" + std::to_string(n));
  t.by_id[id] = k;
  t.by_kind[k] = id;
  return id;
}

void register_exception(const char* type_name, const exception_codec* c) {
  exception_table& t = exceptions();
  std::lock_guard<std::mutex> g(t.m);
  std::uint64_t id = fnv1a(type_name);
  if (t.by_id.count(id)) return;
  t.by_id[id] = c;
  t.all.emplace_back(id, c);
}

namespace net {

const node_kind* find_kind(std::uint64_t id) {
  kind_table& t = kinds();
  std::lock_guard<std::mutex> g(t.m);
  auto it = t.by_id.find(id);
  return it == t.by_id.end() ? nullptr : it->second;
}

std::uint64_t id_of(const node_kind* k) {
  kind_table& t = kinds();
  std::lock_guard<std::mutex> g(t.m);
  auto it = t.by_kind.find(k);
  return it == t.by_kind.end() ? 0 : it->second;
}

// [u8 0][u64 type id][bytes]  a registered type
// [u8 1][u32 rank][type name][what]  anything else, as remote_error
std::string pack_exception(const std::exception_ptr& e) {
  exception_table& t = exceptions();
  for (auto& [id, codec] : t.all) {
    std::ostringstream os;
    bool ok = false;
    {
      out_archive a(os);
      ok = codec->pack(e, a);
    }
    if (!ok) continue;
    std::ostringstream whole;
    {
      out_archive a(whole);
      a(std::uint8_t{0}, id, os.str());
    }
    return whole.str();
  }
  std::uint32_t rank = 0;
  std::string type = "unknown", what = "an exception not derived from std::exception";
  try {
    std::rethrow_exception(e);
  } catch (const remote_error& x) {
    rank = static_cast<std::uint32_t>(x.rank);
    type = x.type;
    what = x.what();
  } catch (const std::exception& x) {
    rank = static_cast<std::uint32_t>(tascell::rank());
    type = typeid(x).name();
    what = x.what();
  } catch (...) {
    rank = static_cast<std::uint32_t>(tascell::rank());
  }
  std::ostringstream whole;
  {
    out_archive a(whole);
    a(std::uint8_t{1}, rank, type, what);
  }
  return whole.str();
}

std::exception_ptr unpack_exception(std::string_view bytes, int from_rank) {
  std::istringstream is{std::string(bytes)};
  in_archive a(is);
  std::uint8_t tag = 0;
  a(tag);
  if (tag == 0) {
    std::uint64_t id = 0;
    std::string body;
    a(id, body);
    exception_table& t = exceptions();
    auto it = t.by_id.find(id);
    if (it == t.by_id.end())
      throw std::runtime_error("an exception of a type this process has not registered (rank " +
                               std::to_string(from_rank) + ")");
    std::istringstream bs(body);
    in_archive b(bs);
    return it->second->unpack(b);
  }
  if (tag != 1) throw std::runtime_error("an exception in an unknown encoding");
  std::uint32_t rank = 0;
  std::string type, what;
  a(rank, type, what);
  return std::make_exception_ptr(remote_error(static_cast<int>(rank), type, what));
}

bool apply_incumbent(std::uint64_t id, std::string_view bytes) {
  auto& t = incumbents();
  std::lock_guard<std::mutex> g(t.m);
  auto it = t.by_id.find(id);
  if (it == t.by_id.end())
    throw std::runtime_error(
        "an improvement of an incumbent this process does not have (incumbents must be at "
        "namespace scope)");
  if (bytes.size() != it->second.second->size)
    throw std::runtime_error("an improvement of an incumbent with a value of the wrong size");
  return it->second.second->apply(it->second.first, bytes.data());
}

std::vector<std::pair<std::uint64_t, std::string>> incumbent_values() {
  auto& t = incumbents();
  std::lock_guard<std::mutex> g(t.m);
  std::vector<std::pair<std::uint64_t, std::string>> v;
  for (auto& [id, e] : t.by_id) {
    std::string b(e.second->size, '\0');
    e.second->read(e.first, b.data());
    v.emplace_back(id, std::move(b));
  }
  return v;
}

void apply_board(std::uint64_t id, std::uint64_t key, std::uint64_t stamp, std::string_view value) {
  board_seen(stamp);
  auto& t = boards();
  std::pair<void*, const board_ops*> b;
  {
    std::lock_guard<std::mutex> g(t.m);
    auto it = t.by_id.find(id);
    if (it == t.by_id.end())
      throw std::runtime_error(
          "a write to a board this process does not have (boards must be at namespace scope)");
    b = it->second;
  }
  b.second->apply(b.first, key, stamp, value);
}

std::vector<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::string>> board_writes() {
  auto& t = boards();
  std::lock_guard<std::mutex> g(t.m);
  std::vector<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::string>> out;
  for (auto& [id, b] : t.by_id)
    for (auto& [key, stamp, value] : b.second->take_written(b.first))
      out.emplace_back(id, key, stamp, std::move(value));
  return out;
}

void set_rank(int rank) { my_rank.store(rank, std::memory_order_relaxed); }

}  // namespace net
}  // namespace tascell::detail
