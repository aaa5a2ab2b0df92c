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
//   bulky         (not in "all") pieces and results too large for the
//                 mailboxes and rings of shared memory, and small ones
//   unsendable    (not in "all") a part's input that cannot be serialized
//   board         the bulletin board: newest writes everywhere after the call
//   span          pieces capture a std::span<const long> over
//                 a vector that only rank 0 has: the elements travel, not the view
//   string_view   a loop whose pieces capture a std::string_view
//   function_pointer  pieces capture pointers to functions (of the
//                 executable and of libc), and return one through out() and
//                 from the root call: the functions travel, not addresses
//   remote_cancel (not in "all"; 2 processes or more) long pieces spread
//                 over every process, one in a chosen process calls cancel():
//                 every other running piece must be stopped, also in other
//                 processes, and see cancelled() (counted per process)
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
// MS: every process raises SIGUSR1 MS milliseconds after the runtime has
// started (mpi.dump).
// --counts: remote_cancel prints what the iterations of every run did.
// Failure tests (failures.py): --die R (process R kills itself with SIGKILL
// during its first root call), --corrupt garbage|truncated (process 1 sends
// process 0 a malformed message during its first root call).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <signal.h>

#include <span>
#include <string_view>

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

// --- bulky: pieces and results of every size. A piece carries its part of
// the data (8 bytes an element), so between processes of one machine a
// piece of 2,048 elements or more does not fit a thief's mailbox (16 KiB)
// and goes by MPI, a smaller one through the mailbox. Its result (which
// way the piece went) holds a sum per 16 elements in the narrow runs (two
// of three): it fits an entry of the victim's ring (252 bytes) unless the
// piece has 512 elements or more; and 40 values per 16 elements in the
// wide runs (the first of every three): no result fits, and every one
// goes by MPI (shared_requests.hpp) ---
struct bulk_part {
  std::vector<long> data;
  bool wide = false;
  template <class A>
  void serialize(A& ar) {
    ar(data, wide);
  }
};

struct bulk_sums {
  std::vector<long> sums;
  template <class A>
  void serialize(A& ar) {
    ar(sums);
  }
};

// A leaf's values, appended to out.
void bulk_leaf(const bulk_part& p, std::vector<long>& out) {
  long s = 0;
  for (long x : p.data)
    for (int k = 0; k < 300; ++k) s = (s * 31 + x * x + k) % 1000003;
  out.push_back(s);
  if (p.wide)
    for (long j = 1; j < 40; ++j) out.push_back(s * (j + 1) % 1000003);
}

void bulk_split(const bulk_part& p, bulk_part& left, bulk_part& right) {
  auto half = p.data.begin() + static_cast<std::ptrdiff_t>(p.data.size() / 2);
  left.data.assign(p.data.begin(), half);
  right.data.assign(half, p.data.end());
  left.wide = right.wide = p.wide;
}

void bulk_run(tascell::ctx c, const bulk_part& p, bulk_sums& out) {
  if (p.data.size() <= 16) {
    bulk_leaf(p, out.sums);
    return;
  }
  bulk_part left, right;
  bulk_split(p, left, right);
  bulk_sums a, b;
  tascell::dowork(c, [&](tascell::ctx c) { bulk_run(c, left, a); },
                  tascell::part(tascell::in(right), tascell::out(b),
                                [](tascell::ctx c, const bulk_part& right, bulk_sums& b) { bulk_run(c, right, b); }));
  out.sums = std::move(a.sums);
  out.sums.insert(out.sums.end(), b.sums.begin(), b.sums.end());
}

void bulk_serial(const bulk_part& p, std::vector<long>& out) {
  if (p.data.size() <= 16) {
    bulk_leaf(p, out);
    return;
  }
  bulk_part left, right;
  bulk_split(p, left, right);
  bulk_serial(left, out);
  bulk_serial(right, out);
}

// --- unsendable: a part's input whose serialize() throws. On one process
// its pieces never travel and the program is right; on several, the first
// piece bound for another process cannot be packed, and the run ends with a
// message naming the @dowork and the cause (failures.py unsendable) ---
struct unsendable {
  int depth = 0;
  template <class A>
  void serialize(A&) {
    throw std::runtime_error("an unsendable input cannot travel");
  }
};

long unsend_tree(tascell::ctx c, int depth) {
  if (depth == 0) return 1;
  long a = 0, b = 0;
  tascell::dowork(c, [&](tascell::ctx c) { a = unsend_tree(c, depth - 1); },
                  tascell::part(tascell::in(unsendable{depth - 1}), tascell::out(b),
                                [](tascell::ctx c, const unsendable& u, long& b) { b = unsend_tree(c, u.depth); }));
  return a + b;
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

// --- views and pointers to functions captured by pieces (views.hpp,
// function_address.hpp): what a view shows and which function a pointer
// names travel, never the addresses (which mean nothing in another process,
// and point nowhere there: the data lives in rank 0's root call only) ---
std::uint64_t mix(std::uint64_t x, int rounds) {
  for (int k = 0; k < rounds; ++k) x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ULL + 0x9e3779b97f4a7c15ULL;
  return x;
}

long span_work(tascell::ctx c, std::span<const long> s) {
  if (s.size() <= 256) {
    long r = 0;
    for (long v : s) r += static_cast<long>(mix(static_cast<std::uint64_t>(v), 48) % 1000);
    return r;
  }
  std::size_t half = s.size() / 2;
  std::span<const long> right = s.subspan(half);
  long a = 0, b = 0;
  tascell::dowork(c, [&](tascell::ctx c) { a = span_work(c, s.first(half)); },
                  tascell::part(tascell::in(right), tascell::out(b),
                                [](tascell::ctx c, const std::span<const long>& r, long& b) { b = span_work(c, r); }));
  return a + b;
}

std::vector<long> span_data(int run) {
  std::vector<long> v(static_cast<std::size_t>(100000 + 977 * run));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<long>(i * 7 + static_cast<std::size_t>(run));
  return v;
}

long span_root(tascell::ctx c, int run) {
  std::vector<long> v = span_data(run);  // rank 0's only
  return span_work(c, std::span<const long>(v));
}

constexpr std::int64_t text_block = 256;

std::string text_data(int run) {
  std::string t(static_cast<std::size_t>(120000 + 1013 * run), ' ');
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = static_cast<char>('a' + mix(i + static_cast<std::size_t>(run), 2) % 26);
  return t;
}

long text_block_score(std::string_view t, std::int64_t b) {
  long r = 0;
  auto lo = static_cast<std::size_t>(b * text_block);
  auto hi = std::min(t.size(), lo + static_cast<std::size_t>(text_block));
  for (std::size_t i = lo; i < hi; ++i)
    if (t[i] == 'q') r += static_cast<long>(mix(i, 2000) % 7) + 1;
  return r;
}

long string_view_root(tascell::ctx c, int run) {
  std::string text = text_data(run);  // rank 0's only
  std::string_view t(text);
  auto blocks = static_cast<std::int64_t>((t.size() + text_block - 1) / text_block);
  long score = 0;
  tascell::dowork_for(c, tascell::range(0, blocks), tascell::in(t), tascell::reduce<tascell::op::plus>(score),
                      [](tascell::ctx, std::int64_t b, const std::string_view& t, long& score) {
                        score += text_block_score(t, b);
                      });
  return score;
}

using long_fn = long (*)(long);
long fp_first(long x) { return static_cast<long>(mix(static_cast<std::uint64_t>(x), 300) % 1000); }
long fp_second(long x) { return static_cast<long>(mix(static_cast<std::uint64_t>(x) * 3 + 1, 300) % 999); }
long fp_third(long x) { return static_cast<long>(mix(static_cast<std::uint64_t>(x) ^ 0x5555, 300) % 998); }
const long_fn fp_table[3] = {&fp_first, &fp_second, &fp_third};

// A loop over the function chosen in rank 0 and labs from libc.
long fp_loop(tascell::ctx c, int run) {
  long_fn f = fp_table[run % 3];
  long_fn g = &::labs;
  long sum = 0;
  tascell::dowork_for(c, tascell::range(0, 60000), tascell::in(f), tascell::in(g),
                      tascell::reduce<tascell::op::plus>(sum),
                      [](tascell::ctx, std::int64_t i, const long_fn& f, const long_fn& g, long& sum) {
                        sum += f(i) + g(-i % 5);
                      });
  return sum;
}

long fp_loop_serial(int run) {
  long sum = 0;
  for (long i = 0; i < 60000; ++i) sum += fp_table[run % 3](i) + std::labs(-i % 5);
  return sum;
}

// A function chosen by a recursion whose pieces return theirs through out().
long_fn fp_choose(tascell::ctx c, int depth, long key) {
  if (depth == 0) return fp_table[mix(static_cast<std::uint64_t>(key), 20000) % 3];
  long_fn a = nullptr, b = nullptr;
  tascell::dowork(c, [&](tascell::ctx c) { a = fp_choose(c, depth - 1, 2 * key); },
                  tascell::part(tascell::in(depth), tascell::in(key), tascell::out(b),
                                [](tascell::ctx c, const int& depth, const long& key, long_fn& b) {
                                  b = fp_choose(c, depth - 1, 2 * key + 1);
                                }));
  return mix(static_cast<std::uint64_t>(key), 1) & 1 ? a : b;
}

long_fn fp_choose_serial(int depth, long key) {
  if (depth == 0) return fp_table[mix(static_cast<std::uint64_t>(key), 20000) % 3];
  long_fn a = fp_choose_serial(depth - 1, 2 * key), b = fp_choose_serial(depth - 1, 2 * key + 1);
  return mix(static_cast<std::uint64_t>(key), 1) & 1 ? a : b;
}

// --- cancel() in one process stops the pieces running in the others: a
// loop of long iterations (each sleeps 1 ms between checks, up to rc_full
// times) spread over every process; in run `run` the first iteration that
// starts in rank (run + 1) % processes() waits until every process has
// started one, then calls cancel(). Every other iteration that started must
// then be stopped long before its end. An iteration checks with a poll, or,
// in the runs where rc_by_cancelled(run), with cancelled() alone (and once it
// is true, the poll right after it must stop the iteration); each canceller
// rank has runs of both kinds. What each process's iterations did comes back
// through a plus reduction, per rank. ---
constexpr int rc_ranks = 4;        // processes counted (remote_cancel needs 2 to 4)
constexpr long rc_full = 10000;    // an iteration's units when nothing stops it (> 10 s)
constexpr long rc_iterations = 64;

struct rc_tally {
  std::array<long, rc_ranks> started{}, natural{}, stopped_units{}, unwound{}, saw{}, returned{};
  long cancels = 0, canceller_rank = -1, canceller_waited_out = 0, canceller_saw = 0;
  rc_tally() = default;
  explicit rc_tally(int) {}  // op::plus's identity
  friend rc_tally operator+(const rc_tally& a, const rc_tally& b) {
    rc_tally s;
    for (std::size_t r = 0; r < rc_ranks; ++r) {
      s.started[r] = a.started[r] + b.started[r];
      s.natural[r] = a.natural[r] + b.natural[r];
      s.stopped_units[r] = a.stopped_units[r] + b.stopped_units[r];
      s.unwound[r] = a.unwound[r] + b.unwound[r];
      s.saw[r] = a.saw[r] + b.saw[r];
      s.returned[r] = a.returned[r] + b.returned[r];
    }
    s.cancels = a.cancels + b.cancels;
    s.canceller_rank = std::max(a.canceller_rank, b.canceller_rank);
    s.canceller_waited_out = a.canceller_waited_out + b.canceller_waited_out;
    s.canceller_saw = a.canceller_saw + b.canceller_saw;
    return s;
  }
};

// rc_started[r] >> 32 >= run + 1: an iteration of run `run` runs in rank r.
// Each iteration says so at its start and every 16 units after, with a
// value greater each time (the low bits count): an improvement that reaches
// a process before it has entered the root call is dropped there
// (root_protocol.cpp, on_incumbent), so one announcement is not enough.
// Never reset: an improvement of the next run cannot be lost to a reset.
tascell::incumbent<tascell::op::max, long> rc_started[rc_ranks] = {0, 0, 0, 0};
std::atomic<long> rc_beats{0};
void rc_announce(int rank, int run) {
  tascell::improve(rc_started[rank], (static_cast<long>(run + 1) << 32) + (++rc_beats & 0xffffffffL));
}
std::atomic<bool> rc_cancel_taken{false};  // this process's canceller has been chosen
// rc_ended >= run + 1: an iteration of run `run` ran to its end somewhere
// (so stops do not work): the others end at once, to fail in seconds.
tascell::incumbent<tascell::op::max, long> rc_ended{0};

// Counts an iteration unwound by a stop (the destructor runs on the way out).
struct rc_unwind_note {
  long& unwound;
  bool armed = true;
  ~rc_unwind_note() {
    if (armed) ++unwound;
  }
};

void rc_sleep_unit() { std::this_thread::sleep_for(std::chrono::milliseconds(1)); }
bool rc_by_cancelled(int run) { return run / tascell::processes() % 2 == 1; }

rc_tally remote_cancel_root(tascell::ctx c, int run) {
  rc_tally tally;
  tascell::dowork_for(
      c, tascell::range(0, rc_iterations), tascell::in(run), tascell::reduce<tascell::op::plus>(tally),
      [](tascell::ctx c, std::int64_t, const int& run, rc_tally& t) {
        const int rank = tascell::rank();
        const auto r = static_cast<std::size_t>(rank);
        ++t.started[r];
        rc_announce(rank, run);
        if (rank == (run + 1) % tascell::processes() && !rc_cancel_taken.exchange(true)) {
          // The canceller: waits until every process runs an iteration.
          auto all_started = [&] {
            for (int k = 0; k < tascell::processes(); ++k)
              if ((rc_started[k].get() >> 32) < run + 1) return false;
            return true;
          };
          long units = 0;
          for (; !all_started() && units < rc_full; ++units) {
            tascell::poll(c);
            rc_sleep_unit();
            if (units % 16 == 15) rc_announce(rank, run);
          }
          if (units == rc_full) ++t.canceller_waited_out;
          tascell::cancel(c);
          ++t.cancels;
          t.canceller_rank = rank;
          if (tascell::cancelled(c)) ++t.canceller_saw;
          return;
        }
        rc_unwind_note note{t.unwound[r]};
        const bool by_cancelled = rc_by_cancelled(run);
        long units = 0;
        for (; units < rc_full && rc_ended.get() < run + 1; ++units) {
          if (!by_cancelled) {
            tascell::poll(c);
          } else if (tascell::cancelled(c)) {  // (it serves requests as a poll does)
            ++t.saw[r];
            tascell::poll(c);  // stopped: this poll unwinds
            ++t.returned[r];
            note.armed = false;
            return;
          }
          rc_sleep_unit();
          ++t.stopped_units[r];
          if (units % 16 == 15) rc_announce(rank, run);
        }
        // Ran to its end: its stop never came.
        tascell::improve(rc_ended, static_cast<long>(run) + 1);
        t.stopped_units[r] -= units;
        ++t.natural[r];
        note.armed = false;
      });
  return tally;
}

std::string rc_list(const std::array<long, rc_ranks>& v, int n) {
  std::string s = "[";
  for (int r = 0; r < n; ++r) {
    if (r) s += ' ';
    s += std::to_string(v[static_cast<std::size_t>(r)]);
  }
  s += ']';
  return s;
}

}  // namespace

TASCELL_EXCEPTION(solution_found);

namespace {

int failures = 0;
bool verbose_counts = false;  // --counts: remote_cancel prints its counts of every run

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
    } else if (name == "unsendable") {
      long got = tascell::root(unsend_tree, 18);
      check(got == 1L << 18, "unsendable", i, std::to_string(got));
    } else if (name == "bulky") {
      bulk_part all;
      all.wide = i % 3 == 0;
      for (long k = 0; k < (1L << 16) + 37 * i; ++k) all.data.push_back((k * 2654435761L + i) % 100000);
      bulk_sums got = tascell::root([&](tascell::ctx c) {
        bulk_sums s;
        bulk_run(c, all, s);
        return s;
      });
      std::vector<long> want;
      bulk_serial(all, want);
      check(got.sums == want, "bulky", i, "sums differ");
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
    } else if (name == "span") {
      long got = tascell::root(span_root, i);
      std::vector<long> v = span_data(i);
      long want = 0;
      for (long x : v) want += static_cast<long>(mix(static_cast<std::uint64_t>(x), 48) % 1000);
      check(got == want, "span", i, std::to_string(got) + " against " + std::to_string(want));
    } else if (name == "string_view") {
      long got = tascell::root(string_view_root, i);
      std::string text = text_data(i);
      long want = 0;
      for (std::int64_t b = 0; b * text_block < static_cast<std::int64_t>(text.size()); ++b)
        want += text_block_score(text, b);
      check(got == want, "string_view", i, std::to_string(got) + " against " + std::to_string(want));
    } else if (name == "function_pointer") {
      long got = tascell::root(fp_loop, i);
      long want = fp_loop_serial(i);
      check(got == want, "function_pointer", i, std::to_string(got) + " against " + std::to_string(want));
      // The root call's result reaches every process as that process's
      // pointer to the same function.
      long key = 17 + i;
      long_fn chosen = tascell::root(fp_choose, 10, key);
      long_fn expected = fp_choose_serial(10, key);
      check(chosen == expected, "function_pointer", i, "out() or the root call returned another function");
      if (chosen == expected) check(chosen(12345) == expected(12345), "function_pointer", i, "a call differs");
    } else if (name == "remote_cancel") {
      const int np = tascell::processes();
      if (np < 2 || np > rc_ranks) {
        check(false, "remote_cancel", i, "needs 2 to " + std::to_string(rc_ranks) + " processes");
        continue;
      }
      const int canceller = (i + 1) % np;
      rc_cancel_taken.store(false);
      rc_tally t = tascell::root(remote_cancel_root, i);
      auto at = [&](const std::array<long, rc_ranks>& v, int r) { return v[static_cast<std::size_t>(r)]; };
      std::string counts = "canceller rank " + std::to_string(t.canceller_rank) + ", started " +
                           rc_list(t.started, np) + ", ran to their end " + rc_list(t.natural, np) +
                           ", unwound " + rc_list(t.unwound, np) + ", saw cancelled() " + rc_list(t.saw, np) +
                           ", units of the stopped ones " + rc_list(t.stopped_units, np);
      check(t.cancels == 1 && t.canceller_rank == canceller, "remote_cancel", i,
            std::to_string(t.cancels) + " cancels, not one in rank " + std::to_string(canceller) + ": " + counts);
      check(t.canceller_waited_out == 0, "remote_cancel", i, "some process never started an iteration: " + counts);
      check(t.canceller_saw == t.cancels, "remote_cancel", i, "cancelled() false right after cancel(): " + counts);
      // Every iteration but the canceller's was stopped (none ran to its end)
      // at a poll; with cancelled(), every one saw it true and then stopped at
      // the poll after it. Counted per process.
      const bool by_cancelled = rc_by_cancelled(i);
      counts += by_cancelled ? " (checking cancelled())" : " (polling)";
      long started = 0, natural = 0, returned = 0, stopped = 0, units = 0;
      auto stopped_in = [&](int r) {
        return at(t.started, r) - at(t.natural, r) - (r == t.canceller_rank ? t.cancels : 0);
      };
      bool exact = true, elsewhere = false, third = false;
      for (int r = 0; r < np; ++r) {
        started += at(t.started, r);
        natural += at(t.natural, r);
        returned += at(t.returned, r);
        stopped += stopped_in(r);
        units += at(t.stopped_units, r);
        exact = exact && at(t.unwound, r) == stopped_in(r) && at(t.saw, r) == (by_cancelled ? stopped_in(r) : 0);
        // The stop crossed processes: iterations stopped in a process other
        // than the canceller's; with 3 processes and the canceller not in
        // rank 0 (cancel() goes up to rank 0, the stop comes down), also in
        // one that is neither.
        if (r != canceller) {
          elsewhere = elsewhere || stopped_in(r) > 0;
          if (r != 0) third = third || stopped_in(r) > 0;
        }
      }
      check(natural == 0, "remote_cancel", i,
            std::to_string(natural) + " iterations ran to their end, never stopped: " + counts);
      check(returned == 0, "remote_cancel", i,
            std::to_string(returned) + " iterations went on past a poll after cancelled() was true: " + counts);
      check(exact, "remote_cancel", i,
            std::string("the stopped iterations were not all unwound at a poll") +
                (by_cancelled ? " after seeing cancelled(): " : ": ") + counts);
      check(started < rc_iterations, "remote_cancel", i, "no iteration was dropped: " + counts);
      // The stopped ones did far less than their full work.
      check(stopped > 0 && units < stopped * (rc_full / 2), "remote_cancel", i,
            std::to_string(stopped) + " stopped iterations did " + std::to_string(units) + " units of " +
                std::to_string(rc_full) + " each: " + counts);
      check(elsewhere, "remote_cancel", i, "no iteration stopped outside the canceller's process: " + counts);
      if (np >= 3 && canceller != 0)
        check(third, "remote_cancel", i, "no iteration stopped outside rank 0 and the canceller's: " + counts);
      if (tascell::is_root() && verbose_counts) std::printf("remote_cancel run %d: %s\n", i, counts.c_str());
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
      // Counted from the runtime's start: its message thread has caught
      // SIGUSR1 by then (raised earlier, the signal ended the process).
      (void)tascell::rank();
      std::thread([ms] {
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
        raise(SIGUSR1);
      }).detach();
    } else if (std::strcmp(argv[i], "--counts") == 0) {
      verbose_counts = true;
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
    names = {"fib",          "nqueens",   "minloop", "knapsack", "cancel",      "throw",
             "unregistered", "usertypes", "board",   "span",     "string_view", "function_pointer"};
  for (auto& n : names) run(n, repeat);
  return failures ? 1 : 0;
}
