// TASCELL_WATCHDOG (ctest's runtime.watchdog runs this with
// TASCELL_WATCHDOG=1 on two workers): a worker that has waited a second for
// the answer to its request says so on stderr, once per wait, naming itself,
// the victim and the two possible causes; a shorter wait says nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "tascell/tascell.hpp"

namespace {

using tascell::ctx;

// Runs a root call whose worker runs `busy` without a poll (so the other
// worker's request waits that long for its answer); returns what the
// runtime wrote on stderr meanwhile.
std::string stderr_of_a_root_call_busy_for(std::chrono::milliseconds busy) {
  testing::internal::CaptureStderr();
  tascell::root([&](ctx c) {
    std::this_thread::sleep_for(busy);
    tascell::poll(c);
  });
  return testing::internal::GetCapturedStderr();
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(Watchdog, AWaitOfOverTheLimitIsReportedOnceWithWhoWaitsForWhomAndWhy) {
  ASSERT_EQ(tascell::workers(), 2);
  const char* limit = std::getenv("TASCELL_WATCHDOG");
  ASSERT_TRUE(limit && std::string(limit) == "1") << "ctest runs this with TASCELL_WATCHDOG=1";
  std::string err = stderr_of_a_root_call_busy_for(std::chrono::milliseconds(3000));
  EXPECT_EQ(count(err, "has waited"), 1) << err;
  // (Substrings, not std::regex: GCC 12 warns inside <regex> under ASan.)
  for (const char* part : {"tascell: rank 0, worker ",
                           " has waited 1 s for the answer to its request for work from worker ",
                           ". A victim answers at its next poll (a @dowork or a join)"})
    EXPECT_NE(err.find(part), std::string::npos) << part << "\n" << err;
  EXPECT_NE(err.find("code that runs 1 s without one explains this"), std::string::npos) << err;
  EXPECT_NE(err.find("TASCELL_WATCHDOG=1; 0 turns this message off"), std::string::npos) << err;
}

TEST(Watchdog, AShorterWaitSaysNothing) {
  ASSERT_EQ(tascell::workers(), 2);
  std::string err = stderr_of_a_root_call_busy_for(std::chrono::milliseconds(200));
  EXPECT_EQ(count(err, "has waited"), 0) << err;
}
