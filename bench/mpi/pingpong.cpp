// An MPI ping-pong between two processes: the network's own round trip,
// measured beside the steal round trip (mpi_bench.py --only delays). Rank 0
// sends `bytes` to rank 1, which sends them back; each round trip is timed
// on rank 0's clock. Both ranks wait in MPI_Recv (Open MPI polls there), the
// fastest a message can be answered.
// usage: mpi-pingpong [round trips (200)] [bytes (64)]   under mpirun -np 2
// Prints on rank 0: "pingpong_ns T1 T2 ..." after 20 round trips of warm-up.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) std::fprintf(stderr, "mpi-pingpong: run it with mpirun -np 2\n");
    MPI_Finalize();
    return 2;
  }
  const int trips = argc > 1 ? std::atoi(argv[1]) : 200;
  const int bytes = argc > 2 ? std::atoi(argv[2]) : 64;
  std::vector<char> buf(static_cast<std::size_t>(bytes > 0 ? bytes : 1));
  std::vector<long long> ns;
  const int warm = 20;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < warm + trips; ++i) {
    if (rank == 0) {
      auto t0 = std::chrono::steady_clock::now();
      MPI_Send(buf.data(), bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(buf.data(), bytes, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      auto t1 = std::chrono::steady_clock::now();
      if (i >= warm) ns.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    } else {
      MPI_Recv(buf.data(), bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf.data(), bytes, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    }
  }
  if (rank == 0) {
    std::printf("pingpong_ns");
    for (long long x : ns) std::printf(" %lld", x);
    std::printf("\n");
  }
  MPI_Finalize();
  return 0;
}
