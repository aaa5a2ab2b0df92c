// Shared timing / printing / checking helper for the benchmark variants.
//
// Independent of any parallel library: used by the sequential, OpenMP, oneTBB
// and Tascell variants alike, so every variant parses its command line, reads
// the worker count, times and reports in exactly the same way.
//
//   <prog> N [reps]            worker count from env TASCELL_WORKERS
//
// For every repetition exactly one line goes to stdout:
//   result=<answer> seconds=<wall time of the computation only, %.6f>
// A wrong answer (when the answer for N is known, or when the program's own
// check after the run fails: run_checked) prints a message to stderr and makes
// the program exit with status 1. Bad arguments: status 2.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <thread>

namespace bench {

struct Args {
  long n;
  int reps;
  const char* prog;
};

// Parses `N [reps]`. Exits with status 2 (and a usage line) on bad input or
// when N is outside [min_n, max_n].
inline Args parse_args(int argc, char** argv, long default_n, long min_n, long max_n) {
  Args a{default_n, 1, argv[0]};
  auto usage = [&](const char* why) {
    std::fprintf(stderr, "%s: %s\nusage: %s N [reps]   (N in [%ld, %ld], default %ld; "
                 "workers from env TASCELL_WORKERS)\n",
                 argv[0], why, argv[0], min_n, max_n, default_n);
    std::exit(2);
  };
  if (argc > 3) usage("too many arguments");
  char* end = nullptr;
  if (argc >= 2) {
    a.n = std::strtol(argv[1], &end, 10);
    if (*argv[1] == '\0' || *end != '\0') usage("N is not an integer");
  }
  if (argc >= 3) {
    long r = std::strtol(argv[2], &end, 10);
    if (*argv[2] == '\0' || *end != '\0' || r < 1 || r > 1000000) usage("reps must be a positive integer");
    a.reps = static_cast<int>(r);
  }
  if (a.n < min_n || a.n > max_n) usage("N out of range");
  return a;
}

// Worker count: env TASCELL_WORKERS if it is a positive integer, otherwise the
// number of hardware threads (at least 1). Sequential variants ignore it.
inline int workers() {
  if (const char* s = std::getenv("TASCELL_WORKERS")) {
    char* end = nullptr;
    long w = std::strtol(s, &end, 10);
    if (*s != '\0' && *end == '\0' && w >= 1 && w <= 4096) return static_cast<int>(w);
    std::fprintf(stderr, "warning: ignoring invalid TASCELL_WORKERS=%s\n", s);
  }
  unsigned h = std::thread::hardware_concurrency();
  return h == 0 ? 1 : static_cast<int>(h);
}

// As run() (below), with two untimed steps around every timed call:
//   prepare(n)          before it (e.g. refill an input the computation overwrites);
//   check(n, result)    after it, once the result line is printed: returns false
//                       (after printing why to stderr) if the answer is wrong.
// A wrong answer, by `expected` or by `check`, makes the exit status 1.
template <class Prepare, class Compute, class Check>
int run_checked(const Args& args, std::optional<long> expected, Prepare&& prepare, Compute&& compute,
                Check&& check) {
  using clock = std::chrono::steady_clock;
  int status = 0;
  for (int r = 0; r < args.reps; ++r) {
    long n = args.n;
    prepare(n);
    auto t0 = clock::now();
    // Hide n from the optimizer so a pure sequential computation is neither
    // hoisted out of the timed region nor shared between repetitions.
    asm volatile("" : "+r"(n) : : "memory");
    long result = compute(n);
    asm volatile("" : : "r"(result) : "memory");
    auto t1 = clock::now();
    double s = std::chrono::duration<double>(t1 - t0).count();
    std::printf("result=%ld seconds=%.6f\n", result, s);
    std::fflush(stdout);
    if (expected && result != *expected) {
      std::fprintf(stderr, "%s: WRONG ANSWER for N=%ld: got %ld, expected %ld\n",
                   args.prog, args.n, result, *expected);
      status = 1;
    }
    if (!check(args.n, result)) {
      std::fprintf(stderr, "%s: WRONG ANSWER for N=%ld (check failed)\n", args.prog, args.n);
      status = 1;
    }
  }
  return status;
}

// Runs `compute(n)` args.reps times. Times only the call itself (steady_clock),
// prints one line per run, and checks the answer against `expected` if known.
// Returns the process exit status: 0 if all runs were right, 1 otherwise.
template <class Compute>
int run(const Args& args, std::optional<long> expected, Compute&& compute) {
  return run_checked(args, expected, [](long) {}, compute, [](long, long) { return true; });
}

}  // namespace bench
