// Steal round trip between processes: run under mpirun with 2 processes x 1
// worker. Process 0 runs fib(n) root calls; every time process 1 runs out of
// work its message thread asks process 0, and the runtime records, on the
// thief's clock, the time from the request leaving to a worker taking the
// piece (run_stats::remote_steal_ns). Every process prints its samples:
//   steal_ns <rank> <sample> <sample> ...
// usage: steal_latency [n] [root calls]   (default fib(27), 200 calls)
#include <cstdio>
#include <cstdlib>
#include <string>

#include <tascell/tascell.hpp>

#include "programs/fib.hpp"

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 27;
  int calls = argc > 2 ? std::atoi(argv[2]) : 200;
  tascell::root(programs::fib, n);  // start-up (MPI, workers) outside the samples
  // (Appended piece by piece: GCC 12 at -O3 warns falsely, -Wrestrict, on
  // "literal" + std::string.)
  std::string line = "steal_ns ";
  line += std::to_string(tascell::rank());
  long wrong = 0;
  for (int i = 0; i < calls; ++i) {
    if (tascell::root(programs::fib, n) != programs::fib_serial(n)) ++wrong;
    for (auto ns : tascell::last_stats().remote_steal_ns) {
      line += ' ';
      line += std::to_string(ns);
    }
  }
  std::printf("%s\n", line.c_str());
  if (wrong) std::fprintf(stderr, "rank %d: %ld wrong answers\n", tascell::rank(), wrong);
  return wrong ? 1 : 0;
}
