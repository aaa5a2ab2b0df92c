// The runtime's settings: one small type each, with its environment name,
// default and validation; read once when the runtime starts.
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
// What a worker does at a join when it cannot steal back: run other work
// nested above the join (nest), or suspend the join on a fiber of its own and
// run other work on another fiber (suspend).
enum class wait_mode { nest, suspend };

struct settings {
  int workers = 1;                          // TASCELL_WORKERS
  bool stats = false;                       // TASCELL_STATS
  victim_choice victim = victim_choice::loaded;  // TASCELL_VICTIM
  std::uint64_t seed = 0;                   // TASCELL_SEED (0: from the clock)
  std::size_t stack_bytes = 0;              // TASCELL_STACK_MB
  bool pin = true;                          // TASCELL_PIN
  wait_mode wait = wait_mode::nest;         // TASCELL_WAIT
  // Seconds a worker waits for one answer to a request before it says so on
  // stderr (watchdog.cpp); 0: never.
  int watchdog_s = 60;                      // TASCELL_WATCHDOG
  // Several processes.
  mpi_use mpi = mpi_use::automatic;         // TASCELL_MPI
  victim_choice remote_victim = victim_choice::loaded;  // TASCELL_REMOTE_VICTIM
  giver_choice remote_giver = giver_choice::largest;    // TASCELL_REMOTE_GIVER
  message_loop loop = message_loop::adaptive;           // TASCELL_MSG_LOOP
  msg_priority priority = msg_priority::automatic;      // TASCELL_MSG_PRIORITY
  request_path node_requests = request_path::shared;  // TASCELL_NODE_REQUESTS
  spread incumbent = spread::broadcast;     // TASCELL_INCUMBENT
  int incumbent_param = 0;                  // x of random:x, l of lifeline:l
  std::string trace;                        // TASCELL_TRACE: a path, or empty
  std::int64_t trace_records = 2'000'000;   // TASCELL_TRACE_RECORDS: per worker and message thread

  // Reads every TASCELL_* variable; throws config_error naming the variable,
  // the value and what is allowed.
  static settings from_environment();
  std::string describe() const;
};

}  // namespace tascell::detail
