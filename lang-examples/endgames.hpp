// Endgames: the chess logic of retrograde analysis for pawnless endgames of a
// white king and one white piece against the black king and at most one
// black piece (KQK, KRK, KQKR, KRKN, ...), with a sequential solver in two
// independent forms:
//   - push (seed 001, chapter 2): every black-to-move position keeps a
//     counter of its moves not yet known to lose; a position that becomes
//     lost marks its white predecessors as won, a position that becomes won
//     counts down the counters of its black predecessors. Each phase is one
//     loop over one table whose iterations read only their own entry and
//     send commutative updates (small structs) to other entries: the loops a
//     parallel version distributes;
//   - pull: a minimax fixpoint without counters (as retro.tcpp's), to check
//     the push solver.
// Plain C++20, no Tascell constructs.
//
// Squares are 0..63: a1 = 0, b1 = 1, ..., h8 = 63. A position is the squares
// of its pieces as base-64 digits, most significant first: white king,
// white piece, black king, then the black piece if there is one. No symmetry
// is used: 64^3 or 64^4 positions, one table with White to move (wtm) and one
// with Black to move (btm), indexed alike; illegal positions keep their slot.
//
// Distances are moves to mate (DTM) counted in White's moves, as retro.tcpp
// counts them: a white-to-move position is won in n when White mates with
// his n-th move under best play (n = 1: mate at once); a black-to-move
// position is lost in n when White mates with his n-th move from it (n = 0:
// Black is checkmated). A capture of the black piece leads into the
// endgame without it, whose solved table gives the rest: a capture into a
// position lost in d is a win in d + 1. Giving every lost position of that
// table the distance 0 instead measures the depth to conversion (DTC: moves
// to mate or to a capture into a lost position).
// Only White's wins are computed: "not won" is a draw or, once Black has a
// piece, possibly a win for Black; it makes no difference to White's wins.
//
// What a parallel solver calls (tests/endgames/solve_endgames.cpp runs them
// sequentially; the sub-endgame, e.g. KQK for KQKR, is solved first):
//   endgame g{piece::queen, piece::rook};       g.size(), g.legal_wtm(p), ...
//   wtm[p] = setup_wtm(g, p, sub_loss);          loop over the wtm table
//   btm[q] = setup_btm(g, q);                    loop over the btm table
//   for k = 0, 1, ...:
//     push_loss(g, q, btm[q], k, send);          loop over btm: send(p, win_in)
//     push_win(g, p, wtm[p], k + 1, send);       loop over wtm: send(q, losing_move)
//   until no push_win returned true and k + 1 >= the longest setup win.
// Every move generator calls its callbacks with a position; a callback
// returns void, or bool to stop the generation by returning true.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace endgames {

using position = std::uint32_t;  // a position: 18 or 24 bits
using bitboard = std::uint64_t;  // one bit a square

enum class piece : std::uint8_t { none, queen, rook, bishop, knight };

namespace detail {

constexpr int file(int s) { return s & 7; }
constexpr int rank(int s) { return s >> 3; }
constexpr bitboard bit(int s) { return bitboard{1} << s; }

// The 8 directions (file step, rank step): orthogonal first (the rook's),
// then diagonal (the bishop's); the queen has all 8.
constexpr int dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// What the move generators and attack tests look up, computed at compile time.
struct geometry {
  bitboard king[64];          // the squares next to s
  bitboard knight[64];        // the knight's jumps from s
  bitboard between[64][64];   // the squares strictly between a and b when on one line, else 0
  std::uint8_t line[64][64];  // 1: a and b on one rank or file, 2: on one diagonal, 0: neither
  std::int8_t ray[64][8][8];  // from s in direction d, nearest first; -1 past the edge
};

consteval geometry make_geometry() {
  geometry g{};
  constexpr int jumps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  for (int s = 0; s < 64; ++s) {
    for (int j = 0; j < 8; ++j) {
      int f = file(s) + jumps[j][0], r = rank(s) + jumps[j][1];
      if (f >= 0 && f < 8 && r >= 0 && r < 8) g.knight[s] |= bit(r * 8 + f);
    }
    for (int d = 0; d < 8; ++d) {
      int f = file(s), r = rank(s), i = 0;
      bitboard passed = 0;
      for (f += dirs[d][0], r += dirs[d][1]; f >= 0 && f < 8 && r >= 0 && r < 8; f += dirs[d][0], r += dirs[d][1]) {
        int t = r * 8 + f;
        if (i == 0) g.king[s] |= bit(t);
        g.ray[s][d][i++] = static_cast<std::int8_t>(t);
        g.between[s][t] = passed;
        g.line[s][t] = d < 4 ? 1 : 2;
        passed |= bit(t);
      }
      for (; i < 8; ++i) g.ray[s][d][i] = -1;
    }
  }
  return g;
}
inline constexpr geometry geo = make_geometry();

// Does a `kind` piece on `from` attack square `to`, the squares of `occ`
// blocking its lines? (piece::none attacks nothing; `from` is then unused.)
constexpr bool attacks(piece kind, int from, int to, bitboard occ) {
  switch (kind) {
    case piece::none: return false;
    case piece::knight: return (geo.knight[from] >> to & 1) != 0;
    case piece::queen: return geo.line[from][to] != 0 && (geo.between[from][to] & occ) == 0;
    case piece::rook: return geo.line[from][to] == 1 && (geo.between[from][to] & occ) == 0;
    case piece::bishop: return geo.line[from][to] == 2 && (geo.between[from][to] & occ) == 0;
  }
  return false;
}

// Calls f(x): a callback of the generators below returns void, or bool to
// stop the generation by returning true. Returns whether to stop.
template <class F, class X> constexpr bool stops(F& f, X x) {
  if constexpr (std::is_void_v<std::invoke_result_t<F&, X>>) {
    f(x);
    return false;
  } else {
    return static_cast<bool>(f(x));
  }
}

// Calls f(t) for every square t that a `kind` piece on `from` reaches, each
// line stopping at its first square of `occ` (reported too: the caller tells
// a capture from a blocked square); stops when f returns true.
template <class F> constexpr void reach(piece kind, int from, bitboard occ, F&& f) {
  if (kind == piece::knight) {
    for (bitboard m = geo.knight[from]; m != 0; m &= m - 1)
      if (f(std::countr_zero(m))) return;
    return;
  }
  const int first = kind == piece::bishop ? 4 : 0, last = kind == piece::rook ? 4 : 8;
  for (int d = first; d < last; ++d)
    for (int i = 0; i < 8; ++i) {
      const int t = geo.ray[from][d][i];
      if (t < 0) break;
      if (f(t)) return;
      if (occ >> t & 1) break;
    }
}

constexpr char letter(piece x) {
  switch (x) {
    case piece::queen: return 'Q';
    case piece::rook: return 'R';
    case piece::bishop: return 'B';
    case piece::knight: return 'N';
    case piece::none: break;
  }
  return '?';
}

} // namespace detail

// The squares of one position; bx is -1 when Black has no piece.
struct board {
  int wk, wx, bk, bx;
};

// One endgame: White's piece beside his king (never none) and Black's (or
// none). Its positions, legality, moves and un-moves.
struct endgame {
  piece white = piece::queen;
  piece black = piece::none;

  constexpr int men() const { return black == piece::none ? 3 : 4; }
  constexpr position size() const { return position{1} << (6 * men()); }

  std::string name() const {
    std::string s = {'K', detail::letter(white), 'K'};
    if (black != piece::none) s += detail::letter(black);
    return s;
  }
  // "KQK", "KRKN", ...: the endgame, or nothing for a name of another shape.
  static std::optional<endgame> parse(std::string_view s) {
    auto kind = [](char c) -> std::optional<piece> {
      switch (c) {
        case 'Q': return piece::queen;
        case 'R': return piece::rook;
        case 'B': return piece::bishop;
        case 'N': return piece::knight;
      }
      return std::nullopt;
    };
    if ((s.size() != 3 && s.size() != 4) || s[0] != 'K' || s[2] != 'K') return std::nullopt;
    auto w = kind(s[1]);
    auto b = s.size() == 4 ? kind(s[3]) : std::optional<piece>(piece::none);
    if (!w || !b) return std::nullopt;
    return endgame{*w, *b};
  }

  // The endgame that White's capture of the black piece leads to; its
  // positions are what white_moves reports for captures.
  constexpr endgame after_white_capture() const { return {white, piece::none}; }

  constexpr board decode(position p) const {
    const int x = static_cast<int>(p);
    if (black == piece::none) return {x >> 12, x >> 6 & 63, x & 63, -1};
    return {x >> 18, x >> 12 & 63, x >> 6 & 63, x & 63};
  }
  constexpr position encode(const board& b) const {
    const auto digit = [](int s) { return static_cast<position>(s); };
    const position p = (digit(b.wk) * 64 + digit(b.wx)) * 64 + digit(b.bk);
    return black == piece::none ? p : p * 64 + digit(b.bx);
  }
  constexpr bitboard occupancy(const board& b) const {
    return detail::bit(b.wk) | detail::bit(b.wx) | detail::bit(b.bk) | (b.bx >= 0 ? detail::bit(b.bx) : 0);
  }

  // Legal: every piece on its own square, the kings apart, and the side not
  // to move not in check. (bx == -1 differs from every square.)
  constexpr bool placed(const board& b) const {
    return b.wk != b.bk && b.wx != b.wk && b.wx != b.bk && b.bx != b.wk && b.bx != b.wx && b.bx != b.bk &&
           !(detail::geo.king[b.wk] >> b.bk & 1);
  }
  constexpr bool legal_wtm(const board& b) const {
    return placed(b) && !detail::attacks(white, b.wx, b.bk, occupancy(b));
  }
  constexpr bool legal_btm(const board& b) const {
    return placed(b) && !detail::attacks(black, b.bx, b.wk, occupancy(b));
  }
  constexpr bool legal_wtm(position p) const { return legal_wtm(decode(p)); }
  constexpr bool legal_btm(position q) const { return legal_btm(decode(q)); }
  // Black to move in check (q legal): a checkmate when Black has no move.
  constexpr bool black_in_check(position q) const {
    const board b = decode(q);
    return detail::attacks(white, b.wx, b.bk, occupancy(b));
  }

  // White's moves from the legal white-to-move position p: to(q) for each
  // move that captures nothing, q the black-to-move position reached in this
  // endgame; capture(s) for each capture of the black piece, s the
  // black-to-move position reached in after_white_capture().
  template <class To, class Capture> constexpr void white_moves(position p, To&& to, Capture&& capture) const {
    using namespace detail;
    const board b = decode(p);
    const bitboard occ = occupancy(b);
    const endgame sub = after_white_capture();
    // The king: not onto its piece, not next to the black king (which also
    // keeps it off a black piece that king defends), not into the black
    // piece's attack once its own square is empty.
    for (bitboard m = geo.king[b.wk] & ~bit(b.wx) & ~bit(b.bk) & ~geo.king[b.bk]; m != 0; m &= m - 1) {
      const int t = std::countr_zero(m);
      if (t == b.bx ? stops(capture, sub.encode({t, b.wx, b.bk, -1}))
                    : !attacks(black, b.bx, t, occ & ~bit(b.wk)) && stops(to, encode({t, b.wx, b.bk, b.bx})))
        return;
    }
    // The piece: onto the black piece, or to an empty square unless the
    // black piece then attacks the white king: it does when it could on an
    // empty board and no piece stands on its path once the move is made.
    const bool line = attacks(black, b.bx, b.wk, 0);
    const bitboard path = line ? geo.between[b.bx][b.wk] : 0, rest = occ & ~bit(b.wx);
    reach(white, b.wx, occ, [&](int t) {
      if (t == b.bx) return stops(capture, sub.encode({b.wk, t, b.bk, -1}));
      const bool check = line && (path & (rest | bit(t))) == 0;
      return !(occ >> t & 1) && !check && stops(to, encode({b.wk, t, b.bk, b.bx}));
    });
  }

  // Black's moves from the legal black-to-move position q: to(p) for each
  // move that captures nothing, p the white-to-move position reached;
  // capture(s) for each capture of the white piece, s the white-to-move
  // position left (squares of the white king, the black king and the black
  // piece, as base-64 digits in that order): never a white win, White having
  // his bare king.
  template <class To, class Capture> constexpr void black_moves(position q, To&& to, Capture&& capture) const {
    using namespace detail;
    const board b = decode(q);
    const bitboard occ = occupancy(b);
    auto left = [](int wk, int bk, int bx) {
      const position s = static_cast<position>(wk) * 64 + static_cast<position>(bk);
      return bx >= 0 ? s * 64 + static_cast<position>(bx) : s;
    };
    const bitboard own = b.bx >= 0 ? bit(b.bx) : 0;
    for (bitboard m = geo.king[b.bk] & ~own & ~bit(b.wk) & ~geo.king[b.wk]; m != 0; m &= m - 1) {
      const int t = std::countr_zero(m);
      if (t == b.wx ? stops(capture, left(b.wk, t, b.bx))
                    : !attacks(white, b.wx, t, occ & ~bit(b.bk)) && stops(to, encode({b.wk, b.wx, t, b.bx})))
        return;
    }
    if (b.bx < 0) return;
    // The piece, as White's (the white piece's attack on the black king).
    const bool line = attacks(white, b.wx, b.bk, 0);
    const bitboard path = line ? geo.between[b.wx][b.bk] : 0, rest = occ & ~bit(b.bx);
    reach(black, b.bx, occ, [&](int t) {
      if (t == b.wx) return stops(capture, left(b.wk, b.bk, t));
      const bool check = line && (path & (rest | bit(t))) == 0;
      return !(occ >> t & 1) && !check && stops(to, encode({b.wk, b.wx, b.bk, t}));
    });
  }

  // White's un-moves into the legal black-to-move position q: f(p) for every
  // legal white-to-move position p with a move p -> q that captures nothing.
  // The inverse of white_moves' to(): a piece that came to its square came
  // from a square it reaches from there on the same board (lines are
  // symmetric), that square empty; the move was legal since q is; p must be.
  template <class F> constexpr void white_unmoves(position q, F&& f) const {
    using namespace detail;
    const board b = decode(q);
    const bitboard occ = occupancy(b);
    for (bitboard m = geo.king[b.wk] & ~occ; m != 0; m &= m - 1) {
      board a = b;
      a.wk = std::countr_zero(m);
      if (legal_wtm(a) && stops(f, encode(a))) return;
    }
    reach(white, b.wx, occ, [&](int s) {
      board a = b;
      a.wx = s;
      return !(occ >> s & 1) && legal_wtm(a) && stops(f, encode(a));
    });
  }

  // Black's un-moves into the legal white-to-move position p: f(q) for every
  // legal black-to-move position q with a move q -> p that captures nothing.
  template <class F> constexpr void black_unmoves(position p, F&& f) const {
    using namespace detail;
    const board b = decode(p);
    const bitboard occ = occupancy(b);
    for (bitboard m = geo.king[b.bk] & ~occ; m != 0; m &= m - 1) {
      board a = b;
      a.bk = std::countr_zero(m);
      if (legal_btm(a) && stops(f, encode(a))) return;
    }
    if (b.bx < 0) return;
    reach(black, b.bx, occ, [&](int s) {
      board a = b;
      a.bx = s;
      return !(occ >> s & 1) && legal_btm(a) && stops(f, encode(a));
    });
  }
};

// ---------------------------------------------------------------------------
// The push solver's tables and updates.

constexpr std::int8_t illegal = -2, unknown = -1;
constexpr std::uint8_t never = 255;  // the counter of a stalemate: never lost
constexpr int max_distance = 126;    // the longest distance kept: d + 1 still fits an int8

// White to move: won in `win` moves, unknown (not won so far), or illegal.
struct wtm_entry {
  std::int8_t win;
};
// Black to move. While left > 0: `left` moves are not yet known to lose and
// `loss` is the longest win among those that are (0 if none). left == 0: lost
// in `loss` moves (0: checkmated). Illegal: loss == illegal. A stalemate has
// left == never: no update ever reaches it (it has no moves).
struct btm_entry {
  std::int8_t loss;
  std::uint8_t left;
};

// Sent to a white-to-move position with a move into a position lost in d - 1:
// a win in d; the shortest counts (min, so updates commute).
struct win_in {
  std::int8_t d;
  constexpr void operator()(wtm_entry& e) const {
    if (e.win == unknown || (e.win > 0 && d < e.win)) e.win = d;
  }
};
// Sent to a black-to-move position with a move into a position won in d: one
// move fewer not known to lose; the longest win counts (max).
struct losing_move {
  std::int8_t d;
  constexpr void operator()(btm_entry& e) const {
    --e.left;
    if (d > e.loss) e.loss = d;
  }
};

static_assert(std::is_trivially_copyable_v<win_in> && std::is_trivially_copyable_v<losing_move>,
              "updates travel between processes as bytes");

// The final values, coded as the pull solver's: a distance, unknown (not
// won / not lost) or illegal.
constexpr std::int8_t win_of(wtm_entry e) { return e.win; }
constexpr std::int8_t loss_of(btm_entry e) {
  return e.loss == illegal ? illegal : e.left == 0 ? e.loss : unknown;
}

// A sub-endgame lookup for endgames without white captures (3 pieces).
inline constexpr auto no_sub = [](position) { return -1; };

// --- The phases, one call per position: each reads only its own entry (and
// the read-only table of the sub-endgame, small enough to replicate) and
// sends updates to other positions through send(position, update).
//
// Why the distances come out exact (what a parallel version must keep):
//  - the updates of one phase commute (min; decrement and max), so they may
//    be applied in any order and in batches, but all of a phase's updates
//    must be applied before the next phase reads the table they went to;
//  - a win only shrinks (min) and the first phase of iteration k sends only
//    k + 1, so when the second phase of iteration k sees win == k + 1 the
//    win is final: each won position sends its losing moves exactly once;
//  - un-moves are exactly the inverse of the moves without capture, so each
//    move of a black position into a win is counted down exactly once; its
//    counter reaches 0 in the iteration of its slowest win, k + 1, which is
//    then its loss (the max), and the next iteration's first phase finds it.

// Setup, White to move: legality, and the best win by a capture, from the
// sub-endgame's loss distance (sub_loss(s): d >= 0 lost in d, else not lost).
template <class SubLoss> constexpr wtm_entry setup_wtm(const endgame& g, position p, SubLoss&& sub_loss) {
  if (!g.legal_wtm(p)) return {illegal};
  int best = unknown;
  g.white_moves(p, [](position) {}, [&](position s) {
    const int d = sub_loss(s);
    if (d >= 0 && (best == unknown || d + 1 < best)) best = d + 1;
  });
  return {static_cast<std::int8_t>(best)};
}

// Setup, Black to move: legality, the counter (every move; a capture of the
// white piece never loses, so is never counted down), checkmate (lost in 0),
// stalemate (never lost).
constexpr btm_entry setup_btm(const endgame& g, position q) {
  if (!g.legal_btm(q)) return {illegal, 0};
  int moves = 0;
  g.black_moves(q, [&](position) { ++moves; }, [&](position) { ++moves; });
  if (moves > 0) return {0, static_cast<std::uint8_t>(moves)};
  return g.black_in_check(q) ? btm_entry{0, 0} : btm_entry{0, never};
}

// Iteration k, first phase (over the btm table): a position lost in k sends a
// win in k + 1 to each white predecessor. Returns whether it was one.
template <class Send> constexpr bool push_loss(const endgame& g, position q, btm_entry e, int k, Send&& send) {
  if (e.left != 0 || e.loss != k) return false;
  const win_in u{static_cast<std::int8_t>(k + 1)};
  g.white_unmoves(q, [&](position p) { send(p, u); });
  return true;
}

// Iteration k, second phase (over the wtm table): a position won in n = k + 1
// (through the first phase or a capture) sends a losing move to each black
// predecessor; those whose counter reaches 0 are lost in n. Returns whether it
// was one.
template <class Send> constexpr bool push_win(const endgame& g, position p, wtm_entry e, int n, Send&& send) {
  if (e.win != n) return false;
  const losing_move u{static_cast<std::int8_t>(n)};
  g.black_unmoves(p, [&](position q) { send(q, u); });
  return true;
}

[[noreturn]] inline void too_deep(const endgame& g) {
  std::fprintf(stderr, "endgames: %s has a win longer than %d moves\n", g.name().c_str(), max_distance);
  std::abort();
}

// The whole push analysis, sequentially: setup, then iterations k = 0, 1, ...
// of the two phases until no position is won in k + 1 and no capture wins in
// more (then no position is lost in k + 1 either: nothing further can be
// won). Returns the longest win.
template <class SubLoss>
int solve_push(const endgame& g, std::span<wtm_entry> wtm, std::span<btm_entry> btm, SubLoss&& sub_loss) {
  const position n = g.size();
  int horizon = 0;  // the longest win by a capture
  for (position p = 0; p < n; ++p) {
    wtm[p] = setup_wtm(g, p, sub_loss);
    horizon = std::max<int>(horizon, wtm[p].win);
  }
  for (position q = 0; q < n; ++q) btm[q] = setup_btm(g, q);
  int longest = 0;
  for (int k = 0;; ++k) {
    if (k + 1 > max_distance) too_deep(g);
    for (position q = 0; q < n; ++q) push_loss(g, q, btm[q], k, [&](position p, win_in u) { u(wtm[p]); });
    long won = 0;
    for (position p = 0; p < n; ++p)
      won += push_win(g, p, wtm[p], k + 1, [&](position q, losing_move u) { u(btm[q]); });
    if (won > 0) longest = k + 1;
    else if (k + 1 >= horizon) break;
  }
  return longest;
}

// ---------------------------------------------------------------------------
// The pull solver: rounds n = 1, 2, ...; White wins in n if a move reaches a
// position lost in n - 1 (a capture: the sub-endgame's); Black loses in n if
// every move reaches a known win, the slowest a win in n (a capture never
// loses). Tables coded as win_of/loss_of. Returns the longest win.
template <class SubLoss>
int solve_pull(const endgame& g, std::span<std::int8_t> win, std::span<std::int8_t> loss, SubLoss&& sub_loss) {
  const position size = g.size();
  for (position p = 0; p < size; ++p) win[p] = g.legal_wtm(p) ? unknown : illegal;
  for (position q = 0; q < size; ++q) {
    loss[q] = illegal;
    if (!g.legal_btm(q)) continue;
    int moves = 0;
    g.black_moves(q, [&](position) { ++moves; }, [&](position) { ++moves; });
    loss[q] = moves == 0 && g.black_in_check(q) ? 0 : unknown;
  }
  int horizon = 0;  // the longest win by a capture
  for (position p = 0; p < size; ++p)
    if (win[p] == unknown)
      g.white_moves(p, [](position) {}, [&](position s) { horizon = std::max(horizon, sub_loss(s) + 1); });
  int longest = 0;
  for (int n = 1;; ++n) {
    if (n > max_distance) too_deep(g);
    bool changed = false;
    for (position p = 0; p < size; ++p) {
      if (win[p] != unknown) continue;
      bool found = false;  // generation stops at the first move found
      g.white_moves(p, [&](position q) { return found = loss[q] == n - 1; },
                    [&](position s) { return found = sub_loss(s) == n - 1; });
      if (found) win[p] = static_cast<std::int8_t>(n), changed = true, longest = n;
    }
    for (position q = 0; q < size; ++q) {
      if (loss[q] != unknown) continue;
      bool lost = true;  // generation stops at the first move not known to lose
      int moves = 0, worst = 0;
      g.black_moves(q, [&](position p) {
        ++moves;
        worst = std::max<int>(worst, win[p]);
        return !(lost = win[p] > 0);
      }, [&](position) { return !(lost = false); });
      if (lost && moves > 0) loss[q] = static_cast<std::int8_t>(worst), changed = true;
    }
    if (!changed && n >= horizon) break;
  }
  return longest;
}

} // namespace endgames
