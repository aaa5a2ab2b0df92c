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
  return s;
}

std::string settings::describe() const {
  std::ostringstream m;
  m << "TASCELL_WORKERS=" << workers << " TASCELL_VICTIM="
    << (victim == victim_choice::loaded ? "loaded" : "random") << " TASCELL_SEED=" << seed
    << " TASCELL_STACK_MB=" << (stack_bytes >> 20) << " TASCELL_PIN=" << (pin ? 1 : 0)
    << " TASCELL_STATS=" << (stats ? 1 : 0);
  return m.str();
}

}  // namespace tascell::detail
