// The table of the runtime's settings: each TASCELL_* variable once, with its
// default, what it allows, a line of help and how its value reaches the
// `settings` field. Reading the environment, the error for a bad value,
// settings::describe() and the list TASCELL_HELP=1 prints all come from it,
// and a test holds docs/runtime-api.md to it, so that none of them can name a
// setting, a default or an allowed value the others do not.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "settings.hpp"

namespace tascell::detail {

// What a setting is about: the list prints them under these headings, and
// describe() shows the workers' ones. `output`: what the runtime writes
// besides the program's own output (a trace, the list).
enum class setting_group { workers, output, processes };

// How a value of the variable becomes the field of `settings`, and back.
struct setting_field {
  // Sets the field from a value; false when the value is not allowed.
  std::function<bool(settings&, std::string_view)> read;
  // The field's value as the variable would give it; reading it back gives
  // the same field.
  std::function<std::string(const settings&)> show;
};

struct setting {
  const char* name;  // the environment variable
  // The value the runtime reads when the variable is unset or empty, as the
  // variable would give it ("" for TASCELL_TRACE: no trace).
  std::string dflt;
  const char* allowed;  // what a value may be: the end of the error message
  const char* help;     // one line: what the setting does
  setting_group group;
  setting_field field;
};

// Every setting, in the order describe() and the list show them.
const std::vector<setting>& setting_table();

// The table's entry for this variable, or nullptr.
const setting* find_setting(std::string_view name);

}  // namespace tascell::detail
