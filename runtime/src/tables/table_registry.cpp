// Making distributed tables (collectively), finding them by id, the update
// types every process knows, and the tables' error messages.
#include "table_registry.hpp"

#include <time.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <sstream>
#include <unordered_map>

#include "../net/table_protocol.hpp"
#include "table_process.hpp"
#include "tascell/detail/table_check.hpp"
#include "tascell/remote_error.hpp"

TASCELL_EXCEPTION(tascell::table_error)

namespace tascell::detail {

namespace {

struct registry {
  std::mutex m;
  std::uint32_t next_id = 1;
  std::unordered_map<std::uint32_t, std::weak_ptr<table_core>> tables;
  std::unordered_map<std::uint64_t, table_op_info> ops;
};
registry& reg() {
  static registry r;
  return r;
}

std::uint64_t fnv1a(const char* s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (; *s; ++s) {
    h ^= static_cast<unsigned char>(*s);
    h *= 0x100000001b3ull;
  }
  return h;
}

const char* spread_name(tascell::spread s) { return s == tascell::spread::hashed ? "hashed" : "block"; }

}  // namespace

void table_core::wait_for(std::atomic<std::uint8_t>& g) {
  for (unsigned spins = 0;; ++spins) {
    if (g.load(std::memory_order_relaxed) == 0 && g.exchange(1, std::memory_order_acquire) == 0) return;
    if (spins < 64) {
      __builtin_ia32_pause();
    } else {
      timespec ts{0, 1000};
      nanosleep(&ts, nullptr);
    }
  }
}

std::string table_core::describe() const {
  std::string s = "table";
  if (!name.empty()) s += " '" + name + "'";
  return s + " (#" + std::to_string(id) + ")";
}

table_core::~table_core() {
  {
    std::lock_guard<std::mutex> g(reg().m);
    auto it = reg().tables.find(id);
    if (it != reg().tables.end() && it->second.expired()) reg().tables.erase(it);
  }
  std::free(data);
}

[[noreturn]] void table_fail(const table_core& t, std::int64_t index, const std::string& what) {
  int rank = t.shape.rank;
  throw table_error("tascell: " + t.describe() + ": entry " + std::to_string(index) + " " + what + " (rank " +
                    std::to_string(rank) + ")");
}

void table_out_of_range(const table_core& t, std::int64_t index) {
  table_fail(t, index, "is out of range: the table has " + std::to_string(t.shape.n) + " entries");
}

std::uint64_t register_table_op(const char* type_name, table_op_fn fn, std::uint32_t update_bytes) {
  std::uint64_t id = fnv1a(type_name);
  std::lock_guard<std::mutex> g(reg().m);
  // Two update types whose names coincide (internal linkage in two files)
  // take the next free id, in registration order: the same in every
  // process of one binary.
  while (reg().ops.count(id) && reg().ops[id].fn != fn) ++id;
  reg().ops[id] = {fn, update_bytes};
  return id;
}

const table_op_info* table_op_by_id(std::uint64_t id) {
  std::lock_guard<std::mutex> g(reg().m);
  auto it = reg().ops.find(id);
  return it == reg().ops.end() ? nullptr : &it->second;
}

std::shared_ptr<table_core> table_by_id(std::uint32_t id) {
  std::lock_guard<std::mutex> g(reg().m);
  auto it = reg().tables.find(id);
  return it == reg().tables.end() ? nullptr : it->second.lock();
}

std::shared_ptr<table_core> find_table(std::uint32_t id) {
  auto t = table_by_id(id);
  if (!t)
    throw table_error("tascell: a table handle names table #" + std::to_string(id) +
                      ", which this process (rank " + std::to_string(table_process::rank()) +
                      ") has not made or has destroyed: every process must make the same tables, in the same order");
  return t;
}

void lay_out_table(table_core& t, const table_shape& shape, std::size_t entry_bytes, std::size_t entry_align,
                   bool guarded) {
  t.shape = shape;
  t.entry_bytes = entry_bytes;
  t.first = shape.first_pos(shape.rank);
  t.local_n = t.owned_n = shape.local_count();
  std::size_t bytes = static_cast<std::size_t>(t.local_n) * entry_bytes;
  // Zeroed pages, mapped when first touched.
  if (entry_align <= alignof(std::max_align_t)) {
    t.data = static_cast<char*>(std::calloc(bytes ? bytes : 1, 1));
  } else {
    std::size_t rounded = (bytes + entry_align - 1) / entry_align * entry_align;
    t.data = static_cast<char*>(std::aligned_alloc(entry_align, rounded ? rounded : entry_align));
    if (t.data) std::memset(t.data, 0, rounded);
  }
  if (!t.data)
    throw table_error("tascell: " + t.describe() + ": cannot allocate this process's " + std::to_string(bytes) +
                      " bytes (rank " + std::to_string(shape.rank) + ")");
  t.guarded = guarded;
  // Sub-blocks of at least 1024 positions, at most 256 of them.
  while ((t.local_n >> t.sub_shift) > 256 || (std::int64_t{1} << t.sub_shift) < 1024) ++t.sub_shift;
  t.subs = std::max<std::int64_t>(1, (t.local_n + (std::int64_t{1} << t.sub_shift) - 1) >> t.sub_shift);
  t.locks = std::make_unique<table_core::sub_lock[]>(static_cast<std::size_t>(t.subs));
}

std::shared_ptr<table_core> make_table(std::int64_t n, tascell::spread how, std::size_t entry_bytes, std::size_t entry_align,
                                       const char* name, bool debug) {
  const int procs = table_process::processes();
  auto t = std::make_shared<table_core>();
  t->name = name ? name : "";
  if (n < 0) throw table_error("tascell: " + t->describe() + ": a table cannot have " + std::to_string(n) + " entries");
  // Several workers here: locks. One worker in each of several processes:
  // that worker applies what other processes send (net/table_protocol.hpp).
  lay_out_table(*t, table_shape(n, how, procs, table_process::rank()), entry_bytes, entry_align,
                table_process::workers() > 1);
  if (int owners = check_owners_for_new_table(debug)) {
    t->check = table_shape(n, how, owners, 0);
    t->owned_n = 0;
  }
  {
    std::lock_guard<std::mutex> g(reg().m);
    t->id = reg().next_id++;
    reg().tables[t->id] = t;
  }
  if (procs > 1) {
    // The same table in every process: size, spread, entry size, name.
    std::ostringstream d;
    d << n << " entries of " << entry_bytes << " bytes, " << spread_name(how) << " spread, named '" << t->name << "'";
    int other = -1;
    std::string theirs = table_process::protocol().made(t->id, d.str(), other);
    if (!theirs.empty())
      throw table_error("tascell: " + t->describe() + " differs between processes: rank " +
                        std::to_string(t->shape.rank) + " made it with " + d.str() + ", rank " +
                        std::to_string(other) + " with " + theirs +
                        " (every process must make the same tables in the same order)");
  }
  return t;
}

void unmake_table(std::uint32_t id) {
  if (table_process::processes() < 2) return;
  int other = -1;
  table_process::protocol().made(id | (std::uint32_t{1} << 31), "gone", other);
}

}  // namespace tascell::detail
