// The costs of table files (tascell/table_file.hpp) on a real table: the
// endgame tables that lang-examples/retro.tcpp --tables saves. Driven by
// files_bench.py, which measures the disk beside it with dd.
//   table_files_bench resave SRC DST [--codec zstd|lz4] [--level L] [--raw] [--load-only]
//       loads SRC-wtm and SRC-btm (tables of endgames::wtm_entry and
//       btm_entry), then saves them as DST-wtm and DST-btm; prints
//       "load S s save S s raw B bytes" (--load-only: no save, 0 s)
//   table_files_bench probe DIR --gets G [--cache K]
//       G gets of scattered entries of a table of btm_entry through a
//       cache of K blocks, timed after a first pass that fills it; prints
//       "probe G gets N ns per get, H hits, R blocks read"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <tascell/tascell.hpp>

#include "endgames.hpp"

namespace {

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: table_files_bench resave SRC DST [--codec zstd|lz4] [--level L] [--raw] [--load-only] | probe DIR --gets G [--cache K]\n");
    return 2;
  }
  std::string what = argv[1];
  tascell::save_options o;
  long long gets = 1000000;
  std::size_t cache = 64;
  bool load_only = false;  // resave without the save: the load's time alone
  for (int a = 3; a < argc; ++a) {
    if (!std::strcmp(argv[a], "--level") && a + 1 < argc) o.level = std::atoi(argv[++a]);
    else if (!std::strcmp(argv[a], "--codec") && a + 1 < argc)
      o.codec = !std::strcmp(argv[++a], "lz4") ? tascell::table_codec::lz4 : tascell::table_codec::zstd;
    else if (!std::strcmp(argv[a], "--raw")) o.byte_planes = false;  // blocks as the entries lie
    else if (!std::strcmp(argv[a], "--gets") && a + 1 < argc) gets = std::atoll(argv[++a]);
    else if (!std::strcmp(argv[a], "--cache") && a + 1 < argc) cache = static_cast<std::size_t>(std::atoll(argv[++a]));
    else if (!std::strcmp(argv[a], "--load-only")) load_only = true;
  }
  try {
    if (what == "resave" && argc >= 4) {
      std::string src = argv[2], dst = argv[3];
      { tascell::table<char> start(1); }  // the runtime starts (MPI, the message thread) before the clock does
      auto t0 = std::chrono::steady_clock::now();
      auto w = tascell::table<endgames::wtm_entry>::load(src + "-wtm");
      auto b = tascell::table<endgames::btm_entry>::load(src + "-btm");
      double load = since(t0);
      auto t1 = std::chrono::steady_clock::now();
      if (!load_only) {
        w.save(dst + "-wtm", o);
        b.save(dst + "-btm", o);
      }
      double save = since(t1);
      long long raw = static_cast<long long>(w.size() * sizeof(endgames::wtm_entry) + b.size() * sizeof(endgames::btm_entry));
      if (tascell::is_root()) std::printf("load %.4f s save %.4f s raw %lld bytes\n", load, save, raw);
    } else if (what == "probe") {
      tascell::table_file<endgames::btm_entry> f(argv[2], cache);
      const long long n = f.size();
      long long sum = 0;
      auto pass = [&](long long count) {
        std::uint64_t x = 12345;
        for (long long k = 0; k < count; ++k) {
          x = x * 6364136223846793005ull + 1442695040888963407ull;
          sum += f.get(static_cast<long long>((x >> 17) % static_cast<std::uint64_t>(n))).left;
        }
      };
      pass(gets);  // fills the cache (when it can hold what the gets touch)
      auto before = f.stats();
      auto t0 = std::chrono::steady_clock::now();
      pass(gets);
      double s = since(t0);
      auto after = f.stats();
      std::printf("probe %lld gets %.1f ns per get, %lld hits, %lld blocks read (sum %lld)\n", gets, 1e9 * s / gets,
                  static_cast<long long>(after.hits - before.hits),
                  static_cast<long long>(after.blocks_read - before.blocks_read), sum);
    } else {
      std::fprintf(stderr, "table_files_bench: unknown command %s\n", what.c_str());
      return 2;
    }
  } catch (const tascell::table_file_error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 3;
  }
  return 0;
}
