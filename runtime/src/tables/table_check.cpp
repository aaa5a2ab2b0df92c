// The tables' checking mode (tascell/detail/table_check.hpp): which access
// would fail on the mode's owners, and its message, the one the access
// gives on that many processes plus what found it.
#include "tascell/detail/table_check.hpp"

#include <string>

#include "table_process.hpp"

namespace tascell::detail {

namespace {

// The owner the running code acts as outside an iteration.
int acting_owner() { return check_here.acting >= 0 ? check_here.acting : 0; }

[[noreturn]] void refuse(const table_core& t, std::int64_t i, const std::string& what) {
  int owners = t.check.procs;
  table_fail(t, i,
             "is owned by rank " + std::to_string(t.check_owner(i)) + what +
                 "; found on one process by the tables' checking mode, which plays " + std::to_string(owners) +
                 " owners (TASCELL_TABLE_CHECK=off turns it off)");
}

}  // namespace

void check_read(const table_core& t, std::int64_t i) {
  const check_context& c = check_here;
  int owner = t.check_owner(i);
  if (c.in_iteration) {
    if ((t.shape.n == c.n && t.shape.how == c.how && i == c.index) || (c.acting >= 0 && owner == c.acting)) return;
    refuse(t, i,
           " and an iteration of a @dowork for over a table's indices carries only its own entry (index " +
               std::to_string(c.index) +
               ") of each table of the loop's size and spread: read another entry with get(i), or update it "
               "with apply()");
  }
  if (owner == acting_owner()) return;
  refuse(t, i,
         " and the code reading it runs as rank " + std::to_string(acting_owner()) +
             ": a process reads only its own entries (check t.is_local(i), iterate over t.local_indices(), "
             "or read any entry with get(i))");
}

void check_write(const table_core& t, std::int64_t i) {
  const check_context& c = check_here;
  int owner = t.check_owner(i);
  int me = c.in_iteration ? c.acting : acting_owner();
  if (me >= 0 && owner == me) return;
  refuse(t, i,
         std::string(" and the code using it (t[i] of a table it may write) runs as ") +
             (me >= 0 ? "rank " + std::to_string(me) : std::string("an iteration of a loop over a table")) +
             ": a process holds only its own entries (use them in a loop over t.local_indices() or after "
             "t.is_local(i); read another's with get(i), update it with apply() inside a @task)");
}

void check_apply(const table_core& t, std::int64_t i) {
  if (table_process::current_worker()) return;  // inside a root call: any entry
  int owner = t.check_owner(i);
  if (owner == acting_owner()) return;
  refuse(t, i,
         " and the code runs as rank " + std::to_string(acting_owner()) +
             ": apply() to another process's entry must run inside a @task (a root call), where its "
             "completion can be awaited");
}

int check_owners_for_new_table(bool debug) {
  if (table_process::processes() > 1) return 0;  // the real owners check
  int k = table_process::table_check();
  if (k < 0) k = debug ? 3 : 0;
  if (k >= 2) tables_checked.store(true, std::memory_order_relaxed);
  return k >= 2 ? k : 0;
}

}  // namespace tascell::detail
