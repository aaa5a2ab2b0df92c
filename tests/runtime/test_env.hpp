// Settings of a test run, from the environment ctest gives each run.
#pragma once

#include <cstdlib>
#include <string>

namespace test_env {

// How many times the repeated tests run their programs (TASCELL_TEST_REPEAT).
inline int repeat(int dflt) {
  const char* s = std::getenv("TASCELL_TEST_REPEAT");
  return s ? std::max(1, std::atoi(s)) : dflt;
}

}  // namespace test_env
