// What a distributed table is under its handle (tascell/table.hpp): where
// each entry lives (table_shape), this process's entries and the guards of
// their updates (table_core), the entries a piece of work carries
// (table_window), and the runtime's entry points for tables.
//
// Positions: a table of n entries numbers its entries a second time, by
// position, so that each process holds one contiguous block of positions
// (process r: positions [r*block, (r+1)*block)). With the block spread an
// index is its position; with the hashed spread positions are a fixed
// permutation of indices that scatters neighbouring indices over the
// processes (an odd multiplier and two xor-shifts on the smallest power of
// two >= n, walked until the value falls below n: a bijection on [0, n)).
// With one process every spread is the identity: a plain array.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <stdexcept>
#include <string>
#include <vector>

namespace tascell {

// How a table's entries are spread over the processes.
enum class spread : std::uint8_t {
  block,   // process r holds the indices [r*b, (r+1)*b), b = ceil(n / P)
  hashed,  // neighbouring indices go to different processes
};

// Bad use of a table: the message names the table, the index and the rank.
// Thrown in a piece of work in another process, it arrives as itself.
struct table_error : std::logic_error {
  using std::logic_error::logic_error;
  table_error() : std::logic_error("") {}
  template <class A> void save(A& a) const { a(std::string(what())); }
  template <class A> void load(A& a) {
    std::string s;
    a(s);
    *this = table_error(s);
  }
};

namespace detail {

struct table_shape {
  std::int64_t n = 0;
  std::int32_t procs = 1, rank = 0;
  tascell::spread how = tascell::spread::block;
  std::int64_t block = 0;  // positions per process (the last may hold fewer)
  // The hashed permutation on [0, 2^bits).
  std::uint32_t bits = 0, s1 = 0, s2 = 0;
  std::uint64_t mask = 0, mul = 0, inv = 0;
  bool hashed_ = false;  // positions are a permutation of indices (hashed, several processes)

  table_shape() = default;
  table_shape(std::int64_t size, tascell::spread s, int processes, int my_rank);

  bool permuted() const { return hashed_; }
  std::int64_t to_pos(std::int64_t i) const {
    if (!permuted()) return i;
    std::uint64_t x = static_cast<std::uint64_t>(i);
    do x = forward(x);
    while (x >= static_cast<std::uint64_t>(n));
    return static_cast<std::int64_t>(x);
  }
  std::int64_t to_index(std::int64_t pos) const {
    if (!permuted()) return pos;
    std::uint64_t x = static_cast<std::uint64_t>(pos);
    do x = backward(x);
    while (x >= static_cast<std::uint64_t>(n));
    return static_cast<std::int64_t>(x);
  }
  int owner_of_pos(std::int64_t pos) const { return static_cast<int>(pos / block); }
  std::int64_t first_pos(int r) const {
    std::int64_t p = static_cast<std::int64_t>(r) * block;
    return p < n ? p : n;
  }
  std::int64_t end_pos(int r) const { return first_pos(r + 1); }
  std::int64_t local_count() const { return end_pos(rank) - first_pos(rank); }
  bool same_as(const table_shape& o) const { return n == o.n && how == o.how && procs == o.procs; }

 private:
  std::uint64_t forward(std::uint64_t x) const {
    x ^= x >> s1;
    x = (x * mul) & mask;
    x ^= x >> s2;
    return x;
  }
  std::uint64_t backward(std::uint64_t x) const {
    x = unshift(x, s2);
    x = (x * inv) & mask;
    return unshift(x, s1);
  }
  std::uint64_t unshift(std::uint64_t y, std::uint32_t s) const {
    std::uint64_t x = y;
    for (std::uint32_t k = s; k < bits; k += s) x = y ^ (x >> s);
    return x;
  }
};

// A table of one process: its shape, its own entries, the locks of their
// updates. Made collectively (make_table) and shared by every handle.
//
// Updates of one entry are applied one at a time. This process's positions
// are cut into sub-blocks (at most 256, of 2^sub_shift positions each),
// each with a lock: whoever applies updates holds the lock of their
// sub-block and writes the entries with plain loads and stores. A worker
// locks for each update (KQKR on 1 x 2: 1.80 times 1 x 1; collecting
// updates per sub-block and applying 512 under one lock gave 1.57: the
// buffering cost more than the locks); the message thread sorts a batch
// from another process by sub-block and applies each sub-block under one
// lock. With one worker in each process nothing is locked: that worker
// applies what other processes send (at its polls and waits), so it is its
// entries' only writer (net/table_protocol.hpp).
struct table_core : std::enable_shared_from_this<table_core> {
  std::uint32_t id = 0;         // the same in every process: the order of making
  std::string name;             // for messages
  table_shape shape;
  std::size_t entry_bytes = 0;
  char* data = nullptr;         // local_n entries
  std::int64_t first = 0;       // this process's first position
  std::int64_t local_n = 0;     // shape.local_count()
  // The positions owns() answers for: local_n, or 0 in the checking mode
  // (every access then takes the checked path: table_check.hpp).
  std::int64_t owned_n = 0;
  // The checking mode (one process playing several owners): the owners'
  // shape, procs >= 2; procs == 1 when the mode is off.
  table_shape check;
  bool checking() const { return check.procs > 1; }
  // Entry i's owner in the checking mode.
  int check_owner(std::int64_t i) const { return check.owner_of_pos(check.to_pos(i)); }
  bool guarded = false;         // several workers in this process
  std::uint32_t sub_shift = 0;  // a sub-block: 2^sub_shift positions
  std::int64_t subs = 1;        // sub-blocks
  struct alignas(64) sub_lock {
    std::atomic<std::uint8_t> held{0};
  };
  std::unique_ptr<sub_lock[]> locks;

  std::int64_t sub_of(std::int64_t pos) const { return (pos - first) >> sub_shift; }
  void lock_sub(std::int64_t s) {
    auto& g = locks[static_cast<std::size_t>(s)].held;
    if (g.exchange(1, std::memory_order_acquire) != 0) [[unlikely]] wait_for(g);
  }
  // The lock of sub-block s, if it comes free within a few spins.
  bool try_lock_sub(std::int64_t s) {
    auto& g = locks[static_cast<std::size_t>(s)].held;
    for (int spins = 0; spins < 128; ++spins) {
      if (g.load(std::memory_order_relaxed) == 0 && g.exchange(1, std::memory_order_acquire) == 0) return true;
      __builtin_ia32_pause();
    }
    return false;
  }
  void unlock_sub(std::int64_t s) { locks[static_cast<std::size_t>(s)].held.store(0, std::memory_order_release); }
  char* local(std::int64_t pos) { return data + static_cast<std::size_t>(pos - first) * entry_bytes; }
  bool owns(std::int64_t pos) const {
    return static_cast<std::uint64_t>(pos - first) < static_cast<std::uint64_t>(owned_n);
  }
  // One update of an own entry, applied at once: under its sub-block's
  // lock.
  template <class T, class U>
  void update_one(std::int64_t pos, const U& u) {
    T* e = reinterpret_cast<T*>(local(pos));
    if (!guarded) {
      u(*e);
      return;
    }
    std::int64_t s = sub_of(pos);
    lock_sub(s);
    u(*e);
    unlock_sub(s);
  }
  // The lock is held: spin briefly, then sleep between tries. The holder
  // may have been preempted, and a sleep lets it run.
  static void wait_for(std::atomic<std::uint8_t>& g);
  // "table 'white' (#2)" for messages.
  std::string describe() const;
  ~table_core();
};

// Entries of one table that a piece carries: positions [lo, hi), copied
// when the work was given away (or fetched from their owner).
struct table_window {
  std::int64_t lo = 0, hi = 0;
  std::vector<char> bytes;
  bool covers(std::int64_t pos) const { return pos >= lo && pos < hi; }
};

// Applies updates of one type to a table: `count` records of (position,
// update bytes) back to back, in order, with plain stores: the caller holds
// the lock of their sub-block (or is alone). One per (entry type, update
// type).
using table_op_fn = void (*)(table_core& t, const char* records, std::uint32_t count);
// The id of an update type, the same in every process of a binary (a hash
// of the type's name); registered before main.
std::uint64_t register_table_op(const char* type_name, table_op_fn fn, std::uint32_t update_bytes);
struct table_op_info {
  table_op_fn fn;
  std::uint32_t update_bytes;
};
// The update type with this id, or nullptr.
const table_op_info* table_op_by_id(std::uint64_t id);

// The entries at positions [lo, hi) of this process's part of t (the
// caller holds the locks of their sub-blocks, when the table has any, or
// nobody else writes them).
inline std::string copy_entries(table_core& t, std::int64_t lo, std::int64_t hi) {
  std::string out(static_cast<std::size_t>(hi - lo) * t.entry_bytes, '\0');
  if (hi > lo) std::memcpy(out.data(), t.local(lo), out.size());
  return out;
}

// Makes this process's part of a table: collective, every process makes
// its tables in the same order with the same size and spread; returns when
// every process has made it (throws table_error naming what differs).
// `debug`: the program was compiled without optimisation (the checking
// mode's default, table_check.hpp).
std::shared_ptr<table_core> make_table(std::int64_t n, tascell::spread how, std::size_t entry_bytes, std::size_t entry_align,
                                       const char* name, bool debug = false);
// The table with this id in this process (a handle that travelled).
std::shared_ptr<table_core> find_table(std::uint32_t id);
// The handle that made table `id` goes: collective, like making it; returns
// when every process's has gone, so no process reads or updates entries of
// a process that no longer has them.
void unmake_table(std::uint32_t id);

// What the handle that made a table owns besides the entries: the
// collective end of the table. Copies of the handle do not own it.
class table_life {
 public:
  table_life() = default;
  explicit table_life(std::uint32_t id) : id_(id) {}
  table_life(const table_life&) {}
  table_life& operator=(const table_life& o) {
    if (this != &o) end();
    return *this;
  }
  table_life(table_life&& o) noexcept : id_(o.id_) { o.id_ = 0; }
  table_life& operator=(table_life&& o) noexcept {
    if (this != &o) {
      end();
      id_ = o.id_;
      o.id_ = 0;
    }
    return *this;
  }
  ~table_life() { end(); }

 private:
  void end() {
    if (id_) unmake_table(id_);
    id_ = 0;
  }
  std::uint32_t id_ = 0;
};

// An update for an entry another process owns: into this worker's batch
// for that process (sent when full, and before the work it was issued in
// counts as finished). Throws table_error outside a @task context.
void post_update(table_core& t, int owner, std::uint64_t op, std::int64_t pos, const void* update,
                 std::uint32_t bytes);
// A loop over a table's indices here holds the blocks of these processes:
// each is told, so that its next request for work comes to this one.
void announce_blocks(const std::vector<int>& ranks);
// The entries [lo, hi) of a table (positions of one owner), from their
// owner: asked through the message thread; the caller waits.
std::shared_ptr<const table_window> fetch_window(table_core& t, std::int64_t lo, std::int64_t hi);
// "the entry i of table t is owned by rank r ..." and the like.
[[noreturn]] void table_fail(const table_core& t, std::int64_t index, const std::string& what);
// The same for an index out of range (kept out of the callers' code).
[[noreturn, gnu::cold, gnu::noinline]] void table_out_of_range(const table_core& t, std::int64_t index);

}  // namespace detail
}  // namespace tascell
