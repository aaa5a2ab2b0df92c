#include "settings.hpp"

#include <charconv>
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
  if (const char* v = env("TASCELL_VICTIM")) {
    std::string_view x(v);
    if (x == "loaded") s.victim = victim_choice::loaded;
    else if (x == "random") s.victim = victim_choice::random;
    else refuse("TASCELL_VICTIM", x, "loaded (a worker that holds work) or random");
  }
  s.seed = static_cast<std::uint64_t>(
      integer("TASCELL_SEED", 0, INT64_MAX, 0, "a non-negative whole number (0: from the clock)"));
  s.stack_bytes = static_cast<std::size_t>(
                      integer("TASCELL_STACK_MB", 1, 65536, 64, "a stack size in MiB from 1 to 65536")) *
                  (std::size_t{1} << 20);
  s.pin = boolean("TASCELL_PIN", true);
  if (const char* v = env("TASCELL_WAIT")) {
    std::string_view x(v);
    if (x == "nest") s.wait = wait_mode::nest;
    else if (x == "suspend") s.wait = wait_mode::suspend;
    else refuse("TASCELL_WAIT", x,
                "nest (run other work above the join) or suspend (suspend the join on its own fiber)");
  }
  if (const char* v = env("TASCELL_TRACE")) s.trace = v;
  s.trace_records = integer("TASCELL_TRACE_RECORDS", 1000, INT64_MAX / 64, 2'000'000,
                            "a number of trace records per worker, at least 1000");
  if (const char* v = env("TASCELL_MPI")) {
    std::string_view x(v);
    if (x == "auto") s.mpi = mpi_use::automatic;
    else if (x == "0" || x == "off") s.mpi = mpi_use::off;
    else if (x == "1" || x == "on") s.mpi = mpi_use::on;
    else refuse("TASCELL_MPI", x, "auto (use MPI when started by mpirun), 1 or 0");
  }
  if (const char* v = env("TASCELL_REMOTE_VICTIM")) {
    std::string_view x(v);
    if (x == "loaded") s.remote_victim = victim_choice::loaded;
    else if (x == "random") s.remote_victim = victim_choice::random;
    else refuse("TASCELL_REMOTE_VICTIM", x,
                "loaded (the process with the highest load heard of) or random");
  }
  if (const char* v = env("TASCELL_REMOTE_GIVER")) {
    std::string_view x(v);
    if (x == "largest") s.remote_giver = giver_choice::largest;
    else if (x == "random") s.remote_giver = giver_choice::random;
    else refuse("TASCELL_REMOTE_GIVER", x,
                "largest (the worker whose oldest work is shallowest in the task tree) or random");
  }
  if (const char* v = env("TASCELL_MSG_LOOP")) {
    std::string_view x(v);
    if (x == "adaptive") s.loop = message_loop::adaptive;
    else if (x == "seed") s.loop = message_loop::seed;
    else refuse("TASCELL_MSG_LOOP", x,
                "adaptive (batches, several sends in flight, adaptive back-off) or seed (one send "
                "in flight, 20 us sleep)");
  }
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
    << " TASCELL_WAIT=" << (wait == wait_mode::suspend ? "suspend" : "nest");
  return m.str();
}

}  // namespace tascell::detail
