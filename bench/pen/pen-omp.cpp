// Pen(n) with OpenMP tasks, no cutoff: one task per unused piece. As OpenMP
// users write it (cf. nqueens-omp): the board and the used set are shared
// read-only with the child tasks (they stay alive until the taskwait); each
// task copies them into its own, and places and takes back the orientations
// of its piece there; per-task counts go into a local array summed after the
// taskwait.
#include <omp.h>

#include <array>

#include "common/report.hpp"
#include "pen/pen-config.hpp"

using pen_config::npieces;
using Board = std::array<char, pen_config::max_cells>;
using Used = std::array<char, npieces>;

// The solutions with k pieces placed, every cell before pos filled.
static long pen(const Board& board, const Used& used, int k, int pos) {
  if (k == npieces) return 1;
  while (board[static_cast<std::size_t>(pos)]) ++pos;
  long counts[npieces] = {};
  for (int i = 0; i < npieces; ++i) {
    if (used[static_cast<std::size_t>(i)]) continue;
#pragma omp task firstprivate(i) shared(board, used, counts)
    {
      Board b = board;  // this task's own copies
      Used u = used;
      u[static_cast<std::size_t>(i)] = 1;
      const pen_config::piece& p = pen_config::the_table.pieces[i];
      for (int o = 0; o < p.count; ++o) {
        const int* off = p.orient[o].off;
        if (!pen_config::fits(b.data(), pos, off)) continue;
        pen_config::place(b.data(), pos, off, static_cast<char>('A' + i));
        counts[i] += pen(b, u, k + 1, pos + 1);
        pen_config::place(b.data(), pos, off, 0);
      }
    }
  }
#pragma omp taskwait
  long s = 0;
  for (long x : counts) s += x;
  return s;
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, pen_config::default_n, pen_config::min_n, pen_config::max_n);
  pen_config::require_board(args.prog, args.n);
  pen_config::the_table = pen_config::make_table(args.n);
  omp_set_num_threads(bench::workers());
  return bench::run(args, pen_config::known_answer(args.n), [](long) {
    long result = 0;
    Board board = pen_config::make_board(pen_config::the_table);
    Used used{};
#pragma omp parallel
#pragma omp single
    result = pen(board, used, 0, 0);
    return result;
  });
}
