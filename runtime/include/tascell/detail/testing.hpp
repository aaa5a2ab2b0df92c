// Hooks for the runtime's own failure tests. Not for programs.
#pragma once

#include <string>

namespace tascell::detail {

// Sends `bytes` to process `rank` as if they were a batch of messages (to
// test that a malformed message ends the run with a clear message).
void send_raw_for_testing(int rank, std::string bytes);

}  // namespace tascell::detail
