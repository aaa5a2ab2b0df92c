#include "setting_table.hpp"

#include <charconv>
#include <cstdint>
#include <thread>
#include <type_traits>
#include <utility>

namespace tascell::detail {
namespace {

// A whole number from lo to hi, kept in the field times `unit` (a size in
// MiB kept in bytes).
template <class T>
setting_field whole(T settings::*field, std::int64_t lo, std::int64_t hi, std::int64_t unit = 1) {
  return {[=](settings& s, std::string_view v) {
            std::int64_t x = 0;
            auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
            if (v.empty() || ec != std::errc() || end != v.data() + v.size() || x < lo || x > hi) return false;
            s.*field = static_cast<T>(x) * static_cast<T>(unit);
            return true;
          },
          [=](const settings& s) { return std::to_string(s.*field / static_cast<T>(unit)); }};
}

// On or off, in the words people use for it; shown as 1 or 0.
setting_field flag(bool settings::*field) {
  return {[=](settings& s, std::string_view v) {
            if (v == "1" || v == "yes" || v == "true" || v == "on") s.*field = true;
            else if (v == "0" || v == "no" || v == "false" || v == "off") s.*field = false;
            else return false;
            return true;
          },
          [=](const settings& s) { return std::string(s.*field ? "1" : "0"); }};
}
constexpr const char* flag_allowed = "0 or 1 (also yes/no, true/false, on/off)";

// One of a few words, each naming a value; shown as the first word that
// names it.
template <class E>
setting_field words(E settings::*field, std::type_identity_t<std::vector<std::pair<const char*, E>>> list) {
  return {[=](settings& s, std::string_view v) {
            for (const auto& [word, value] : list)
              if (v == word) {
                s.*field = value;
                return true;
              }
            return false;
          },
          [=](const settings& s) {
            for (const auto& [word, value] : list)
              if (s.*field == value) return std::string(word);
            return std::string("?");
          }};
}

// Any text.
setting_field text(std::string settings::*field) {
  return {[=](settings& s, std::string_view v) {
            s.*field = std::string(v);
            return true;
          },
          [=](const settings& s) { return s.*field; }};
}

// TASCELL_INCUMBENT: broadcast, random:x or lifeline:l, the number kept in
// incumbent_param.
setting_field incumbent_spread() {
  auto number = [](std::string_view v, std::string_view prefix, int& k) {
    if (v.substr(0, prefix.size()) != prefix) return false;
    std::string_view n = v.substr(prefix.size());
    auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), k);
    return !n.empty() && ec == std::errc() && end == n.data() + n.size() && k >= 1 && k <= 64;
  };
  return {[=](settings& s, std::string_view v) {
            int k = 0;
            if (v == "broadcast") s.incumbent = spread::broadcast;
            else if (number(v, "random:", k)) s.incumbent = spread::random;
            else if (number(v, "lifeline:", k)) s.incumbent = spread::lifeline;
            else return false;
            s.incumbent_param = k;
            return true;
          },
          [](const settings& s) {
            switch (s.incumbent) {
              case spread::random: return "random:" + std::to_string(s.incumbent_param);
              case spread::lifeline: return "lifeline:" + std::to_string(s.incumbent_param);
              case spread::broadcast: break;
            }
            return std::string("broadcast");
          }};
}

// TASCELL_TABLE_CHECK: auto (-1), off/0, on (3 owners) or a number of
// owners from 2 to 1024.
setting_field table_check() {
  return {[](settings& s, std::string_view v) {
            if (v == "auto") s.table_check = -1;
            else if (v == "0" || v == "off" || v == "no") s.table_check = 0;
            else if (v == "on" || v == "yes") s.table_check = 3;
            else {
              int k = 0;
              auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), k);
              if (v.empty() || ec != std::errc() || end != v.data() + v.size() || k < 2 || k > 1024) return false;
              s.table_check = k;
            }
            return true;
          },
          [](const settings& s) {
            return s.table_check < 0 ? std::string("auto") : std::to_string(s.table_check);
          }};
}

std::string hardware_threads() {
  unsigned hw = std::thread::hardware_concurrency();
  return std::to_string(hw ? hw : 1);
}

std::vector<setting> make_table() {
  using g = setting_group;
  return {
      {"TASCELL_WORKERS", hardware_threads(), "a whole number of workers from 1 to 4096",
       "workers of this process; by default one per hardware thread", g::workers,
       whole(&settings::workers, 1, 4096)},
      {"TASCELL_VICTIM", "loaded", "loaded (a worker that holds work) or random",
       "whom an idle worker asks for work", g::workers,
       words(&settings::victim, {{"loaded", victim_choice::loaded}, {"random", victim_choice::random}})},
      {"TASCELL_SEED", "0", "a non-negative whole number (0: from the clock)",
       "seed of the random choices (of victims, among others)", g::workers,
       whole(&settings::seed, 0, INT64_MAX)},
      {"TASCELL_STACK_MB", "64", "a stack size in MiB from 1 to 65536",
       "C++ stack of each worker thread (worker 0 uses the caller's), and of each fiber with "
       "TASCELL_WAIT=suspend",
       g::workers, whole(&settings::stack_bytes, 1, 65536, std::int64_t{1} << 20)},
      {"TASCELL_PIN", "1", flag_allowed,
       "pin worker i to the i-th CPU when there are no more workers than CPUs; 0 on a machine other "
       "programs keep busy",
       g::workers, flag(&settings::pin)},
      {"TASCELL_STATS", "0", flag_allowed, "print per-worker statistics after every root call", g::workers,
       flag(&settings::stats)},
      {"TASCELL_WAIT", "nest",
       "nest (run other work above the join) or suspend (suspend the join on its own fiber)",
       "what a join waiting for a piece that runs elsewhere does when it cannot steal back", g::workers,
       words(&settings::wait, {{"nest", wait_mode::nest}, {"suspend", wait_mode::suspend}})},
      {"TASCELL_WATCHDOG", "60", "a number of seconds from 0 (never) to 86400",
       "seconds a worker waits for one answer before it says on stderr whom it waits for and why",
       g::workers, whole(&settings::watchdog_s, 0, 86400)},

      {"TASCELL_TRACE", "", "a path (path.<rank> with several processes)",
       "write a trace of every worker to this path at exit (docs/tracing.md)", g::output,
       text(&settings::trace)},
      {"TASCELL_TRACE_RECORDS", "2000000", "a number of trace records per worker, at least 1000",
       "trace records kept per worker and message thread (48 bytes each); later ones are dropped",
       g::output, whole(&settings::trace_records, 1000, INT64_MAX / 64)},
      {"TASCELL_HELP", "0", flag_allowed,
       "print this list when the runtime starts (on rank 0), then run the program", g::output,
       flag(&settings::help)},

      {"TASCELL_MPI", "auto", "auto (use MPI when started by mpirun), 1 or 0",
       "whether this process is one of several that MPI runs", g::processes,
       words(&settings::mpi, {{"auto", mpi_use::automatic},
                              {"0", mpi_use::off},
                              {"off", mpi_use::off},
                              {"1", mpi_use::on},
                              {"on", mpi_use::on}})},
      {"TASCELL_NET_DELAY_US", "0", "a number of microseconds from 0 to 1000000",
       "for tests and measurements: every message to a process on another machine waits this long before "
       "it is sent, as over a slower network (docs/cluster.md)",
       g::processes, whole(&settings::net_delay_us, 0, 1000000)},
      {"TASCELL_NET_BANDWIDTH_MBIT", "0", "a number of megabits per second from 0 (no limit) to 1000000",
       "for tests and measurements: messages to processes on other machines leave this process one after "
       "another at this rate, as over a slower network (docs/cluster.md)",
       g::processes, whole(&settings::net_bandwidth_mbit, 0, 1000000)},
      {"TASCELL_REMOTE_VICTIM", "loaded", "loaded (the process with the highest load heard of) or random",
       "which process a process without work asks", g::processes,
       words(&settings::remote_victim, {{"loaded", victim_choice::loaded}, {"random", victim_choice::random}})},
      {"TASCELL_REMOTE_GIVER", "largest",
       "largest (the worker whose oldest work is shallowest in the task tree) or random",
       "which worker of the asked process gives the work", g::processes,
       words(&settings::remote_giver, {{"largest", giver_choice::largest}, {"random", giver_choice::random}})},
      {"TASCELL_INCUMBENT", "broadcast",
       "broadcast, random:x or lifeline:l with x, l whole numbers from 1 to 64",
       "how an improved incumbent reaches the other processes", g::processes, incumbent_spread()},
      {"TASCELL_MSG_LOOP", "adaptive",
       "adaptive (batches, several sends in flight, adaptive back-off) or seed (one send in flight, 20 us "
       "sleep)",
       "the message thread's loop; seed is the Tascell paper's, for comparison", g::processes,
       words(&settings::loop, {{"adaptive", message_loop::adaptive}, {"seed", message_loop::seed}})},
      {"TASCELL_NODE_REQUESTS", "shared",
       "shared (a request to a process on this machine is posted to its workers through shared memory) or "
       "mpi (sent as a message)",
       "how a request for work reaches another process on the same machine", g::processes,
       words(&settings::node_requests, {{"shared", request_path::shared}, {"mpi", request_path::mpi}})},
      {"TASCELL_REMOTE_WAKE", "ring",
       "ring (after each batch to a process on another machine, a UDP datagram wakes its message thread) or "
       "poll (the message thread finds such batches only by polling)",
       "how a message from another machine wakes the message thread (docs/cluster.md)", g::processes,
       words(&settings::wake_from_afar, {{"ring", remote_wake::ring}, {"poll", remote_wake::poll}})},
      {"TASCELL_MSG_PRIORITY", "auto", "auto (real-time when the system allows it), realtime or normal",
       "the message thread's scheduling (SCHED_FIFO 1 when real-time)", g::processes,
       words(&settings::priority, {{"auto", msg_priority::automatic},
                                   {"realtime", msg_priority::realtime},
                                   {"normal", msg_priority::normal}})},
      {"TASCELL_TABLE_CHECK", "auto",
       "auto (on in a program compiled without optimisation), off (or 0), on (3 owners) or a number of "
       "owners from 2 to 1024",
       "with one process, make distributed tables check every access as if their entries were spread over "
       "that many processes: a read, write or apply() that would fail on several processes fails here, at "
       "once (docs/language.md, \"Checking tables on one process\")",
       g::processes, table_check()},
  };
}

}  // namespace

const std::vector<setting>& setting_table() {
  static const std::vector<setting> table = make_table();
  return table;
}

const setting* find_setting(std::string_view name) {
  for (const setting& e : setting_table())
    if (name == e.name) return &e;
  return nullptr;
}

}  // namespace tascell::detail
