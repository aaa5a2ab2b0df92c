// What the distributed tables need of the process they run in, and what the
// workers need of the tables. The tables are a layer below the workers and
// the runtime (docs/architecture.md, "Layers"): they ask the process through
// the functions of table_process, which the runtime defines (runtime.cpp);
// the workers call settle_updates and serve_table_inbound
// (update_sender.cpp).
#pragma once

#include "tascell/poll.hpp"

namespace tascell::detail {

namespace net {
class table_protocol;
}

namespace table_process {
int rank();
int processes();
// This process's worker threads.
int workers();
// TASCELL_TABLE_CHECK (tables' checking mode; -1: the default).
int table_check();
// This process's message thread's side of the tables (processes() > 1).
net::table_protocol& protocol();
// The calling thread's worker while it runs a root call's work, else
// nullptr.
worker* current_worker();
}  // namespace table_process

// Waits until every table update worker w sent to another process has been
// applied there, and clears its `unsettled`.
void settle_updates(worker* w);
// One worker in each process: applies the table updates, and answers the
// reads, that the message thread handed this worker.
void serve_table_inbound();

}  // namespace tascell::detail
