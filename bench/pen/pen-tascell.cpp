// Pen(n) on the Tascell++ runtime API: one board and one set of used pieces,
// undone by winds, copied only when work is given away (as n-queens does).
// As the translator lowers
//   @task long pen(char* board, char* used, int k, int pos) {
//     if (k == npieces) return 1;
//     while (board[pos]) ++pos;
//     long s = 0;
//     @dowork reduction(+: s) copy(board[0:size], used[0:npieces])
//     for (int i = 0; i < npieces; ++i) {
//       if (used[i]) continue;
//       for (int o = 0; o < count(i); ++o)
//         if (fits(board, pos, off(i, o)))
//           @wind(place(board, pos, off(i, o), 'A' + i), used[i] = 1;
//                 place(board, pos, off(i, o), 0), used[i] = 0)
//           { s += pen(board, used, k + 1, pos + 1); }
//     }
//     return s;
//   }
// No cutoff. Workers: TASCELL_WORKERS.
#include <tascell/tascell.hpp>

#include "common/report.hpp"
#include "pen/pen-config.hpp"

using pen_config::npieces;

// The solutions with k pieces placed, every cell before pos filled.
static long pen(tascell::ctx c, char* board, char* used, int k, int pos) {
  if (k == npieces) return 1;
  while (board[pos]) ++pos;
  long s = 0;
  tascell::dowork_for(
      c, tascell::range(0, npieces), tascell::in(k), tascell::in(pos),
      tascell::copy(board, 0, pen_config::the_table.size), tascell::copy(used, 0, npieces),
      tascell::reduce<tascell::op::plus>(s),
      [](tascell::ctx c, std::int64_t i64, const int& k, const int& pos, char* board, char* used, long& s) {
        int i = static_cast<int>(i64);
        if (used[i]) return;
        const pen_config::piece& p = pen_config::the_table.pieces[i];
        for (int o = 0; o < p.count; ++o) {
          const int* off = p.orient[o].off;
          if (!pen_config::fits(board, pos, off)) continue;
          // The closures copy what they use (32 bytes): the wind keeps them by value.
          tascell::wind(
              c,
              [board, used, off, i, pos] {
                pen_config::place(board, pos, off, static_cast<char>('A' + i));
                used[i] = 1;
              },
              [board, used, off, i, pos] {
                pen_config::place(board, pos, off, 0);
                used[i] = 0;
              },
              [&](tascell::ctx c) { s += pen(c, board, used, k + 1, pos + 1); });
        }
      });
  return s;
}

int main(int argc, char** argv) {
  auto args = bench::parse_args(argc, argv, pen_config::default_n, pen_config::min_n, pen_config::max_n);
  pen_config::require_board(args.prog, args.n);
  pen_config::the_table = pen_config::make_table(args.n);
  return bench::run(args, pen_config::known_answer(args.n), [](long) {
    auto board = pen_config::make_board(pen_config::the_table);
    char used[npieces] = {};
    return tascell::root(pen, board.data(), used, 0, 0);
  });
}
