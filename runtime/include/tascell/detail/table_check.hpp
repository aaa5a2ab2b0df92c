// The tables' checking mode: one process plays several owners, so that a
// program that would fail on two processes fails on one, at once, with the
// same message (docs/language.md, "Checking tables on one process").
//
// On with one process when TASCELL_TABLE_CHECK=N (N owners) or, by
// default, when the program was compiled without optimisation (a debug
// build: 3 owners). The entries stay one plain array; only which accesses
// are allowed changes. Entry i has the owner it would have on N processes
// (table_core::check_owner), and each thread knows whom it acts as:
//
// - plain code acts as rank 0 (what rank() says), except that
//   t.is_local(i) answers true and makes the code after it act as i's
//   owner, and each index a loop over t.local_indices() hands out makes it
//   act as that index's owner (so set-up loops cover every entry once);
//   rank() and is_root() make it act as rank 0 again;
// - an iteration of a @dowork for over a table's indices reads only its
//   own entry of each table of the loop's size and spread (what a piece
//   that went to another process carries), and what is_local said;
// - other parallel work acts as rank 0.
//
// t[i] of an entry the code's owner does not hold, a write in place of
// one, and apply() of one outside a root call throw table_error as they
// would on N processes. The thread's state follows the iteration on its
// thread; with several workers a piece that another worker steals starts
// as rank 0.
#pragma once

#include <atomic>
#include <cstdint>

#include "tascell/detail/table_core.hpp"

namespace tascell::detail {

struct check_context {
  bool in_iteration = false;
  std::int64_t n = 0;  // the loop's table shape: size and spread
  tascell::spread how = tascell::spread::block;
  std::int64_t index = -1;  // the iteration's index
  int acting = -1;          // the owner is_local/local_indices made it act as (-1: none)
};
inline thread_local check_context check_here;
// Some table of this process is in the checking mode (set when it is made).
inline std::atomic<bool> tables_checked{false};

// The thread's state set to `now` while the scope lasts (an iteration of
// a loop over a table's indices; a root call, which runs as rank 0), and
// the one before it back at its end, also when an exception leaves it.
class check_scope {
 public:
  explicit check_scope(const check_context& now) : saved_(check_here) { check_here = now; }
  // An iteration of a loop over a table of shape s, at index i.
  check_scope(const table_shape& s, std::int64_t i) : check_scope(check_context{true, s.n, s.how, i, -1}) {}
  ~check_scope() { check_here = saved_; }
  check_scope(const check_scope&) = delete;
  check_scope& operator=(const check_scope&) = delete;

 private:
  check_context saved_;
};

// The code after this acts as entry i's owner (is_local, local_indices).
inline void check_act_as(const table_core& t, std::int64_t i) { check_here.acting = t.check_owner(i); }
// Acting as rank 0 again (rank(), is_root()).
inline void check_act_as_root() { check_here.acting = -1; }

// Each throws table_error when the access would fail on the mode's owners.
void check_read(const table_core& t, std::int64_t i);
void check_write(const table_core& t, std::int64_t i);
void check_apply(const table_core& t, std::int64_t i);

// The owners of a table made now (0: not checked), from TASCELL_TABLE_CHECK
// and whether the program is a debug build.
int check_owners_for_new_table(bool debug);

}  // namespace tascell::detail
