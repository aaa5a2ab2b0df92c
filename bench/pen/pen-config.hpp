// Problem parameters for Pen(n): all solutions of the pentomino puzzle, the
// 12 pentominoes on a rectangle of 60 cells, counting every rotation and
// reflection of the board. Shared by every variant (seq, omp, tbb, tascell).
// Keep this header free of any parallel library.
//
// N = 12 is Pen(12), the 6x10 board (2339 distinct solutions, 9356 in all).
// N = 3, 4, 5 are the same 12 pieces on the 3x20, 4x15 and 5x12 boards, for
// quicker checks (2, 368, 1010 distinct; 8, 1472, 4040 in all).
//
// The board is filled column by column along its short side: cell (x, y),
// 0 <= x < w, 0 <= y < h, is board[x * (h + 1) + y]; the cell y = h of every
// column and the columns from x = w on are walls, so that a piece placed off
// the board always covers a wall. The search fills the first empty cell
// (in this order) with every orientation of every unused piece whose first
// cell (in this order) it is.
#pragma once

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>
#include <vector>

namespace pen_config {

inline constexpr long default_n = 12;
inline constexpr long min_n = 3;
inline constexpr long max_n = 12;

inline constexpr int npieces = 12;
inline constexpr int max_cells = 112;  // the largest board array (6x10: 15 * 7 = 105)

// One way to place a piece: the offsets of its other 4 cells from its first.
struct orientation {
  int off[4];
};
struct piece {
  int count = 0;
  orientation orient[8];
};
struct table {
  int h = 0, w = 0, stride = 0, size = 0;
  piece pieces[npieces];
};

// The pieces F I L N P T U V W X Y Z as cells (x, y).
inline constexpr int shapes[npieces][5][2] = {
    {{1, 0}, {2, 0}, {0, 1}, {1, 1}, {1, 2}},  // F
    {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}},  // I
    {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 3}},  // L
    {{0, 0}, {0, 1}, {1, 1}, {1, 2}, {1, 3}},  // N
    {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}},  // P
    {{0, 0}, {1, 0}, {2, 0}, {1, 1}, {1, 2}},  // T
    {{0, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}},  // U
    {{0, 0}, {0, 1}, {0, 2}, {1, 2}, {2, 2}},  // V
    {{0, 0}, {0, 1}, {1, 1}, {1, 2}, {2, 2}},  // W
    {{1, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 2}},  // X
    {{1, 0}, {0, 1}, {1, 1}, {1, 2}, {1, 3}},  // Y
    {{0, 0}, {1, 0}, {1, 1}, {1, 2}, {2, 2}},  // Z
};

// The board of N: {h, w}, or {0, 0} if N has none.
inline std::pair<int, int> board_of(long n) {
  switch (n) {
    case 3: return {3, 20};
    case 4: return {4, 15};
    case 5: return {5, 12};
    case 12: return {6, 10};
    default: return {0, 0};
  }
}

// Exits with status 2 unless N has a board (bench::parse_args checked the range).
inline void require_board(const char* prog, long n) {
  if (board_of(n).first != 0) return;
  std::fprintf(stderr, "%s: N=%ld: expected 12 (the 6x10 board) or 3, 4, 5 (3x20, 4x15, 5x12)\n", prog, n);
  std::exit(2);
}

// Every distinct orientation of every piece, as offsets on the board of N.
inline table make_table(long n) {
  table t;
  auto [h, w] = board_of(n);
  t.h = h;
  t.w = w;
  t.stride = h + 1;
  t.size = (w + 5) * t.stride;
  for (int p = 0; p < npieces; ++p) {
    std::vector<std::array<std::pair<int, int>, 5>> seen;
    for (int tr = 0; tr < 8; ++tr) {
      std::array<std::pair<int, int>, 5> c;
      for (int k = 0; k < 5; ++k) {
        int x = shapes[p][k][0], y = shapes[p][k][1];
        if (tr & 1) x = -x;
        if (tr & 2) y = -y;
        if (tr & 4) std::swap(x, y);
        c[static_cast<std::size_t>(k)] = {x, y};
      }
      std::sort(c.begin(), c.end());  // by x, then y: the board's order
      auto first = c[0];
      for (auto& e : c) e = {e.first - first.first, e.second - first.second};
      if (std::find(seen.begin(), seen.end(), c) != seen.end()) continue;
      seen.push_back(c);
      orientation& o = t.pieces[p].orient[t.pieces[p].count++];
      for (int k = 0; k < 4; ++k)
        o.off[k] = c[static_cast<std::size_t>(k + 1)].first * t.stride + c[static_cast<std::size_t>(k + 1)].second;
    }
  }
  return t;
}

// The table of this run (set once by main, before any search).
inline table the_table;

inline constexpr char wall = '#';

// The empty board of the table: 0 on the board, walls elsewhere.
inline std::array<char, max_cells> make_board(const table& t) {
  std::array<char, max_cells> b;
  b.fill(wall);
  for (int x = 0; x < t.w; ++x)
    for (int y = 0; y < t.h; ++y) b[static_cast<std::size_t>(x * t.stride + y)] = 0;
  return b;
}

// Does the orientation fit with its first cell on the empty cell pos?
inline bool fits(const char* board, int pos, const int* off) {
  return (board[pos + off[0]] | board[pos + off[1]] | board[pos + off[2]] | board[pos + off[3]]) == 0;
}
// Writes v into the orientation's cells (v = 0 takes the piece away).
inline void place(char* board, int pos, const int* off, char v) {
  board[pos] = board[pos + off[0]] = board[pos + off[1]] = board[pos + off[2]] = board[pos + off[3]] = v;
}

struct KnownAnswer {
  long n;
  long answer;
};

// Known answers, checked by the programs (and read by bench/run_matrix.py).
inline constexpr KnownAnswer known_answers[] = {
    {3, 8},
    {4, 1472},
    {5, 4040},
    {12, 9356},
};

inline constexpr std::optional<long> known_answer(long n) {
  for (const auto& k : known_answers)
    if (k.n == n) return k.answer;
  return std::nullopt;
}

}  // namespace pen_config
