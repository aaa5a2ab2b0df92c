// Every TASCELL_* setting: bad values are refused with a message naming the
// variable, the value and what is allowed; good values are read.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "settings.hpp"
#include "tascell/root.hpp"

namespace {

using tascell::detail::settings;

// Sets one variable for the duration of a test, restoring it afterwards.
struct scoped_env {
  std::string name;
  std::string old;
  bool had;
  scoped_env(const char* n, const char* v) : name(n) {
    const char* o = std::getenv(n);
    had = o != nullptr;
    if (o) old = o;
    setenv(n, v, 1);
  }
  ~scoped_env() {
    if (had) setenv(name.c_str(), old.c_str(), 1);
    else unsetenv(name.c_str());
  }
};

std::string refusal(const char* name, const char* value) {
  scoped_env e(name, value);
  try {
    settings::from_environment();
  } catch (const tascell::config_error& err) {
    return err.what();
  }
  return "";
}

}  // namespace

TEST(Settings, BadValuesNameTheVariableTheValueAndWhatIsAllowed) {
  EXPECT_EQ(refusal("TASCELL_WORKERS", "zero"),
            "tascell: bad setting TASCELL_WORKERS=\"zero\": expected a whole number of workers from 1 to 4096");
  EXPECT_EQ(refusal("TASCELL_WORKERS", "0"),
            "tascell: bad setting TASCELL_WORKERS=\"0\": expected a whole number of workers from 1 to 4096");
  EXPECT_EQ(refusal("TASCELL_WORKERS", "3x"),
            "tascell: bad setting TASCELL_WORKERS=\"3x\": expected a whole number of workers from 1 to 4096");
  EXPECT_EQ(refusal("TASCELL_VICTIM", "nearest"),
            "tascell: bad setting TASCELL_VICTIM=\"nearest\": expected loaded (a worker that holds work) or random");
  EXPECT_EQ(refusal("TASCELL_STATS", "maybe"),
            "tascell: bad setting TASCELL_STATS=\"maybe\": expected 0 or 1 (also yes/no, true/false, on/off)");
  EXPECT_EQ(refusal("TASCELL_SEED", "-4"),
            "tascell: bad setting TASCELL_SEED=\"-4\": expected a non-negative whole number (0: from the clock)");
  EXPECT_EQ(refusal("TASCELL_STACK_MB", "0"),
            "tascell: bad setting TASCELL_STACK_MB=\"0\": expected a stack size in MiB from 1 to 65536");
  EXPECT_EQ(refusal("TASCELL_TRACE_RECORDS", "10"),
            "tascell: bad setting TASCELL_TRACE_RECORDS=\"10\": expected a number of trace records per worker, at "
            "least 1000");
  EXPECT_EQ(refusal("TASCELL_PIN", "2"),
            "tascell: bad setting TASCELL_PIN=\"2\": expected 0 or 1 (also yes/no, true/false, on/off)");
  EXPECT_EQ(refusal("TASCELL_MPI", "maybe"),
            "tascell: bad setting TASCELL_MPI=\"maybe\": expected auto (use MPI when started by mpirun), 1 or 0");
  EXPECT_EQ(refusal("TASCELL_REMOTE_VICTIM", "nearest"),
            "tascell: bad setting TASCELL_REMOTE_VICTIM=\"nearest\": expected loaded (the process with the "
            "highest load heard of) or random");
  EXPECT_EQ(refusal("TASCELL_REMOTE_GIVER", "first"),
            "tascell: bad setting TASCELL_REMOTE_GIVER=\"first\": expected largest (the worker whose oldest "
            "work is shallowest in the task tree) or random");
  EXPECT_EQ(refusal("TASCELL_MSG_LOOP", "fast"),
            "tascell: bad setting TASCELL_MSG_LOOP=\"fast\": expected adaptive (batches, several sends in "
            "flight, adaptive back-off) or seed (one send in flight, 20 us sleep)");
  EXPECT_EQ(refusal("TASCELL_MSG_PRIORITY", "high"),
            "tascell: bad setting TASCELL_MSG_PRIORITY=\"high\": expected auto (real-time when the system allows "
            "it), realtime or normal");
  EXPECT_EQ(refusal("TASCELL_NODE_REQUESTS", "shm"),
            "tascell: bad setting TASCELL_NODE_REQUESTS=\"shm\": expected shared (a request to a process on this "
            "machine is posted to its workers through shared memory) or mpi (sent as a message)");
  for (const char* bad : {"random", "random:0", "lifeline:x", "lifeline:65", "gossip"})
    EXPECT_EQ(refusal("TASCELL_INCUMBENT", bad),
              std::string("tascell: bad setting TASCELL_INCUMBENT=\"") + bad +
                  "\": expected broadcast, random:x or lifeline:l with x, l whole numbers from 1 to 64");
  for (const char* bad : {"-1", "86401", "1.5", "soon"})
    EXPECT_EQ(refusal("TASCELL_WATCHDOG", bad),
              std::string("tascell: bad setting TASCELL_WATCHDOG=\"") + bad +
                  "\": expected a number of seconds from 0 (never) to 86400");
  EXPECT_EQ(refusal("TASCELL_WAIT", "yield"),
            "tascell: bad setting TASCELL_WAIT=\"yield\": expected nest (run other work above the join) or "
            "suspend (suspend the join on its own fiber)");
}

TEST(Settings, ProcessSettingsAreRead) {
  scoped_env a("TASCELL_MPI", "0"), b("TASCELL_REMOTE_VICTIM", "random"), c("TASCELL_MSG_LOOP", "seed"),
      d("TASCELL_INCUMBENT", "lifeline:2"), e("TASCELL_REMOTE_GIVER", "random");
  settings s = settings::from_environment();
  EXPECT_EQ(s.remote_giver, tascell::detail::giver_choice::random);
  EXPECT_EQ(s.mpi, tascell::detail::mpi_use::off);
  EXPECT_EQ(s.remote_victim, tascell::detail::victim_choice::random);
  EXPECT_EQ(s.loop, tascell::detail::message_loop::seed);
  EXPECT_EQ(s.incumbent, tascell::detail::spread::lifeline);
  EXPECT_EQ(s.incumbent_param, 2);
}

TEST(Settings, EveryWordOfASettingIsRead) {
  for (auto [word, want] : {std::pair{"auto", tascell::detail::mpi_use::automatic},
                            std::pair{"0", tascell::detail::mpi_use::off}, std::pair{"off", tascell::detail::mpi_use::off},
                            std::pair{"1", tascell::detail::mpi_use::on}, std::pair{"on", tascell::detail::mpi_use::on}}) {
    scoped_env a("TASCELL_MPI", word);
    EXPECT_EQ(settings::from_environment().mpi, want) << word;
  }
  scoped_env b("TASCELL_REMOTE_GIVER", "largest"), c("TASCELL_MSG_LOOP", "adaptive");
  settings s = settings::from_environment();
  EXPECT_EQ(s.remote_giver, tascell::detail::giver_choice::largest);
  EXPECT_EQ(s.loop, tascell::detail::message_loop::adaptive);
  EXPECT_EQ(s.priority, tascell::detail::msg_priority::automatic);  // the default
  for (auto [word, want] : {std::pair{"auto", tascell::detail::msg_priority::automatic},
                            std::pair{"realtime", tascell::detail::msg_priority::realtime},
                            std::pair{"normal", tascell::detail::msg_priority::normal}}) {
    scoped_env d("TASCELL_MSG_PRIORITY", word);
    EXPECT_EQ(settings::from_environment().priority, want) << word;
  }
  EXPECT_EQ(s.watchdog_s, 60);                                        // the default
  EXPECT_EQ(s.node_requests, tascell::detail::request_path::shared);  // the default
  for (auto [word, want] : {std::pair{"shared", tascell::detail::request_path::shared},
                            std::pair{"mpi", tascell::detail::request_path::mpi}}) {
    scoped_env e("TASCELL_NODE_REQUESTS", word);
    EXPECT_EQ(settings::from_environment().node_requests, want) << word;
  }
}

TEST(Settings, GoodValuesAreRead) {
  scoped_env a("TASCELL_WORKERS", "7"), b("TASCELL_VICTIM", "random"), c("TASCELL_STATS", "yes"),
      d("TASCELL_SEED", "42"), e("TASCELL_STACK_MB", "16"), f("TASCELL_PIN", "off"), g("TASCELL_WAIT", "suspend"),
      i("TASCELL_WATCHDOG", "0");
  settings s = settings::from_environment();
  EXPECT_EQ(s.workers, 7);
  EXPECT_EQ(s.victim, tascell::detail::victim_choice::random);
  EXPECT_TRUE(s.stats);
  EXPECT_EQ(s.seed, 42u);
  EXPECT_EQ(s.stack_bytes, std::size_t{16} << 20);
  EXPECT_FALSE(s.pin);
  EXPECT_EQ(s.wait, tascell::detail::wait_mode::suspend);
  EXPECT_EQ(s.watchdog_s, 0);
  EXPECT_EQ(s.describe(),
            "TASCELL_WORKERS=7 TASCELL_VICTIM=random TASCELL_SEED=42 TASCELL_STACK_MB=16 TASCELL_PIN=0 "
            "TASCELL_STATS=1 TASCELL_WAIT=suspend TASCELL_WATCHDOG=0");
  {
    scoped_env h("TASCELL_WAIT", "nest");
    EXPECT_EQ(settings::from_environment().wait, tascell::detail::wait_mode::nest);
  }
}
