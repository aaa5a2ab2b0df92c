// Programs run under mpirun, every answer checked against the sequential
// version on every process (a collective root call returns the result on
// every process):
//   fib           parts with an output
//   nqueens       a parallel loop, the board copied and undone by winds
//   nqueens13     n-queens 13 (not in "all"; the traced timelines)
//   pinning       prints the CPUs this process pins its workers to (alone)
//   minloop       a parallel loop with a min reduction
//   knapsack      branch and bound with an incumbent shared between processes
//   cancel        a search that stops at its first solution with cancel()
//   throw         a search that stops by throwing a registered exception type
//   unregistered  the same with std::runtime_error: tascell::remote_error elsewhere
//   usertypes     inputs and outputs of user types with serialize()
//   board         the bulletin board: newest writes everywhere after the call
//   slowpiece     (not in "all") a piece that runs 5 s in another process
//                 without a poll while its victim waits to steal back
//                 (mpi.watchdog, TASCELL_WATCHDOG=1)
// usage: mpi_programs PROGRAM... [--repeat N]   (or "all")
// Prints one line per program on rank 0; exits 1 on any wrong answer.
// --late-claim US: an idle worker waits US microseconds between finding an
// armed request it may post and claiming it (mpi.late_claim).
// --late-steal-back US: a worker waiting for a piece in another process
// waits US microseconds between reading the piece's thief and asking it to
// give back (mpi.late_steal_back). --no-steal-back: a worker at a join never
// steals back (it asks for other work; mpi.watchdog.asking). --dump-after
// MS: every process raises SIGUSR1 after MS milliseconds (mpi.dump).
// Failure tests (failures.py): --die R (process R kills itself with SIGKILL
// during its first root call), --corrupt garbage|truncated (process 1 sends
// process 0 a malformed message during its first root call).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <signal.h>

#include <chrono>
#include <thread>

#include <tascell/detail/testing.hpp>
#include <tascell/remote_error.hpp>
#include <tascell/tascell.hpp>

#include "programs/fib.hpp"
#include "programs/knapsack.hpp"
#include "programs/minloop.hpp"
#include "programs/nqueens.hpp"

namespace {

// --- knapsack: global data, built the same way by every process ---
programs::knapsack problem;

double bound(int i, long weight, long value) { return problem.bound(i, weight, value); }

tascell::incumbent<tascell::op::max, long> best_value{0};

void knapsack_bb(tascell::ctx c, int i, long weight, long value) {
  if (value > best_value) tascell::improve(best_value, value);
  if (i == static_cast<int>(problem.w.size())) return;
  if (bound(i, weight, value) <= static_cast<double>(best_value.get())) return;
  // The inputs are given once, in common(...), and both parts take them:
  // they travel between processes as one copy.
  tascell::dowork(
      c, tascell::common(tascell::in(i), tascell::in(weight), tascell::in(value)),
      [](tascell::ctx c, const int& i, const long& weight, const long& value) {
        auto k = static_cast<std::size_t>(i);
        if (weight + problem.w[k] <= problem.capacity)
          knapsack_bb(c, i + 1, weight + problem.w[k], value + problem.v[k]);
      },
      [](tascell::ctx c, const int& i, const long& weight, const long& value) {
        knapsack_bb(c, i + 1, weight, value);
      });
}

long knapsack_root(tascell::ctx c) {
  knapsack_bb(c, 0, 0, 0);
  return best_value.get();
}

// --- a search stopped by cancel(): the first n-queens placement, encoded
// in 4 bits per row (n <= 15), returned through a max reduction ---
long encode(const int* a, int n) {
  long code = 0;
  for (int r = 0; r < n; ++r) code = code * 16 + a[r];
  return code + 1;  // 0 means "none"
}
bool valid_code(long code, int n) {
  if (code <= 0) return false;
  --code;
  std::vector<int> a(static_cast<std::size_t>(n));
  for (int r = n - 1; r >= 0; --r) {
    a[static_cast<std::size_t>(r)] = static_cast<int>(code % 16);
    code /= 16;
  }
  for (int r = 0; r < n; ++r)
    if (a[static_cast<std::size_t>(r)] >= n || !programs::safe(a.data(), r, a[static_cast<std::size_t>(r)]))
      return false;
  return true;
}

long first_by_cancel(tascell::ctx c, int n, int k, int* a) {
  if (k == n) return encode(a, n);
  long found = 0;
  tascell::dowork_for(
      c, tascell::range(0, n), tascell::in(n), tascell::in(k), tascell::copy(a, 0, n),
      tascell::reduce<tascell::op::max>(found),
      [](tascell::ctx c, std::int64_t i, const int& n, const int& k, int* a, long& found) {
        if (found > 0) return;  // a piece's copy starts at the identity of max: LONG_MIN
        int col = static_cast<int>(i);
        if (!programs::safe(a, k, col)) return;
        tascell::wind(
            c, [=] { a[k] = col; }, [=] { a[k] = -1; },
            [&](tascell::ctx c) {
              long f = first_by_cancel(c, n, k + 1, a);
              if (f > 0) {
                found = std::max(found, f);
                tascell::cancel(c);
              }
            });
      });
  return found;
}

// --- a search stopped by an exception of a registered type ---
struct solution_found {
  std::vector<int> board;
  int from_rank = -1;
  template <class A>
  void serialize(A& ar) {
    ar(board, from_rank);
  }
};

void first_by_throw(tascell::ctx c, int n, int k, int* a) {
  if (k == n) throw solution_found{std::vector<int>(a, a + n), tascell::rank()};
  tascell::dowork_for(c, tascell::range(0, n), tascell::in(n), tascell::in(k), tascell::copy(a, 0, n),
                      [](tascell::ctx c, std::int64_t i, const int& n, const int& k, int* a) {
                        int col = static_cast<int>(i);
                        if (!programs::safe(a, k, col)) return;
                        tascell::wind(
                            c, [=] { a[k] = col; }, [=] { a[k] = -1; },
                            [&](tascell::ctx c) { first_by_throw(c, n, k + 1, a); });
                      });
}

// --- user types with serialize(): a histogram of a recursive computation,
// split into parts with user-typed inputs and outputs ---
struct histogram {
  std::string label;
  std::map<int, long> counts;
  template <class A>
  void serialize(A& ar) {
    ar(label, counts);
  }
  bool operator==(const histogram&) const = default;
};

struct range_spec {
  std::vector<int> bounds;  // [lo, hi)
  std::string label;
  template <class A>
  void serialize(A& ar) {
    ar(bounds, label);
  }
};

void count_digits(tascell::ctx c, const range_spec& r, histogram& out) {
  int lo = r.bounds[0], hi = r.bounds[1];
  if (hi - lo <= 64) {
    out.label = r.label;
    for (int x = lo; x < hi; ++x) out.counts[x % 10 + (x / 10) % 3]++;
    return;
  }
  int mid = lo + (hi - lo) / 2;
  range_spec left{{lo, mid}, r.label + "L"}, right{{mid, hi}, r.label + "R"};
  histogram a, b;
  tascell::dowork(c, [&](tascell::ctx c) { count_digits(c, left, a); },
                  tascell::part(tascell::in(right), tascell::out(b),
                                [](tascell::ctx c, const range_spec& right, histogram& b) {
                                  count_digits(c, right, b);
                                }));
  out.label = r.label;
  out.counts = a.counts;
  for (auto& [k, v] : b.counts) out.counts[k] += v;
}

histogram count_serial(int lo, int hi) {
  histogram h;
  for (int x = lo; x < hi; ++x) h.counts[x % 10 + (x / 10) % 3]++;
  return h;
}

// --- an exception of a type nobody registered: it arrives on the other
// processes as tascell::remote_error with the same what() ---
void throw_unregistered(tascell::ctx c, int n, int k, int* a) {
  if (k == n) throw std::runtime_error("unregistered: a placement");
  tascell::dowork_for(c, tascell::range(0, n), tascell::in(n), tascell::in(k), tascell::copy(a, 0, n),
                      [](tascell::ctx c, std::int64_t i, const int& n, const int& k, int* a) {
                        int col = static_cast<int>(i);
                        if (!programs::safe(a, k, col)) return;
                        tascell::wind(
                            c, [=] { a[k] = col; }, [=] { a[k] = -1; },
                            [&](tascell::ctx c) { throw_unregistered(c, n, k + 1, a); });
                      });
}

// --- the bulletin board: every iteration publishes its key twice (the
// second, newer write must win everywhere) and reads its own write back ---
tascell::board<long> notes;

long fill_board(tascell::ctx c, int n) {
  long ok = 0;
  tascell::dowork_for(c, tascell::range(0, n), tascell::reduce<tascell::op::plus>(ok),
                      [](tascell::ctx, std::int64_t i, long& ok) {
                        notes.publish(static_cast<std::uint64_t>(i), -1);
                        long x = 0;
                        for (long k = 0; k < 200000; ++k) x += (k * i) % 7;  // some work to share
                        notes.publish(static_cast<std::uint64_t>(i), i * i + x % 1);
                        auto back = notes.read(static_cast<std::uint64_t>(i));
                        if (back && *back == i * i) ++ok;
                      });
  return ok;
}

}  // namespace

TASCELL_EXCEPTION(solution_found);

namespace {

int failures = 0;

void check(bool ok, const char* program, int run, const std::string& what) {
  if (ok) return;
  ++failures;
  std::fprintf(stderr, "rank %d: %s run %d: WRONG: %s\n", tascell::rank(), program, run, what.c_str());
}

// On 2 processes x 1 worker: part 0 polls until part 1 has started in
// rank 1 (rank 1, idle, asks at once; part 1 says it has started through an
// incumbent, which reaches rank 0 by message), then waits at the join while
// part 1 sleeps 5 s without a poll, so rank 0's request to steal it back
// waits about that long for its answer (the watchdog of mpi.watchdog speaks
// after 1 s; the rest is slack for a loaded machine).
tascell::incumbent<tascell::op::max, long> slow_piece_started{0};

long slow_piece(tascell::ctx c) {
  long a = 0, b = 0;
  tascell::dowork(
      c,
      [&](tascell::ctx c) {
        auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (slow_piece_started.get() == 0 && std::chrono::steady_clock::now() < give_up) tascell::poll(c);
        a = 1;
      },
      tascell::part(tascell::in(5000), tascell::out(b), [](tascell::ctx, const int& ms, long& b) {
        tascell::improve(slow_piece_started, 1L);
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
        b = 2;
      }));
  return a + b;
}

void run(const std::string& name, int repeat) {
  long total_pieces = 0;
  for (int i = 0; i < repeat; ++i) {
    if (name == "fib") {
      int n = 27 + i % 4;
      long got = tascell::root(programs::fib, n);
      check(got == programs::fib_serial(n), "fib", i, std::to_string(got));
    } else if (name == "nqueens") {
      int n = 9 + i % 3;
      std::vector<int> a(static_cast<std::size_t>(n), -1);
      long got = tascell::root(programs::nqueens, n, 0, a.data());
      std::vector<int> b(static_cast<std::size_t>(n), -1);
      check(got == programs::nqueens_serial(n, 0, b.data()), "nqueens", i, std::to_string(got));
    } else if (name == "nqueens13") {  // the size of the timelines in docs/tracing.md
      std::vector<int> a(13, -1);
      long got = tascell::root(programs::nqueens, 13, 0, a.data());
      check(got == 73712, "nqueens13", i, std::to_string(got));
    } else if (name == "minloop") {
      std::int64_t n = 3000000 + 9973 * i;
      auto got = tascell::root(programs::min_loop, n);
      check(got == programs::min_loop_serial(n), "minloop", i, std::to_string(got));
    } else if (name == "knapsack") {
      problem = programs::knapsack::random(44 + i % 6, static_cast<unsigned>(i + 1), true);
      best_value.reset(0);
      long got = tascell::root(knapsack_root);
      long want = problem.dynamic_programming();
      check(got == want, "knapsack", i, std::to_string(got) + " against " + std::to_string(want));
      // The incumbent itself is exact on every process after the root call.
      check(best_value.get() == want, "knapsack", i, "incumbent " + std::to_string(best_value.get()));
    } else if (name == "cancel") {
      int n = 11 + i % 5;
      std::vector<int> a(static_cast<std::size_t>(n), -1);
      long got = tascell::root(first_by_cancel, n, 0, a.data());
      check(valid_code(got, n), "cancel", i, "not a placement: " + std::to_string(got));
    } else if (name == "throw") {
      int n = 11 + i % 5;
      std::vector<int> a(static_cast<std::size_t>(n), -1);
      bool caught = false;
      try {
        tascell::root(first_by_throw, n, 0, a.data());
      } catch (const solution_found& f) {
        caught = true;
        bool ok = static_cast<int>(f.board.size()) == n;
        for (int r = 0; ok && r < n; ++r)
          ok = programs::safe(f.board.data(), r, f.board[static_cast<std::size_t>(r)]);
        check(ok, "throw", i, "not a placement");
      }
      check(caught, "throw", i, "no solution_found arrived");
    } else if (name == "usertypes") {
      int hi = 100000 + 1111 * i;
      range_spec all{{0, hi}, "r"};
      histogram got = tascell::root([&](tascell::ctx c) {
        histogram h;
        count_digits(c, all, h);
        return h;
      });
      histogram want = count_serial(0, hi);
      want.label = "r";
      check(got == want, "usertypes", i, "histograms differ");
    } else if (name == "unregistered") {
      int n = 11 + i % 5;
      std::vector<int> a(static_cast<std::size_t>(n), -1);
      std::string what;
      bool remote = false;
      try {
        tascell::root(throw_unregistered, n, 0, a.data());
      } catch (const tascell::remote_error& e) {
        what = e.what();
        remote = e.rank >= 0 && e.rank < tascell::processes();
      } catch (const std::runtime_error& e) {
        what = e.what();
      }
      check(what == "unregistered: a placement", "unregistered", i, "caught '" + what + "'");
      // Rank 0's root task may have thrown it itself; every other process
      // receives it from rank 0.
      if (!tascell::is_root()) check(remote, "unregistered", i, "not a remote_error naming a rank");
    } else if (name == "board") {
      int n = 200 + i;
      notes.clear();
      long ok = tascell::root(fill_board, n);
      check(ok == n, "board", i, std::to_string(n - ok) + " writes not read back");
      // After the root call every process holds every newest write.
      int missing = 0;
      for (int k = 0; k < n; ++k) {
        auto v = notes.read(static_cast<std::uint64_t>(k));
        if (!v || *v != static_cast<long>(k) * k) ++missing;
      }
      check(missing == 0, "board", i, std::to_string(missing) + " entries missing or old");
    } else if (name == "slowpiece") {
      slow_piece_started.reset(0);
      long got = tascell::root(slow_piece);
      check(got == 3, "slowpiece", i, std::to_string(got));
    } else {
      std::fprintf(stderr, "unknown program %s\n", name.c_str());
      std::exit(2);
    }
    total_pieces += static_cast<long>(tascell::last_stats().remote_steal_ns.size());
  }
  if (tascell::is_root())
    std::printf("%s: %d runs on %d processes x %d workers, %s\n", name.c_str(), repeat,
                tascell::processes(), tascell::workers(), failures ? "WRONG ANSWERS" : "all right");
  // Pieces that came from other processes, over all processes.
  std::fprintf(stderr, "rank %d: %s: %ld pieces from other processes\n", tascell::rank(), name.c_str(),
               total_pieces);
}

}  // namespace

// Arranges a failure 0.3 s from now, on another thread.
void arrange_failure(int die_rank, const std::string& corrupt) {
  if (die_rank >= 0 && tascell::rank() == die_rank) {
    std::thread([] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      raise(SIGKILL);
    }).detach();
  }
  if (!corrupt.empty() && tascell::rank() == 1) {
    std::thread([corrupt] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      std::string bytes;
      if (corrupt == "garbage") {
        bytes = "this is not a message";
      } else {
        // A valid batch header, then a work message cut short.
        std::uint32_t magic = 0x7A5C3E11u;
        std::int32_t load = 1;
        bytes.append(reinterpret_cast<const char*>(&magic), 4);
        bytes.append(reinterpret_cast<const char*>(&load), 4);
        bytes.push_back(2);  // work
        bytes.append("abc");
      }
      tascell::detail::send_raw_for_testing(0, bytes);
    }).detach();
  }
}

int main(int argc, char** argv) {
  int repeat = 10;
  int die_rank = -1;
  std::string corrupt;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--die") == 0 && i + 1 < argc) die_rank = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--corrupt") == 0 && i + 1 < argc) corrupt = argv[++i];
    else if (std::strcmp(argv[i], "--dump-after") == 0 && i + 1 < argc) {
      int ms = std::atoi(argv[++i]);
      std::thread([ms] {
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
        raise(SIGUSR1);
      }).detach();
    } else if (std::strcmp(argv[i], "--no-steal-back") == 0)
      tascell::detail::steal_back_for_testing(false);
    else if (std::strcmp(argv[i], "--late-claim") == 0 && i + 1 < argc)
      tascell::detail::claim_delay_for_testing(std::atoi(argv[++i]));
    else if (std::strcmp(argv[i], "--late-steal-back") == 0 && i + 1 < argc)
      tascell::detail::steal_back_delay_for_testing(std::atoi(argv[++i]));
    else names.emplace_back(argv[i]);
  }
  if (!names.empty() && names[0] == "pinning") {
    // One line per process, for check_pinning.py.
    std::vector<int> cpus = tascell::detail::pinned_cpus_for_testing();
    auto [local_rank, local_size] = tascell::detail::local_rank_for_testing();
    std::string list;
    for (int c : cpus) {
      if (!list.empty()) list += ',';
      list += std::to_string(c);
    }
    std::printf("pinning: rank %d local %d of %d workers %d cpus [%s]\n", tascell::rank(), local_rank,
                local_size, tascell::workers(), list.c_str());
    return 0;
  }
  arrange_failure(die_rank, corrupt);
  if (names.empty() || names[0] == "all")
    names = {"fib", "nqueens", "minloop", "knapsack", "cancel", "throw", "unregistered", "usertypes", "board"};
  for (auto& n : names) run(n, repeat);
  return failures ? 1 : 0;
}
