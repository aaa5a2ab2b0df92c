// Pen(n), sequential baseline: backtracking with one board and one set of
// used pieces, placed and taken back in place. The tascell variant with the
// markers erased; no cutoff.
#include "common/report.hpp"
#include "pen/pen-config.hpp"

using pen_config::npieces;

// The solutions with k pieces placed, every cell before pos filled.
static long pen(char* board, char* used, int k, int pos) {
  if (k == npieces) return 1;
  while (board[pos]) ++pos;
  long s = 0;
  for (int i = 0; i < npieces; ++i) {
    if (used[i]) continue;
    const pen_config::piece& p = pen_config::the_table.pieces[i];
    for (int o = 0; o < p.count; ++o) {
      const int* off = p.orient[o].off;
      if (!pen_config::fits(board, pos, off)) continue;
      pen_config::place(board, pos, off, static_cast<char>('A' + i));
      used[i] = 1;
      s += pen(board, used, k + 1, pos + 1);
      pen_config::place(board, pos, off, 0);
      used[i] = 0;
    }
  }
  return s;
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, pen_config::default_n, pen_config::min_n, pen_config::max_n);
  pen_config::require_board(args.prog, args.n);
  pen_config::the_table = pen_config::make_table(args.n);
  // Sequential: TASCELL_WORKERS is ignored.
  return bench::run(args, pen_config::known_answer(args.n), [](long) {
    auto board = pen_config::make_board(pen_config::the_table);
    char used[npieces] = {};
    return pen(board.data(), used, 0, 0);
  });
}
