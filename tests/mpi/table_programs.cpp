// Distributed tables under mpirun (tascell/table.hpp), every answer checked
// against a sequential computation on every process:
//   histogram   updates from a plain parallel loop to a hashed table; then a
//               loop over the table's indices sums it (owner-first: counts
//               the iterations that ran where their entry lives)
//   join        a loop writes every entry of a block table through apply();
//               the next loop, over the indices, checks each entry where it
//               lives: an update still in flight at the first join fails it
//   carry       pieces of a loop over the indices that run in another
//               process read their entries there (fetched); rank 0's
//               iterations are slow, so ranges of its block must go to the
//               others: the sum, and (with several processes) that some did
//   get         t.get(i) of every entry from rank 0, after the updates
//   before      each process writes its own entries in plain C++ before
//               the root call, rank r > 0 reaching it 40r ms after rank 0:
//               the call's updates (from a plain loop, mostly run by rank 0
//               while the others are late) land after those writes, and
//               its loop over the indices (whose late blocks rank 0 runs
//               itself, fetching their entries) reads them
//   owner_first (not in "all": with 1 worker a process) a loop over the
//               indices of slow iterations: rank 0's first iteration is one
//               of its own entries, and every process runs iterations of its
//               own entries in some repeat (a process that gets no core
//               within the owner's patience, a quarter of its own block's
//               time, sees its block run elsewhere: under a loaded
//               ThreadSanitizer run, 1 round in 17 of --repeat 5; with more
//               workers a process may take a piece of another's block first);
//               and in some repeat each process began at the first
//               position of its block (it was handed the block whole)
//   random      seeded random tables (size, spread) and updates, in a plain
//               loop and in a loop over the indices whose updates depend on
//               the entries it reads; each process checks its entries
//   batching    one piece sends many updates to each other process: they
//               travel in batches of hundreds or more (TASCELL_STATS figures)
// usage: table_programs PROGRAM... [--repeat N] [--n N] [--seed S]   (or "all")
// --suspensions: each rank prints how often its joins suspended a fiber.
// --no-settle --delay-updates US: settling off and batches held US
// microseconds (detail/testing.hpp); with --expect-wrong, `join` must then
// find entries not yet written in one of up to five root calls (the test
// sees updates in flight).
// Errors (each its own run; the program prints the error and exits 3):
//   err_range    an index out of range
//   err_outside  apply() to another process's entry from main
//   err_sizes    a table made with a different size in rank 1
//   err_remote   t[i] of another process's entry from main
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <tascell/detail/testing.hpp>
#include <tascell/tascell.hpp>

#include <atomic>
#include <chrono>
#include <random>
#include <thread>
#include <utility>

namespace {

std::int64_t n_items = 200000;
bool expect_wrong = false;
std::uint64_t seed = 1;

// Fibers switched out (TASCELL_WAIT=suspend) in this process's root calls,
// summed: printed with --suspensions, so that a test of tables under
// suspension can see that joins did suspend.
std::int64_t suspensions = 0;

template <class F>
decltype(auto) counted_root(F&& f) {
  struct add_suspensions {
    ~add_suspensions() {
      for (const tascell::worker_stats& w : tascell::last_stats().workers) suspensions += w.suspends;
    }
  } at_return;
  return tascell::root(std::forward<F>(f));
}

struct add {
  std::int64_t by;
  void operator()(std::int64_t& e) const { e += by; }
};
struct put_value {
  std::int64_t v;
  void operator()(std::int64_t& e) const { e = v; }
};

int fails = 0;
void check(bool ok, const char* what, long long got, long long want) {
  if (!ok) {
    std::fprintf(stderr, "rank %d: %s: got %lld, want %lld\n", tascell::rank(), what, got, want);
    ++fails;
  }
}

std::int64_t bucket(std::int64_t i, std::int64_t k) { return (i * 7919) % k; }

void histogram() {
  const std::int64_t k = 1009;
  tascell::table<std::int64_t> h(k, tascell::spread::hashed, "histogram");
  counted_root([&](tascell::ctx c) {
    tascell::dowork_for(c, tascell::range(0, n_items), tascell::in(h),
                        [](std::int64_t i, const tascell::table<std::int64_t>& t) {
                          t.apply(bucket(i, t.size()), add{1});
                        });
  });
  std::vector<std::int64_t> want(static_cast<std::size_t>(k), 0);
  for (std::int64_t i = 0; i < n_items; ++i) ++want[static_cast<std::size_t>(bucket(i, k))];
  for (std::int64_t i : h.local_indices()) check(h[i] == want[static_cast<std::size_t>(i)], "histogram entry", h[i], want[static_cast<std::size_t>(i)]);
  // The sum over the indices, and how many iterations ran where their entry lives.
  struct sums {
    std::int64_t total = 0, home = 0;
  };
  sums s = counted_root([&](tascell::ctx c) {
    std::int64_t total = 0, home = 0;
    tascell::dowork_for(c, h.indices(), tascell::in(h), tascell::reduce<tascell::op::plus>(total),
                        tascell::reduce<tascell::op::plus>(home),
                        [](std::int64_t i, const tascell::table<std::int64_t>& t, std::int64_t& tot, std::int64_t& hm) {
                          tot += t[i];
                          hm += t.is_local(i);
                        });
    return sums{total, home};
  });
  check(s.total == n_items, "histogram sum", s.total, n_items);
  if (tascell::rank() == 0) std::printf("histogram: sum %lld, %lld of %lld iterations where their entry lives\n",
                                        static_cast<long long>(s.total), static_cast<long long>(s.home),
                                        static_cast<long long>(k));
}

void join_completes() {
  const std::int64_t n = n_items;
  tascell::table<std::int64_t> t(n, tascell::spread::block, "join");
  // One root call: iteration i writes entry n-1-i (most writes go to another
  // process) the value of attempt a, then a loop over the indices counts the
  // entries without it.
  auto attempt = [&](std::int64_t a) {
    return counted_root([&](tascell::ctx c) {
      tascell::dowork_for(c, tascell::range(0, n), tascell::in(t), tascell::in(a),
                          [](std::int64_t i, const tascell::table<std::int64_t>& tt, const std::int64_t& a) {
                            std::int64_t j = tt.size() - 1 - i;
                            tt.apply(j, put_value{3 * j + 1 + 7 * a});
                          });
      std::int64_t wrong = 0;
      tascell::dowork_for(c, t.indices(), tascell::in(t), tascell::in(a), tascell::reduce<tascell::op::plus>(wrong),
                          [](std::int64_t i, const tascell::table<std::int64_t>& tt, const std::int64_t& a,
                             std::int64_t& w) { w += tt[i] != 3 * i + 1 + 7 * a; });
      return wrong;
    });
  };
  std::int64_t bad = 0;
  if (expect_wrong) {
    // Settling off: the test must see what settling prevents. A join can
    // still find every entry written when the pieces' results travelled in
    // the held batches of their updates, so up to five attempts, each
    // writing values of its own; after each, the updates held back are
    // still on their way: let them arrive while the table exists (nothing
    // else waits for them).
    for (std::int64_t a = 0; a < 5 && bad == 0; ++a) {
      bad = attempt(a);
      std::this_thread::sleep_for(std::chrono::milliseconds(600));
    }
    check(bad > 0, "join without settling: no entry found unwritten", bad, 1);
  } else {
    bad = attempt(0);
    check(bad == 0, "join: entries not yet written when the next loop read them", bad, 0);
  }
  if (tascell::rank() == 0) std::printf("join: %lld entries wrong\n", static_cast<long long>(bad));
}

std::int64_t carried_reads = 0;  // iterations that read another process's entries, over the repeats

void carry() {
  const std::int64_t n = n_items;
  tascell::table<std::int64_t> t(n, tascell::spread::hashed, "carry");
  for (std::int64_t i : t.local_indices()) t[i] = i % 97;
  struct sums {
    std::int64_t total = 0, away = 0;
  };
  sums s = counted_root([&](tascell::ctx c) {
    std::int64_t total = 0, away = 0;
    tascell::dowork_for(c, t.indices(), tascell::in(t), tascell::reduce<tascell::op::plus>(total),
                        tascell::reduce<tascell::op::plus>(away),
                        [](std::int64_t i, const tascell::table<std::int64_t>& tt, std::int64_t& tot, std::int64_t& aw) {
                          // Rank 0's entries take 25 times as long as the
                          // others': the other processes finish their blocks
                          // first and must take ranges of rank 0's.
                          std::int64_t v = tt[i];
                          const int work = tt.owner(i) == 0 ? 500 : 20;
                          for (int k = 0; k < work; ++k) v = (v * 31 + k) % 1000003;
                          tot += tt[i] + (v < 0);
                          aw += !tt.is_local(i);
                        });
    return sums{total, away};
  });
  std::int64_t want = 0;
  for (std::int64_t i = 0; i < n; ++i) want += i % 97;
  check(s.total == want, "carry sum", s.total, want);
  carried_reads += s.away;
  if (tascell::rank() == 0)
    std::printf("carry: sum %s, %lld iterations read carried entries\n", s.total == want ? "right" : "WRONG",
                static_cast<long long>(s.away));
}

void get_all() {
  const std::int64_t n = 5000;
  tascell::table<std::int64_t> t(n, tascell::spread::hashed, "get");
  counted_root([&](tascell::ctx c) {
    tascell::dowork_for(c, tascell::range(0, n), tascell::in(t), [](std::int64_t i, const tascell::table<std::int64_t>& tt) {
      tt.apply(i, put_value{i * i});
    });
  });
  if (tascell::rank() == 0) {
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < n; i += 7) wrong += t.get(i) != i * i;
    check(wrong == 0, "get", wrong, 0);
    std::printf("get: %lld wrong\n", static_cast<long long>(wrong));
  }
}

void written_before() {
  const std::int64_t n = 3000;
  tascell::table<std::int64_t> t(n, tascell::spread::hashed, "before");
  for (std::int64_t round = 1; round <= 2; ++round) {
    // The program of rank r reaches its writes and root() later.
    std::this_thread::sleep_for(std::chrono::milliseconds(40 * tascell::rank()));
    for (std::int64_t i : t.local_indices()) t[i] = 1000 * round + i;
    std::int64_t sum = counted_root([&](tascell::ctx c) {
      tascell::dowork_for(c, tascell::range(0, n), tascell::in(t),
                          [](std::int64_t i, const tascell::table<std::int64_t>& tt) { tt.apply(i, add{1}); });
      std::int64_t s = 0;
      tascell::dowork_for(c, t.indices(), tascell::in(t), tascell::reduce<tascell::op::plus>(s),
                          [](std::int64_t i, const tascell::table<std::int64_t>& tt, std::int64_t& sum) { sum += tt[i]; });
      return s;
    });
    std::int64_t want = 0, wrong = 0;
    for (std::int64_t i = 0; i < n; ++i) want += 1000 * round + i + 1;
    for (std::int64_t i : t.local_indices()) wrong += t[i] != 1000 * round + i + 1;
    check(sum == want, "before: the sum the root call read of entries written before it", sum, want);
    check(wrong == 0, "before: entries of this process whose update was lost", wrong, 0);
    if (tascell::rank() == 0)
      std::printf("before: round %lld: sum %s\n", static_cast<long long>(round), sum == want ? "right" : "WRONG");
  }
}

std::atomic<std::int64_t> first_index{-1};
std::atomic<std::int64_t> own_runs{0};
int owner_first_repeats = 0, owner_first_own = 0;  // repeats; those with iterations of own entries here
int owner_first_block_start = 0;  // repeats whose first iteration here was the first of this process's block

void owner_first() {
  const std::int64_t n = 600 * tascell::processes();
  tascell::table<std::int64_t> t(n, tascell::spread::hashed, "owner_first");
  first_index.store(-1);
  own_runs.store(0);
  counted_root([&](tascell::ctx c) {
    tascell::dowork_for(c, t.indices(), tascell::in(t), [](std::int64_t i, const tascell::table<std::int64_t>& tt) {
      std::int64_t none = -1;
      first_index.compare_exchange_strong(none, i);
      if (tt.is_local(i)) own_runs.fetch_add(1);
      auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(20);
      while (std::chrono::steady_clock::now() < until) {
      }
    });
  });
  std::int64_t f = first_index.load();
  ++owner_first_repeats;
  if (own_runs.load() > 0) ++owner_first_own;
  if (f >= 0 && t.shape().to_pos(f) == t.shape().first_pos(tascell::rank())) ++owner_first_block_start;
  if (tascell::rank() == 0) {
    check(f >= 0 && t.owner(f) == 0, "owner_first: the first iteration on rank 0 is owned by rank", f >= 0 ? t.owner(f) : -1, 0);
    std::printf("owner_first: rank 0 started on its own entries\n");
  }
}

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 31;
  x *= 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  return x;
}

void random_tables() {
  std::mt19937_64 rng(seed);
  const std::int64_t n = 1 + static_cast<std::int64_t>(rng() % 30000);
  const auto how = rng() % 2 ? tascell::spread::hashed : tascell::spread::block;
  const std::int64_t m = static_cast<std::int64_t>(rng() % 100000);
  const std::uint64_t salt = rng();
  tascell::table<std::int64_t> a(n, how, "random_a"), b(n, how, "random_b");
  counted_root([&](tascell::ctx c) {
    tascell::dowork_for(c, tascell::range(0, m), tascell::in(a), tascell::in(salt),
                        [](std::int64_t i, const tascell::table<std::int64_t>& ta, const std::uint64_t& s) {
                          ta.apply(static_cast<std::int64_t>(mix(s + static_cast<std::uint64_t>(i)) %
                                                             static_cast<std::uint64_t>(ta.size())),
                                   add{i % 7 + 1});
                        });
    tascell::dowork_for(c, a.indices(), tascell::in(a), tascell::in(b), tascell::in(salt),
                        [](std::int64_t i, const tascell::table<std::int64_t>& ta, const tascell::table<std::int64_t>& tb,
                           const std::uint64_t& s) {
                          std::int64_t v = ta[i];
                          if (v % 3 == 0) return;
                          tb.apply(static_cast<std::int64_t>(mix(s ^ static_cast<std::uint64_t>(i)) %
                                                             static_cast<std::uint64_t>(tb.size())),
                                   add{v});
                        });
  });
  std::vector<std::int64_t> wa(static_cast<std::size_t>(n), 0), wb(static_cast<std::size_t>(n), 0);
  for (std::int64_t i = 0; i < m; ++i)
    wa[mix(salt + static_cast<std::uint64_t>(i)) % static_cast<std::uint64_t>(n)] += i % 7 + 1;
  for (std::int64_t i = 0; i < n; ++i)
    if (wa[static_cast<std::size_t>(i)] % 3 != 0)
      wb[mix(salt ^ static_cast<std::uint64_t>(i)) % static_cast<std::uint64_t>(n)] += wa[static_cast<std::size_t>(i)];
  std::int64_t wrong = 0;
  for (std::int64_t i : a.local_indices())
    wrong += a[i] != wa[static_cast<std::size_t>(i)] || b[i] != wb[static_cast<std::size_t>(i)];
  check(wrong == 0, "random: entries differ from the sequential computation", wrong, 0);
  if (tascell::rank() == 0)
    std::printf("random(seed %llu): %lld entries, %s spread, %lld updates: %s\n", static_cast<unsigned long long>(seed),
                static_cast<long long>(n), how == tascell::spread::hashed ? "hashed" : "block", static_cast<long long>(m),
                wrong ? "WRONG" : "right");
  ++seed;
}

void batching() {
  const std::int64_t n = 4096 * tascell::processes();
  tascell::table<std::int64_t> t(n, tascell::spread::block, "batching");
  // One piece (if(false): the loop runs as plain code) updates every entry
  // 10 times: 10 * n / P updates for each other process.
  counted_root([&](tascell::ctx c) {
    tascell::dowork_for(c, tascell::when(false), tascell::range(0, 10 * n), tascell::in(t),
                        [](std::int64_t i, const tascell::table<std::int64_t>& tt) { tt.apply(i % tt.size(), add{1}); });
  });
  tascell::run_stats st = tascell::last_stats();
  std::int64_t wrong = 0;
  for (std::int64_t i : t.local_indices()) wrong += t[i] != 10;
  check(wrong == 0, "batching: entries", wrong, 0);
  if (tascell::rank() == 0 && tascell::processes() > 1) {
    std::int64_t per = st.table_batches ? st.table_updates / st.table_batches : 0;
    check(st.table_updates == 10 * (n - n / tascell::processes()), "batching: updates sent", st.table_updates,
          10 * (n - n / tascell::processes()));
    check(per >= 500, "batching: updates per batch", per, 500);
    std::printf("batching: %lld updates in %lld batches\n", static_cast<long long>(st.table_updates),
                static_cast<long long>(st.table_batches));
  }
}

int error_case(const std::string& name) {
  try {
    if (name == "err_range") {
      tascell::table<std::int64_t> t(100, tascell::spread::block, "small");
      tascell::root([&](tascell::ctx c) {
        tascell::dowork_for(c, tascell::range(0, 1), tascell::in(t),
                            [](std::int64_t, const tascell::table<std::int64_t>& tt) { tt.apply(100, add{1}); });
      });
    } else if (name == "err_outside") {
      tascell::table<std::int64_t> t(100, tascell::spread::block, "small");
      t.apply(tascell::rank() == 0 ? 99 : 0, add{1});
    } else if (name == "err_sizes") {
      tascell::table<std::int64_t> t(tascell::rank() == 1 ? 50 : 100, tascell::spread::block, "uneven");
    } else if (name == "err_remote") {
      tascell::table<std::int64_t> t(100, tascell::spread::block, "small");
      std::int64_t v = t[tascell::rank() == 0 ? 99 : 0];
      std::printf("read %lld\n", static_cast<long long>(v));
    } else {
      return -1;
    }
  } catch (const tascell::table_error& e) {
    std::printf("rank %d: %s\n", tascell::rank(), e.what());
    std::fflush(stdout);
    return 3;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> progs;
  int repeat = 1;
  bool print_suspensions = false;
  for (int a = 1; a < argc; ++a) {
    if (!std::strcmp(argv[a], "--repeat") && a + 1 < argc) repeat = std::atoi(argv[++a]);
    else if (!std::strcmp(argv[a], "--n") && a + 1 < argc) n_items = std::atoll(argv[++a]);
    else if (!std::strcmp(argv[a], "--seed") && a + 1 < argc) seed = std::strtoull(argv[++a], nullptr, 10);
    else if (!std::strcmp(argv[a], "--no-settle")) tascell::detail::settle_updates_for_testing(false);
    else if (!std::strcmp(argv[a], "--delay-updates") && a + 1 < argc)
      tascell::detail::delay_updates_for_testing(std::atoi(argv[++a]));
    else if (!std::strcmp(argv[a], "--expect-wrong")) expect_wrong = true;
    else if (!std::strcmp(argv[a], "--suspensions")) print_suspensions = true;
    else progs.push_back(argv[a]);
  }
  if (progs.size() == 1 && progs[0] == "all")
    progs = {"histogram", "join", "carry", "get", "before", "random", "random", "batching"};
  if (progs.empty()) {
    std::fprintf(stderr, "usage: table_programs PROGRAM... [--repeat N] [--n N]\n");
    return 2;
  }
  for (int r = 0; r < repeat; ++r)
    for (const std::string& p : progs) {
      if (p == "histogram") histogram();
      else if (p == "join") join_completes();
      else if (p == "carry") carry();
      else if (p == "get") get_all();
      else if (p == "before") written_before();
      else if (p == "owner_first") owner_first();
      else if (p == "random") random_tables();
      else if (p == "batching") batching();
      else {
        int rc = error_case(p);
        if (rc < 0) {
          std::fprintf(stderr, "unknown program %s\n", p.c_str());
          return 2;
        }
        return rc;
      }
    }
  // Ranges stolen across processes: some iteration read entries of another
  // process (its piece fetched them), in some repeat.
  bool ran_carry = false;
  for (const std::string& p : progs) ran_carry |= p == "carry";
  if (ran_carry && tascell::processes() > 1 && tascell::rank() == 0)
    check(carried_reads > 0, "carry: no range went to another process in any repeat", carried_reads, 1);
  if (owner_first_repeats > 0) {
    check(owner_first_own > 0, "owner_first: repeats in which iterations of this process's own entries ran here",
          owner_first_own, 1);
    // Its block handed over whole: this process began at the block's first
    // position. A plain loop (no owner-first) hands out halves of what is
    // left instead, which on 3 processes never begin at a block's start.
    check(owner_first_block_start > 0,
          "owner_first: repeats in which this process began at the first position of its own block",
          owner_first_block_start, 1);
  }
  if (print_suspensions)
    std::printf("rank %d: %lld suspensions\n", tascell::rank(), static_cast<long long>(suspensions));
  return fails ? 1 : 0;
}
