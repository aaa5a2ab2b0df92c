// Table files under mpirun (tascell/table_file.hpp), driven by
// check_table_files.py, which saves on some number of processes, loads on
// others, and damages files in between:
//   save DIR [--n N] [--spread block|hashed] [--codec zstd|lz4] [--level L] [--block-bytes B] [--salt S]
//            a table of N entries, entry i = expected(i), saved into DIR
//            (with --salt, other entries: a save whose parts are another's)
//   load DIR every process loads DIR and checks each of its own entries,
//            and (after a root loop that reads them all) their sum
//   probe DIR [--cache K]   rank 0 alone: table_file<entry> reads entries in
//            a scattered order, twice, checking each; the second pass is
//            served by the cache when it holds every block
//   wrong_type DIR   loads DIR as a table of another entry type: must throw
//   save_inside DIR  t.save(DIR) inside a root call: refused (table_error)
// Each prints "OK ..." on success; a table_file_error is printed on stderr
// as "table_file_error: FILE: BLOCK: WHAT" and the program exits 3.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <tascell/tascell.hpp>

namespace {

struct entry {
  std::uint32_t a;
  std::uint8_t b;
  std::uint8_t pad[3];
};

entry expected(std::int64_t i) {
  entry e{};
  e.a = static_cast<std::uint32_t>(static_cast<std::uint64_t>(i) * 2654435761u);
  e.b = static_cast<std::uint8_t>(i % 7);
  return e;
}
bool same(const entry& x, const entry& y) { return x.a == y.a && x.b == y.b; }

int fails = 0;
void wrong(const char* what, std::int64_t i, const entry& got) {
  entry w = expected(i);
  if (fails++ < 5)
    std::fprintf(stderr, "rank %d: WRONG %s entry %lld: got (%u, %u), want (%u, %u)\n", tascell::rank(), what,
                 static_cast<long long>(i), got.a, got.b, w.a, w.b);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: table_files save|load|probe|wrong_type DIR [options]\n");
    return 2;
  }
  std::string what = argv[1], dir = argv[2];
  std::int64_t n = 100000;
  tascell::spread how = tascell::spread::block;
  tascell::save_options o;
  std::size_t cache = 64;
  std::uint32_t salt = 0;
  for (int a = 3; a < argc; ++a) {
    if (!std::strcmp(argv[a], "--n") && a + 1 < argc) n = std::atoll(argv[++a]);
    else if (!std::strcmp(argv[a], "--spread") && a + 1 < argc)
      how = !std::strcmp(argv[++a], "hashed") ? tascell::spread::hashed : tascell::spread::block;
    else if (!std::strcmp(argv[a], "--level") && a + 1 < argc) o.level = std::atoi(argv[++a]);
    else if (!std::strcmp(argv[a], "--codec") && a + 1 < argc)
      o.codec = !std::strcmp(argv[++a], "lz4") ? tascell::table_codec::lz4 : tascell::table_codec::zstd;
    else if (!std::strcmp(argv[a], "--block-bytes") && a + 1 < argc) o.block_bytes = std::atoll(argv[++a]);
    else if (!std::strcmp(argv[a], "--salt") && a + 1 < argc) salt = static_cast<std::uint32_t>(std::atoll(argv[++a]));
    else if (!std::strcmp(argv[a], "--cache") && a + 1 < argc) cache = static_cast<std::size_t>(std::atoll(argv[++a]));
    else {
      std::fprintf(stderr, "table_files: unknown option %s\n", argv[a]);
      return 2;
    }
  }
  try {
    if (what == "save") {
      tascell::table<entry> t(n, how, "saved");
      for (std::int64_t i : t.local_indices()) {
        t[i] = expected(i);
        t[i].a ^= salt;
      }
      t.save(dir, o);
      std::printf("OK saved %lld entries on %d processes\n", static_cast<long long>(n), tascell::processes());
    } else if (what == "load") {
      auto t = tascell::table<entry>::load(dir);
      std::int64_t mine = 0;
      for (std::int64_t i : t.local_indices()) {
        if (!same(t[i], expected(i))) wrong("loaded", i, t[i]);
        ++mine;
      }
      // Every entry once, in a loop over the indices (pieces that travel
      // read their entries where they run).
      std::int64_t sum = tascell::root([&](tascell::ctx c) {
        std::int64_t s = 0;
        tascell::dowork_for(c, t.indices(), tascell::in(t), tascell::reduce<tascell::op::plus>(s),
                            [](std::int64_t i, const tascell::table<entry>& tt, std::int64_t& acc) { acc += tt[i].b; });
        return s;
      });
      std::int64_t want = 0;
      for (std::int64_t i = 0; i < t.size(); ++i) want += expected(i).b;
      if (sum != want) {
        std::fprintf(stderr, "rank %d: WRONG sum %lld, want %lld\n", tascell::rank(), static_cast<long long>(sum),
                     static_cast<long long>(want));
        ++fails;
      }
      std::printf("OK rank %d loaded %lld of %lld entries (%s spread, named '%s')\n", tascell::rank(),
                  static_cast<long long>(mine), static_cast<long long>(t.size()),
                  t.shape().how == tascell::spread::hashed ? "hashed" : "block", t.name().c_str());
    } else if (what == "probe") {
      if (tascell::rank() == 0) {
        tascell::table_file<entry> f(dir, cache);
        for (int pass = 0; pass < 2; ++pass)
          for (std::int64_t k = 0; k < f.size(); ++k) {
            std::int64_t i = (k * 7919) % f.size();
            entry e = f.get(i);
            if (!same(e, expected(i))) wrong("probed", i, e);
          }
        auto s = f.stats();
        std::printf("OK probed %lld gets, %lld hits, %lld blocks read\n", static_cast<long long>(s.gets),
                    static_cast<long long>(s.hits), static_cast<long long>(s.blocks_read));
      }
    } else if (what == "save_inside") {
      tascell::table<entry> t(n, how, "inside");
      try {
        tascell::root([&](tascell::ctx) { t.save(dir, o); });
        std::fprintf(stderr, "WRONG: a save inside a root call was not refused\n");
        return 1;
      } catch (const tascell::table_error& e) {
        std::printf("OK refused: %s\n", e.what());
      }
    } else if (what == "wrong_type") {
      auto t = tascell::table<std::uint64_t>::load(dir);
      std::fprintf(stderr, "WRONG: loaded as another type\n");
      return 1;
    } else {
      std::fprintf(stderr, "table_files: unknown program %s\n", what.c_str());
      return 2;
    }
  } catch (const tascell::table_file_error& e) {
    std::fprintf(stderr, "table_file_error: %s: %lld: %s\n", e.file().c_str(), static_cast<long long>(e.block()),
                 e.what());
    return 3;
  }
  return fails ? 1 : 0;
}
