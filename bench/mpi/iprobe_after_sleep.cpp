// What Open MPI's MPI_Iprobe reports for a message that arrived while the
// prober slept (why network::receive_all probes until two empty answers).
// Run under mpirun with 2 processes: rank 1 sends a small message, rank 0
// sleeps 2 ms (the message has arrived by then), probes once and, if that
// said nothing, once more. Prints how many of the messages each probe saw.
// usage: iprobe_after_sleep [messages]   (default 20)
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) std::fprintf(stderr, "iprobe_after_sleep: run it with mpirun -np 2\n");
    MPI_Finalize();
    return 2;
  }
  int n = argc > 1 ? std::atoi(argv[1]) : 20;
  int first = 0, second = 0;
  char buf[40] = {};
  for (int i = 0; i < n; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
      MPI_Send(buf, sizeof buf, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
      continue;
    }
    usleep(2000);
    int flag = 0;
    MPI_Iprobe(1, 7, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    first += flag;
    if (!flag) {
      MPI_Iprobe(1, 7, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      second += flag;
    }
    MPI_Recv(buf, sizeof buf, MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (rank == 0)
    std::printf("of %d messages that had arrived: the first MPI_Iprobe saw %d, the second %d more\n", n,
                first, second);
  MPI_Finalize();
  return 0;
}
