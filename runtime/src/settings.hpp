// The runtime's settings: one small type each, with its environment name,
// default and validation; read once when the runtime starts.
#pragma once

#include <cstdint>
#include <string>

namespace tascell::detail {

enum class victim_choice { loaded, random };

struct settings {
  int workers = 1;                          // TASCELL_WORKERS
  bool stats = false;                       // TASCELL_STATS
  victim_choice victim = victim_choice::loaded;  // TASCELL_VICTIM
  std::uint64_t seed = 0;                   // TASCELL_SEED (0: from the clock)
  std::size_t stack_bytes = 0;              // TASCELL_STACK_MB
  bool pin = true;                          // TASCELL_PIN

  // Reads every TASCELL_* variable; throws config_error naming the variable,
  // the value and what is allowed.
  static settings from_environment();
  std::string describe() const;
};

}  // namespace tascell::detail
