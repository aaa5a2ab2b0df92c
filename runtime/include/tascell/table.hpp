// Distributed tables (docs/language.md "Tables"): data bigger than one
// machine, split over the processes, updated where each entry lives.
//
//   struct entry { std::uint8_t left; std::int8_t dist; };
//   tascell::table<entry> black(N, tascell::spread::hashed, "black");  // collective
//
//   struct lose_one {                       // an update: runs at the entry's owner
//     std::int8_t dist;
//     void operator()(entry& e) const { if (e.dist < dist) e.dist = dist; --e.left; }
//   };
//   @dowork for (long i : white.indices())  // each process starts on its own entries
//     if (white[i].dist == k)               // the iteration's own entry
//       for (long q : predecessors(i)) black.apply(q, lose_one{k});
//
// A table is a handle: copies share the entries (in(t) copies the handle,
// and a handle that travels to another process finds that process's part
// of the same table). Each process holds only its own entries (owner(i));
// t[i] reads one of them, or one that the running piece of work carries: a
// piece of a loop over t.indices() that went to another process reads the
// entries of its iterations of every table it captured that has t's size
// and spread (fetched from their owner, in one message, at the first read). t.get(i) reads any
// entry (from its owner: it may wait). t.apply(i, u) calls u(entry) at the
// entry's owner: at once when that is this process, else batched per
// destination and sent by the message thread, never waiting. Updates of one
// entry never run at the same time; their order is unspecified, so updates
// should commute (counters, min, max, flags).
//
// Completion: a @dowork (and a root call) completes only when every update
// issued inside it has been applied, in every process.
//
// Entries and updates are copied between processes as bytes: both must be
// trivially copyable.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "tascell/detail/holds_address.hpp"
#include "tascell/detail/macros.hpp"
#include "tascell/detail/table_check.hpp"
#include "tascell/detail/table_core.hpp"
#include "tascell/table_file.hpp"

namespace tascell {

template <class T> class table;

namespace detail {

// The operation that applies update U to entries of type T at their owner.
template <class T, class U>
struct table_op {
  static void run(table_core& t, const char* rec, std::uint32_t count) {
    for (std::uint32_t k = 0; k < count; ++k, rec += sizeof(std::int64_t) + sizeof(U)) {
      std::int64_t pos;
      U u;
      std::memcpy(&pos, rec, sizeof pos);
      std::memcpy(static_cast<void*>(&u), rec + sizeof pos, sizeof(U));
      u(reinterpret_cast<T*>(t.data)[pos - t.first]);
    }
  }
  static inline const std::uint64_t id =
      register_table_op(typeid(table_op).name(), &run, static_cast<std::uint32_t>(sizeof(U)));
};

}  // namespace detail

// The indices of a table, in the order of their positions: a @dowork for
// over it starts in every process on that process's own entries. Iterable
// in plain code too (every index, in that order).
template <class T>
class index_space {
 public:
  index_space() = default;
  explicit index_space(const table<T>& t) : t_(t) {}
  const table<T>& of() const { return t_; }
  std::int64_t size() const { return t_.size(); }

  class iterator {
   public:
    iterator(const detail::table_shape* s, std::int64_t pos, const detail::table_core* acts = nullptr)
        : s_(s), pos_(pos), acts_(acts) {}
    std::int64_t operator*() const {
      std::int64_t i = s_->to_index(pos_);
      if (acts_) [[unlikely]] detail::check_act_as(*acts_, i);  // the checking mode: act as i's owner
      return i;
    }
    iterator& operator++() {
      ++pos_;
      return *this;
    }
    bool operator!=(const iterator& o) const { return pos_ != o.pos_; }
    bool operator==(const iterator& o) const { return pos_ == o.pos_; }

   private:
    const detail::table_shape* s_;
    std::int64_t pos_;
    const detail::table_core* acts_;
  };
  iterator begin() const { return {&t_.shape(), from_, acts_}; }
  iterator end() const { return {&t_.shape(), to_}; }

  // Only this process's positions (local_indices()). In the tables'
  // checking mode (one process) every position, each index making the code
  // act as its owner (detail/table_check.hpp).
  index_space local() const {
    index_space s = *this;
    s.from_ = t_.shape().first_pos(t_.shape().rank);
    s.to_ = t_.shape().end_pos(t_.shape().rank);
    if (t_.core().checking()) s.acts_ = &t_.core();
    return s;
  }
  std::int64_t from() const { return from_; }
  std::int64_t to() const { return to_; }
  template <class A> void save(A& a) const { a(t_, from_, to_); }
  template <class A> void load(A& a) { a(t_, from_, to_); }

 private:
  friend class table<T>;
  index_space(const table<T>& t, std::int64_t from, std::int64_t to) : t_(t), from_(from), to_(to) {}
  table<T> t_;
  std::int64_t from_ = 0, to_ = 0;
  const detail::table_core* acts_ = nullptr;
};

template <class T>
class table {
  static_assert(std::is_trivially_copyable_v<T>,
                "a table's entry type must be trivially copyable: entries travel between processes as bytes");
  static_assert(!detail::holds_address_v<T>,
                "a table's entry cannot be a pointer or a view (std::span, std::string_view): entries travel "
                "between processes as bytes");

 public:
  // An empty handle (one that is assigned or loaded later).
  table() = default;
  // Collective: every process makes its tables in the same order, with the
  // same n and spread. `name` appears in error messages. The end of the
  // handle made here is collective too (each process waits for the others
  // to reach it); its copies can go at any time.
  explicit table(std::int64_t n, spread how = spread::block, const char* name = nullptr)
      : core_(detail::make_table(n, how, sizeof(T), alignof(T), name, debug_build())), life_(core_->id) {
    cache();
  }

  std::int64_t size() const { return core_->shape.n; }
  const detail::table_shape& shape() const { return core_->shape; }
  // The rank that holds entry i.
  int owner(std::int64_t i) const { return core_->shape.owner_of_pos(pos_of(i)); }
  // In the tables' checking mode: true, and the code after it acts as i's
  // owner (detail/table_check.hpp).
  bool is_local(std::int64_t i) const {
    if (mine(pos_of(i))) [[likely]]
      return true;
    if (core_->checking()) detail::check_act_as(*core_, i);
    return core_->checking();
  }
  const std::string& name() const { return core_->name; }

  index_space<T> indices() const { return {*this, 0, size()}; }
  index_space<T> local_indices() const { return indices().local(); }

  // Entry i: this process's own, or one the running piece carries.
  TASCELL_INLINE const T& operator[](std::int64_t i) const {
    if (i >= first_ && i < direct_end_) [[likely]]
      return direct_base_[i];
    return *reinterpret_cast<const T*>(read_slow(core_.get(), win_.at, may_lo_, may_hi_, i));
  }
  // Entry i of this process, to read or write (plain code, e.g. setting a
  // table up: `for (long i : t.local_indices()) t[i] = ...`). Inside
  // parallel work, write through apply().
  T& operator[](std::int64_t i) {
    std::int64_t pos = pos_of(i);
    if (!mine(pos)) [[unlikely]] {
      if (core_->checking()) detail::check_write(*core_, i);
      else
        detail::table_fail(*core_, i, "is owned by rank " + std::to_string(owner(i)) +
                                          ": a process holds only its own entries (read another's with get(i), "
                                          "update it with apply())");
    }
    return entry(pos);
  }
  // Any entry, wherever it lives (a message to its owner, and a wait).
  T get(std::int64_t i) const {
    std::int64_t pos = pos_of(i);
    if (mine(pos) || core_->checking()) return entry(pos);
    if (win().get() && win()->covers(pos)) return (*this)[i];
    auto w = detail::fetch_window(*core_, pos, pos + 1);
    T v;
    std::memcpy(static_cast<void*>(&v), w->bytes.data(), sizeof(T));
    return v;
  }

  // Every entry, in index order: this process's own and one read from each
  // other process (for small tables replicated everywhere, and checks).
  std::vector<T> gather() const {
    const detail::table_shape& s = core_->shape;
    std::vector<T> out(static_cast<std::size_t>(s.n));
    for (int r = 0; r < s.procs; ++r) {
      std::int64_t lo = s.first_pos(r), hi = s.end_pos(r);
      if (lo >= hi) continue;
      auto w = detail::fetch_window(*core_, lo, hi);
      for (std::int64_t pos = lo; pos < hi; ++pos)
        std::memcpy(static_cast<void*>(&out[static_cast<std::size_t>(s.to_index(pos))]),
                    w->bytes.data() + static_cast<std::size_t>(pos - lo) * sizeof(T), sizeof(T));
    }
    return out;
  }

  // u(entry i) at the entry's owner. Never waits for another process.
  template <class U>
  TASCELL_INLINE void apply(std::int64_t i, const U& u) const {
    static_assert(std::is_trivially_copyable_v<U>,
                  "a table update must be trivially copyable: it travels to the entry's owner as bytes");
    static_assert(!detail::holds_address_v<U>,
                  "a table update cannot be a pointer or a view (std::span, std::string_view): it travels to the "
                  "entry's owner as bytes");
    static_assert(std::is_invocable_v<const U&, T&>, "a table update is called as u(entry&)");
    static_assert(sizeof(U) <= 4096, "a table update is at most 4 KiB (it travels in batches of 32 KiB)");
    if (i >= first_ && i < direct_updates_end_) [[likely]] {
      u(direct_base_[i]);
      return;
    }
    apply_slow(core_.get(), i, u);
  }

  // Collective, between root calls: every process writes its entries into
  // the directory `dir` (its part file), and the table's header is written
  // once every part is (table_file.hpp). Returns when the save is complete
  // everywhere; throws table_file_error in every process if any failed.
  void save(const std::string& dir, const save_options& o = {}) const {
    detail::save_table(*core_, dir, typeid(T).name(), o);
  }
  // Collective, between root calls: the table saved in `dir`, on this run's
  // processes (any number: not only the number that saved it), with the
  // spread it was saved with. Every block read is checked; a file that is
  // missing, truncated or corrupt throws table_file_error (naming the file
  // and block) in every process.
  static table load(const std::string& dir, const char* name = nullptr) {
    table_file_info info = detail::load_table_info(dir, typeid(T).name(), sizeof(T));
    table t(info.entries, info.how, name ? name : info.name.c_str());
    detail::load_table(*t.core_, info);
    return t;
  }

  // --- how the runtime moves handles and carried entries ---
  template <class A>
    requires(!std::is_convertible_v<const A&, std::string>)
  void save(A& a) const {
    std::uint32_t id = core_ ? core_->id : 0;
    a(id);
  }
  template <class A>
    requires(!std::is_convertible_v<const A&, std::string>)
  void load(A& a) {
    std::uint32_t id = 0;
    a(id);
    core_ = detail::find_table(id);
    cache();
    win() = nullptr;
    may_lo_ = may_hi_ = 0;
  }
  // A copy for a block of a loop's iterations (table_loop.hpp), which lives
  // in the block's frame while this handle lives on: it takes no reference
  // count, its window is this handle's (what it fetches stays here), and
  // no call takes its address, so the compiler keeps what the accesses
  // need in registers across the calls of the body.
  TASCELL_INLINE table borrowed() const { return table(borrow{}, *this); }  // made in place: never copied
  detail::table_core& core() const { return *core_; }
  // The entries at positions [lo, hi) (of one process) as a window ...
  void carry(std::shared_ptr<const detail::table_window> w) { win() = std::move(w); }
  // ... or only the right to read them: fetched from their owner at the
  // first read of one of them (a piece of a loop over the indices that
  // went to another process: only the tables its iterations read travel).
  void may_read(std::int64_t lo, std::int64_t hi) {
    may_lo_ = lo;
    may_hi_ = hi;
    win() = nullptr;
  }
  std::int64_t may_lo() const { return may_lo_; }
  std::int64_t may_hi() const { return may_hi_; }

 private:
  // This process's entry at position pos (the entry size known here: no
  // multiplication by a size read from the table).
  TASCELL_INLINE T& entry(std::int64_t pos) const { return data_[pos - first_]; }
  // This process's entry at pos (the fast path's test: owns(), from the
  // handle's own copy of the table's constants).
  TASCELL_INLINE bool mine(std::int64_t pos) const {
    return static_cast<std::uint64_t>(pos - first_) < static_cast<std::uint64_t>(owned_);
  }
  void cache() {
    data_ = reinterpret_cast<T*>(core_->data);
    first_ = core_->first;
    owned_ = core_->owned_n;
    n_ = core_->shape.n;
    permuted_ = core_->shape.permuted();
    direct_end_ = first_ + (permuted_ ? 0 : owned_);
    direct_updates_end_ = core_->guarded ? first_ : direct_end_;
    direct_base_ = reinterpret_cast<T*>(reinterpret_cast<std::uintptr_t>(data_) -
                                        static_cast<std::uintptr_t>(first_) * sizeof(T));
  }
  // The whole path of a read and an update, out of the caller's code (the
  // fast path is all that is inlined where a loop reads and updates, so that
  // the code around it, such as a move generator's callback, stays small
  // enough to be inlined in turn). Static, given the parts they need, so
  // that a handle's address is not taken by the slow path: borrowed().
  [[gnu::noinline]] static const char* read_slow(detail::table_core* core,
                                                 std::shared_ptr<const detail::table_window>* win,
                                                 std::int64_t may_lo, std::int64_t may_hi, std::int64_t i) {
    std::int64_t pos = position_in(*core, core->shape.n, core->shape.permuted(), i);
    if (core->owns(pos)) return core->local(pos);
    return carried(core, win, may_lo, may_hi, i, pos);
  }
  template <class U>
  [[gnu::noinline]] static void apply_slow(detail::table_core* core, std::int64_t i, const U& u) {
    std::int64_t pos = position_in(*core, core->shape.n, core->shape.permuted(), i);
    if (core->owns(pos)) {
      core->template update_one<T>(pos, u);
      return;
    }
    apply_elsewhere(core, i, pos, u);
  }
  // Entry i at position pos, not this process's: from the window, fetched
  // now if the piece may read it.
  static const char* carried(detail::table_core* core, std::shared_ptr<const detail::table_window>* win,
                             std::int64_t may_lo, std::int64_t may_hi, std::int64_t i, std::int64_t pos) {
    if (core->checking()) {
      detail::check_read(*core, i);
      return core->local(pos);
    }
    auto& w = *win;
    if (!(w && w->covers(pos)) && pos >= may_lo && pos < may_hi) w = detail::fetch_window(*core, may_lo, may_hi);
    if (w && w->covers(pos)) return w->bytes.data() + static_cast<std::size_t>(pos - w->lo) * sizeof(T);
    detail::table_fail(*core, i,
                       "is owned by rank " + std::to_string(core->shape.owner_of_pos(pos)) +
                           " and this piece of work does not carry it (read it with get(i), or iterate over the "
                           "table's indices())");
  }
  std::shared_ptr<const detail::table_window>& win() const { return *win_.at; }
  // apply() of another process's entry (or in the checking mode), out of
  // the caller's code: the update's call site stays small enough for the
  // compiler to inline what calls it, as with a plain array.
  template <class U>
  [[gnu::noinline]] static void apply_elsewhere(detail::table_core* core, std::int64_t i, std::int64_t pos,
                                                const U& u) {
    if (core->checking()) [[unlikely]] {
      detail::check_apply(*core, i);
      core->template update_one<T>(pos, u);
      return;
    }
    detail::post_update(*core, core->shape.owner_of_pos(pos), detail::table_op<T, U>::id, pos, &u, sizeof(U));
  }
  struct borrow {};
  TASCELL_INLINE table(borrow, const table& o)
      : core_(std::shared_ptr<detail::table_core>(), o.core_.get()),
        data_(o.data_),
        first_(o.first_),
        owned_(o.owned_),
        n_(o.n_),
        permuted_(o.permuted_),
        direct_end_(o.direct_end_),
        direct_updates_end_(o.direct_updates_end_),
        direct_base_(o.direct_base_),
        may_lo_(o.may_lo_),
        may_hi_(o.may_hi_) {
    win_.at = o.win_.at;
  }
  // Compiled without optimisation: the checking mode's default.
  static constexpr bool debug_build() {
#ifdef __OPTIMIZE__
    return false;
#else
    return true;
#endif
  }
  TASCELL_INLINE std::int64_t pos_of(std::int64_t i) const { return position_in(*core_, n_, permuted_, i); }
  // Entry i's position, i checked against the table's size n (given by the
  // caller: a handle's copy, or the core's own).
  TASCELL_INLINE static std::int64_t position_in(detail::table_core& core, std::int64_t n, bool permuted,
                                                 std::int64_t i) {
    if (static_cast<std::uint64_t>(i) >= static_cast<std::uint64_t>(n)) [[unlikely]]
      detail::table_out_of_range(core, i);
    return permuted ? core.shape.to_pos(i) : i;
  }
  std::shared_ptr<detail::table_core> core_;
  // The table's constants, copied from core_ (they never change): read
  // from the handle, not through the pointer.
  T* data_ = nullptr;
  std::int64_t first_ = 0, owned_ = 0, n_ = 0;
  bool permuted_ = false;
  // The fast path of a read and an update: entry i is direct_base_[i]
  // (data_ - first_) when first_ <= i < direct_end_ (direct_updates_end_):
  // i is then this process's (its entries are positions [first_, first_ +
  // owned_) of [0, n)), and its position is i (direct_end_ is first_ when
  // positions are permuted, and in the checking mode, where owned_ is 0);
  // an update takes no lock (direct_updates_end_ is first_ when several
  // workers update under locks). Anything else takes the whole path. Two
  // comparisons against constants a loop keeps in registers or reads from
  // its frame, and no second induction variable (as `i - first_ < owned_`
  // made: with it, GCC kept KQKR's loop counter in memory).
  std::int64_t direct_end_ = 0, direct_updates_end_ = 0;
  T* direct_base_ = nullptr;
  // Entries of another process this copy of the handle reads (a piece's).
  // Where they are: this handle's own, or (a borrowed copy) the handle's
  // it borrows.
  struct window_slot {
    std::shared_ptr<const detail::table_window> own;
    std::shared_ptr<const detail::table_window>* at = &own;
    window_slot() = default;
    window_slot(const window_slot& o) : own(*o.at) {}
    window_slot& operator=(const window_slot& o) {
      if (this != &o) own = *o.at, at = &own;
      return *this;
    }
  };
  mutable window_slot win_;
  std::int64_t may_lo_ = 0, may_hi_ = 0;
  // Last: it goes first, while the entries are still here.
  detail::table_life life_;
};

}  // namespace tascell
