// Reading the settings from the environment, and saying what they are: all
// from the table (setting_table.hpp).
#include "settings.hpp"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <sstream>
#include <string_view>
#include <vector>

#include "setting_table.hpp"
#include "tascell/root.hpp"

namespace tascell::detail {
namespace {

[[noreturn]] void refuse(const char* name, std::string_view value, const char* allowed) {
  std::ostringstream m;
  m << "tascell: bad setting " << name << "=\"" << value << "\": expected " << allowed;
  throw config_error(m.str());
}

// TASCELL_* variables that other parts of Tascell++ read, not the runtime:
// the tascell++ driver's compiler, and the tests' own knobs. They are not
// typos of a setting.
constexpr std::string_view not_settings[] = {"TASCELL_CXX", "TASCELL_TEST_REPEAT", "TASCELL_STRESS_GOAL"};

// Edits (insert, delete, replace a letter) from a to b.
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

const char* group_heading(setting_group g) {
  switch (g) {
    case setting_group::workers: return "Workers";
    case setting_group::output: return "Traces and this list";
    case setting_group::processes: return "Several processes (docs/cluster.md)";
  }
  return "";
}

}  // namespace

settings settings::from_environment() {
  settings s;
  for (const setting& e : setting_table()) {
    const char* v = std::getenv(e.name);
    // An empty variable is as good as unset (VAR= in a shell or a job script).
    bool given = v && *v;
    std::string_view value = given ? std::string_view(v) : std::string_view(e.dflt);
    if (!e.field.read(s, value)) refuse(e.name, value, e.allowed);
  }
  return s;
}

std::string settings::describe() const {
  std::ostringstream m;
  const char* space = "";
  for (const setting& e : setting_table()) {
    if (e.group != setting_group::workers) continue;
    m << space << e.name << '=' << e.field.show(*this);
    space = " ";
  }
  return m.str();
}

std::string settings::list() const {
  std::ostringstream m;
  m << "Tascell++ runtime settings: environment variables, read when the runtime starts "
       "(TASCELL_HELP=1 prints this list, then the program runs).\n";
  bool first = true;
  setting_group group{};
  for (const setting& e : setting_table()) {
    if (first || e.group != group) m << '\n' << group_heading(e.group) << ":\n";
    first = false;
    group = e.group;
    std::string value = e.field.show(*this);
    m << "  " << e.name << "=" << (value.empty() ? "\"\"" : value);
    if (value == e.dflt) m << "  (the default)\n";
    else m << "  (default: " << (e.dflt.empty() ? "\"\"" : e.dflt) << ")\n";
    m << "      " << e.help << "\n      allowed: " << e.allowed << "\n";
  }
  return m.str();
}

std::string settings::unknown_variables(const char* const* environment) {
  std::string out;
  for (const char* const* p = environment; p && *p; ++p) {
    std::string_view entry(*p);
    std::string_view name = entry.substr(0, entry.find('='));
    if (name.substr(0, 8) != "TASCELL_" || find_setting(name) ||
        std::find(std::begin(not_settings), std::end(not_settings), name) != std::end(not_settings))
      continue;
    const setting* nearest = nullptr;
    std::size_t best = 0;
    for (const setting& e : setting_table()) {
      std::size_t d = distance(name, e.name);
      if (!nearest || d < best) {
        nearest = &e;
        best = d;
      }
    }
    out += "tascell: warning: ";
    out += name;
    out += " is not a setting and is ignored; the nearest setting is ";
    out += nearest->name;
    out += " (TASCELL_HELP=1 lists them all)\n";
  }
  return out;
}

}  // namespace tascell::detail
