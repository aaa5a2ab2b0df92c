// The runtime's settings: one field per TASCELL_* variable, read once when
// the runtime starts. Names, defaults, allowed values and help are in the
// table of setting_table.cpp, not here.
#pragma once

#include <cstdint>
#include <string>

namespace tascell::detail {

enum class victim_choice { loaded, random };
enum class giver_choice { largest, random };
enum class mpi_use { automatic, off, on };
enum class message_loop { adaptive, seed };
// The message thread's scheduling: real-time (SCHED_FIFO) when the system
// allows it (auto) or always (realtime: an error otherwise), or normal.
enum class msg_priority { automatic, realtime, normal };
enum class spread { broadcast, random, lifeline };
// How a request for work reaches another process on the same machine:
// posted to its workers through shared memory, or as an MPI message.
enum class request_path { shared, mpi };
// How a message from another machine wakes the message thread.
enum class remote_wake { ring, poll };
// What a worker does at a join when it cannot steal back: run other work
// nested above the join (nest), or suspend the join on a fiber of its own and
// run other work on another fiber (suspend).
enum class wait_mode { nest, suspend };

// The defaults of the fields below are the table's: from_environment() sets
// every field, from the variable or from its default there.
struct settings {
  int workers = 1;                          // TASCELL_WORKERS
  bool stats = false;                       // TASCELL_STATS
  victim_choice victim{};                   // TASCELL_VICTIM
  std::uint64_t seed = 0;                   // TASCELL_SEED (0: from the clock)
  std::size_t stack_bytes = 0;              // TASCELL_STACK_MB
  bool pin = false;                         // TASCELL_PIN
  wait_mode wait{};                         // TASCELL_WAIT
  // Seconds a worker waits for one answer to a request before it says so on
  // stderr (watchdog.cpp); 0: never.
  int watchdog_s = 0;                       // TASCELL_WATCHDOG
  bool help = false;                        // TASCELL_HELP: print the list at start
  // Several processes.
  mpi_use mpi{};                            // TASCELL_MPI
  victim_choice remote_victim{};            // TASCELL_REMOTE_VICTIM
  giver_choice remote_giver{};              // TASCELL_REMOTE_GIVER
  message_loop loop{};                      // TASCELL_MSG_LOOP
  msg_priority priority{};                  // TASCELL_MSG_PRIORITY
  request_path node_requests{};             // TASCELL_NODE_REQUESTS
  remote_wake wake_from_afar{};             // TASCELL_REMOTE_WAKE
  spread incumbent{};                       // TASCELL_INCUMBENT
  int incumbent_param = 0;                  // x of random:x, l of lifeline:l
  std::string trace;                        // TASCELL_TRACE: a path, or empty
  std::int64_t trace_records = 0;           // TASCELL_TRACE_RECORDS: per worker and message thread
  // Tests and measurements: microseconds every batch to a process on
  // another machine waits before it is sent (an emulated link's latency).
  int net_delay_us = 0;                     // TASCELL_NET_DELAY_US
  // ... and the link's bandwidth in megabits per second (0: no limit).
  int net_bandwidth_mbit = 0;               // TASCELL_NET_BANDWIDTH_MBIT
  // Tables on one process: owners the checking mode plays (0: off), or -1:
  // 3 in a debug build of the program, else off (tables/table_check.cpp).
  int table_check = -1;                     // TASCELL_TABLE_CHECK

  // Reads every TASCELL_* variable; throws config_error naming the variable,
  // the value and what is allowed.
  static settings from_environment();
  // The workers' settings as NAME=value, for a line of a report.
  std::string describe() const;
  // What TASCELL_HELP=1 prints: every setting with its value here, its
  // default, what it allows and what it does.
  std::string list() const;
  // A warning line for each TASCELL_* variable of `environment` (as environ:
  // NAME=value, ending with nullptr) that is not a setting, naming the
  // setting nearest to it (a typo such as TASCELL_WORKER=2 is otherwise
  // silently ignored); empty when there is none.
  static std::string unknown_variables(const char* const* environment);
};

}  // namespace tascell::detail
