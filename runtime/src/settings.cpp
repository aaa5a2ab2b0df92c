#include "settings.hpp"

#include <charconv>
#include <initializer_list>
#include <utility>
#include <cstdlib>
#include <sstream>
#include <string_view>
#include <thread>

#include "tascell/root.hpp"

namespace tascell::detail {
namespace {

[[noreturn]] void refuse(const char* name, std::string_view value, const char* allowed) {
  std::ostringstream m;
  m << "tascell: bad setting " << name << "=\"" << value << "\": expected " << allowed;
  throw config_error(m.str());
}

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return (v && *v) ? v : nullptr;
}

std::int64_t integer(const char* name, std::int64_t lo, std::int64_t hi, std::int64_t dflt,
                     const char* allowed) {
  const char* v = env(name);
  if (!v) return dflt;
  std::string_view s(v);
  std::int64_t x = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (ec != std::errc() || end != s.data() + s.size() || x < lo || x > hi) refuse(name, s, allowed);
  return x;
}

// One of a few words, each naming a value.
template <class E>
E choice(const char* name, E dflt, std::initializer_list<std::pair<std::string_view, E>> words,
         const char* allowed) {
  const char* v = env(name);
  if (!v) return dflt;
  std::string_view x(v);
  for (const auto& [word, value] : words)
    if (x == word) return value;
  refuse(name, x, allowed);
}

bool boolean(const char* name, bool dflt) {
  const char* v = env(name);
  if (!v) return dflt;
  std::string_view s(v);
  if (s == "1" || s == "yes" || s == "true" || s == "on") return true;
  if (s == "0" || s == "no" || s == "false" || s == "off") return false;
  refuse(name, s, "0 or 1 (also yes/no, true/false, on/off)");
}

}  // namespace

settings settings::from_environment() {
  settings s;
  unsigned hw = std::thread::hardware_concurrency();
  s.workers = static_cast<int>(integer("TASCELL_WORKERS", 1, 4096, hw ? hw : 1,
                                       "a whole number of workers from 1 to 4096"));
  s.stats = boolean("TASCELL_STATS", false);
  s.victim = choice("TASCELL_VICTIM", s.victim,
                    {{"loaded", victim_choice::loaded}, {"random", victim_choice::random}},
                    "loaded (a worker that holds work) or random");
  s.seed = static_cast<std::uint64_t>(
      integer("TASCELL_SEED", 0, INT64_MAX, 0, "a non-negative whole number (0: from the clock)"));
  s.stack_bytes = static_cast<std::size_t>(
                      integer("TASCELL_STACK_MB", 1, 65536, 64, "a stack size in MiB from 1 to 65536")) *
                  (std::size_t{1} << 20);
  s.pin = boolean("TASCELL_PIN", true);
  s.wait = choice("TASCELL_WAIT", s.wait, {{"nest", wait_mode::nest}, {"suspend", wait_mode::suspend}},
                  "nest (run other work above the join) or suspend (suspend the join on its own fiber)");
  s.watchdog_s = static_cast<int>(integer("TASCELL_WATCHDOG", 0, 86400, 60,
                                          "a number of seconds from 0 (never) to 86400"));
  if (const char* v = env("TASCELL_TRACE")) s.trace = v;
  s.trace_records = integer("TASCELL_TRACE_RECORDS", 1000, INT64_MAX / 64, 2'000'000,
                            "a number of trace records per worker, at least 1000");
  s.mpi = choice("TASCELL_MPI", s.mpi,
                 {{"auto", mpi_use::automatic}, {"0", mpi_use::off}, {"off", mpi_use::off}, {"1", mpi_use::on},
                  {"on", mpi_use::on}},
                 "auto (use MPI when started by mpirun), 1 or 0");
  s.remote_victim = choice("TASCELL_REMOTE_VICTIM", s.remote_victim,
                           {{"loaded", victim_choice::loaded}, {"random", victim_choice::random}},
                           "loaded (the process with the highest load heard of) or random");
  s.remote_giver = choice("TASCELL_REMOTE_GIVER", s.remote_giver,
                          {{"largest", giver_choice::largest}, {"random", giver_choice::random}},
                          "largest (the worker whose oldest work is shallowest in the task tree) or random");
  s.loop = choice("TASCELL_MSG_LOOP", s.loop,
                  {{"adaptive", message_loop::adaptive}, {"seed", message_loop::seed}},
                  "adaptive (batches, several sends in flight, adaptive back-off) or seed (one send "
                  "in flight, 20 us sleep)");
  s.priority = choice("TASCELL_MSG_PRIORITY", s.priority,
                      {{"auto", msg_priority::automatic}, {"realtime", msg_priority::realtime},
                       {"normal", msg_priority::normal}},
                      "auto (real-time when the system allows it), realtime or normal");
  s.node_requests = choice("TASCELL_NODE_REQUESTS", s.node_requests,
                           {{"shared", request_path::shared}, {"mpi", request_path::mpi}},
                           "shared (a request to a process on this machine is posted to its workers through "
                           "shared memory) or mpi (sent as a message)");
  if (const char* v = env("TASCELL_INCUMBENT")) {
    std::string_view x(v);
    auto param = [&](std::string_view prefix) {
      std::string_view n = x.substr(prefix.size());
      int k = 0;
      auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), k);
      if (n.empty() || ec != std::errc() || end != n.data() + n.size() || k < 1 || k > 64)
        refuse("TASCELL_INCUMBENT", x,
               "broadcast, random:x or lifeline:l with x, l whole numbers from 1 to 64");
      return k;
    };
    if (x == "broadcast") {
      s.incumbent = spread::broadcast;
    } else if (x.substr(0, 7) == "random:") {
      s.incumbent = spread::random;
      s.incumbent_param = param("random:");
    } else if (x.substr(0, 9) == "lifeline:") {
      s.incumbent = spread::lifeline;
      s.incumbent_param = param("lifeline:");
    } else {
      refuse("TASCELL_INCUMBENT", x,
             "broadcast, random:x or lifeline:l with x, l whole numbers from 1 to 64");
    }
  }
  return s;
}

std::string settings::describe() const {
  std::ostringstream m;
  m << "TASCELL_WORKERS=" << workers << " TASCELL_VICTIM="
    << (victim == victim_choice::loaded ? "loaded" : "random") << " TASCELL_SEED=" << seed
    << " TASCELL_STACK_MB=" << (stack_bytes >> 20) << " TASCELL_PIN=" << (pin ? 1 : 0)
    << " TASCELL_STATS=" << (stats ? 1 : 0)
    << " TASCELL_WAIT=" << (wait == wait_mode::suspend ? "suspend" : "nest")
    << " TASCELL_WATCHDOG=" << watchdog_s;
  return m.str();
}

}  // namespace tascell::detail
