// Every TASCELL_* setting: bad values are refused with a message naming the
// variable, the value and what is allowed; good values are read. The table
// of settings (setting_table.hpp): each default is a value its entry reads,
// each entry refuses a bad value, the list of TASCELL_HELP=1 shows every
// entry, docs/runtime-api.md lists exactly the table's settings, and an
// unknown TASCELL_* variable is warned of.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "setting_table.hpp"
#include "settings.hpp"
#include "tascell/root.hpp"
#include "tascell/tascell.hpp"

namespace {

using tascell::detail::setting;
using tascell::detail::setting_table;
using tascell::detail::settings;

// Sets one variable (or unsets it: v == nullptr) for the duration of a test,
// restoring it afterwards.
struct scoped_env {
  std::string name;
  std::string old;
  bool had;
  scoped_env(const char* n, const char* v) : name(n) {
    const char* o = std::getenv(n);
    had = o != nullptr;
    if (o) old = o;
    if (v) setenv(n, v, 1);
    else unsetenv(n);
  }
  scoped_env(const scoped_env&) = delete;
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
  EXPECT_EQ(s.table_check, -1);  // the default: auto
  for (auto [word, want] : {std::pair{"auto", -1}, std::pair{"off", 0}, std::pair{"0", 0}, std::pair{"no", 0},
                            std::pair{"on", 3}, std::pair{"yes", 3}, std::pair{"2", 2}, std::pair{"1024", 1024}}) {
    scoped_env f("TASCELL_TABLE_CHECK", word);
    EXPECT_EQ(settings::from_environment().table_check, want) << word;
  }
  for (const char* bad : {"1", "1025", "-3", "x", "3x"}) {
    scoped_env f("TASCELL_TABLE_CHECK", bad);
    EXPECT_THROW(settings::from_environment(), tascell::config_error) << bad;
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

namespace {

// Every setting unset (ctest sets some for the whole binary), for as long as
// it lives.
struct all_unset {
  std::vector<std::unique_ptr<scoped_env>> vars;
  all_unset() {
    for (const setting& e : setting_table()) vars.push_back(std::make_unique<scoped_env>(e.name, nullptr));
  }
};

}  // namespace

TEST(SettingTable, EveryDefaultIsWhatAnUnsetVariableGivesAndAValueTheEntryReads) {
  all_unset none;
  settings unset = settings::from_environment();
  ASSERT_FALSE(setting_table().empty());
  for (const setting& e : setting_table()) {
    EXPECT_EQ(e.field.show(unset), e.dflt) << e.name;
    if (e.dflt.empty()) continue;  // TASCELL_TRACE: unset and empty are the same
    scoped_env v(e.name, e.dflt.c_str());
    settings s;
    ASSERT_NO_THROW(s = settings::from_environment()) << e.name << "=" << e.dflt;
    EXPECT_EQ(e.field.show(s), e.dflt) << e.name;
    EXPECT_EQ(s.describe(), unset.describe()) << e.name;
    EXPECT_EQ(s.list(), unset.list()) << e.name;
  }
}

TEST(SettingTable, EveryEntryRefusesABadValueNamingTheVariableTheValueAndWhatIsAllowed) {
  // A bad value of each setting; TASCELL_TRACE takes any path (a path that
  // cannot be written is reported when the trace is written, at exit).
  const std::map<std::string, std::string> bad = {
      {"TASCELL_WORKERS", "4097"},      {"TASCELL_VICTIM", "nearest"},     {"TASCELL_SEED", "x"},
      {"TASCELL_STACK_MB", "65537"},    {"TASCELL_PIN", "2"},              {"TASCELL_STATS", "maybe"},
      {"TASCELL_WAIT", "yield"},        {"TASCELL_WATCHDOG", "-1"},        {"TASCELL_TRACE_RECORDS", "999"},
      {"TASCELL_HELP", "please"},       {"TASCELL_MPI", "yes"},            {"TASCELL_REMOTE_VICTIM", "near"},
      {"TASCELL_REMOTE_GIVER", "first"}, {"TASCELL_INCUMBENT", "lifeline"}, {"TASCELL_MSG_LOOP", "fast"},
      {"TASCELL_NODE_REQUESTS", "shm"}, {"TASCELL_MSG_PRIORITY", "high"}, {"TASCELL_TABLE_CHECK", "1"},
      {"TASCELL_NET_DELAY_US", "1000001"}, {"TASCELL_NET_BANDWIDTH_MBIT", "fast"},
      {"TASCELL_REMOTE_WAKE", "udp"},
  };
  for (const setting& e : setting_table()) {
    if (std::string(e.name) == "TASCELL_TRACE") continue;
    auto b = bad.find(e.name);
    ASSERT_NE(b, bad.end()) << e.name << " has no bad value in this test";
    EXPECT_EQ(refusal(e.name, b->second.c_str()),
              std::string("tascell: bad setting ") + e.name + "=\"" + b->second + "\": expected " + e.allowed);
  }
  for (const auto& [name, value] : bad) EXPECT_NE(tascell::detail::find_setting(name), nullptr) << name;
}

TEST(SettingTable, TheListShowsEverySettingWithItsValueDefaultAllowedValuesAndHelp) {
  all_unset none;
  scoped_env w("TASCELL_WORKERS", "3"), v("TASCELL_VICTIM", "random");
  std::string list = settings::from_environment().list();
  for (const setting& e : setting_table()) {
    EXPECT_NE(list.find("\n  " + std::string(e.name) + "="), std::string::npos) << e.name << "\n" << list;
    EXPECT_NE(list.find(std::string("\n      ") + e.help + "\n"), std::string::npos) << e.name << "\n" << list;
    EXPECT_NE(list.find(std::string("\n      allowed: ") + e.allowed + "\n"), std::string::npos)
        << e.name << "\n" << list;
  }
  const setting* workers = tascell::detail::find_setting("TASCELL_WORKERS");
  ASSERT_NE(workers, nullptr);
  EXPECT_NE(list.find("\n  TASCELL_WORKERS=3  (default: " + workers->dflt + ")\n"), std::string::npos) << list;
  EXPECT_NE(list.find("\n  TASCELL_VICTIM=random  (default: loaded)\n"), std::string::npos) << list;
  EXPECT_NE(list.find("\n  TASCELL_STACK_MB=64  (the default)\n"), std::string::npos) << list;
  EXPECT_NE(list.find("\n  TASCELL_TRACE=\"\"  (the default)\n"), std::string::npos) << list;
}

TEST(SettingTable, TheDocsListExactlyTheSettingsOfTheTableInItsOrder) {
  std::ifstream doc(TASCELL_SOURCE_DIR "/docs/runtime-api.md");
  ASSERT_TRUE(doc) << "cannot read " TASCELL_SOURCE_DIR "/docs/runtime-api.md";
  // The rows of the table under "## Settings": | `TASCELL_X` | default | meaning |
  std::vector<std::string> documented;
  bool in_section = false;
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## Settings";
    if (!in_section || line.rfind("| `TASCELL_", 0) != 0) continue;
    documented.push_back(line.substr(3, line.find('`', 3) - 3));
  }
  std::vector<std::string> table;
  for (const setting& e : setting_table()) table.push_back(e.name);
  auto joined = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& n : v) s += n + " ";
    return s;
  };
  EXPECT_EQ(joined(documented), joined(table)) << "docs/runtime-api.md's settings table differs from setting_table.cpp";
}

TEST(SettingTable, AnUnknownTascellVariableIsNamedWithTheNearestSetting) {
  const char* environment[] = {"TASCELL_WORKER=2",       "PATH=/bin",    "TASCELL_WORKERS=2",
                               "TASCELL_CXX=g++",        "TASCELL_TEST_REPEAT=3", "TASCELL_VICTMI=random",
                               "TASCELLWORKERS=2",       "TASCELL_THREADS=4",     nullptr};
  EXPECT_EQ(settings::unknown_variables(environment),
            "tascell: warning: TASCELL_WORKER is not a setting and is ignored; the nearest setting is "
            "TASCELL_WORKERS (TASCELL_HELP=1 lists them all)\n"
            "tascell: warning: TASCELL_VICTMI is not a setting and is ignored; the nearest setting is "
            "TASCELL_VICTIM (TASCELL_HELP=1 lists them all)\n"
            "tascell: warning: TASCELL_THREADS is not a setting and is ignored; the nearest setting is "
            "TASCELL_TRACE (TASCELL_HELP=1 lists them all)\n");
  const char* clean[] = {"TASCELL_WORKERS=2", "HOME=/root", nullptr};
  EXPECT_EQ(settings::unknown_variables(clean), "");
}

// ctest's runtime.help runs this alone (the runtime starts once per process,
// at the first root call), with TASCELL_HELP=1 and a misspelt TASCELL_WORKER.
TEST(StartHelp, TheRuntimePrintsTheListWhenItStartsAndTheProgramGoesOn) {
  const char* help = std::getenv("TASCELL_HELP");
  ASSERT_TRUE(help && std::string(help) == "1") << "ctest runs this with TASCELL_HELP=1";
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int ran = 0;
  tascell::root([&](tascell::ctx) { ran = 1; });
  std::string out = testing::internal::GetCapturedStdout();
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(out.rfind("Tascell++ runtime settings", 0), 0u) << out;
  for (const setting& e : setting_table())
    EXPECT_NE(out.find("\n  " + std::string(e.name) + "="), std::string::npos) << e.name << "\n" << out;
  EXPECT_NE(out.find("\n  TASCELL_HELP=1  (default: 0)\n"), std::string::npos) << out;
  EXPECT_NE(err.find("tascell: warning: TASCELL_WORKER is not a setting and is ignored; the nearest setting is "
                     "TASCELL_WORKERS"),
            std::string::npos)
      << err;
  // Once: a later root call says nothing.
  testing::internal::CaptureStdout();
  tascell::root([&](tascell::ctx) { ran = 2; });
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(ran, 2);
}
