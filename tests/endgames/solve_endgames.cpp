// solve_endgames: solves pawnless chess endgames (lang-examples/endgames.hpp)
// sequentially by the push solver and by the pull fixpoint, checks that they
// agree entry by entry and that the longest win is the published one, and
// prints per endgame the longest win and the counts of each table.
//   solve_endgames [--metric dtm|dtc] [--no-pull] [--check-unmoves] [ENDGAME...]
// ENDGAME: KQK, KRK, KQKR (the default: these three), KNKR, or any KxK / KxKy with
// x, y in Q R B N. A 4-piece endgame first solves its 3-piece sub-endgame.
// --metric dtc: depth to conversion (mate, or a capture into a lost position)
// instead of depth to mate; the same for 3 pieces.
// --check-unmoves: also checks, exhaustively, that the un-moves are exactly
// the inverse of the forward moves that capture nothing.
// Exits 1 when a check fails, 2 on a bad argument.
#include "endgames.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace endgames;

// The published longest wins (White to move, in moves), which the results
// must reproduce.
//  - KQK 10, KRK 16 (depth to mate): K. Thompson, letter to I. Kashdan (Unix
//    archive, dmr tapes, let/kash): "the maximum moves to win with R+K vs K
//    is 16", the KQK position "that takes 10 moves to win ... is unique";
//    also P. Karrer's statistics, kirill-kryukov.com/chess/discussion-board
//    viewtopic.php?t=920 ("kqk (wtm) win in 10", "krk (wtm) win in 16").
//    For 3 pieces, conversion is mate: DTC = DTM.
//  - KQKR 35 (depth to mate): the KQKR table of the Mace engine, built over
//    all 2 * 2^24 positions without symmetry, as here:
//    http://macechess.blogspot.com/2010/10/chess-endgame-table-base-kqkr.html
//    ("it requires at least 35 moves").
//  - KQKR 31 (depth to conversion: mate or the capture of the rook): "the
//    queen can win the rook or checkmate within 31 moves", Wikipedia, Queen
//    versus rook endgame, citing Müller and Lamprecht, Secrets of Pawnless
//    Endings (2001), p. 400 (Thompson's 1978 table, by which Belle defended
//    against Browne).
//  - KNKR 1: the knight wins in 5 positions up to symmetry, 4 with White to
//    play (mate in 1) and 1 mated: chess.stackexchange.com/questions/32638;
//    none is symmetric, so 32 and 8 positions here.
// And the counts of white-to-move wins of lang-examples/retro.tcpp (its
// README line), an independent program over the same 64^3 tables.
struct figure {
  const char* endgame;
  const char* metric;
  int longest;
  long wtm_wins, btm_lost;  // -1: not known
};
constexpr figure published[] = {
    {"KQK", "DTM", 10, 144508, -1}, {"KQK", "DTC", 10, 144508, -1}, {"KRK", "DTM", 16, 175168, -1},
    {"KRK", "DTC", 16, 175168, -1}, {"KQKR", "DTM", 35, -1, -1},    {"KQKR", "DTC", 31, -1, -1},
    {"KNKR", "DTM", 1, 32, 8},      {"KNKR", "DTC", 1, 32, 8},
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// One side's un-moves against its forward moves: for every position t,
// the sources of the forward moves without capture into t (every legal
// position's moves, gathered per target) must be, as a multiset, exactly
// the un-moves of t: each forward move p -> t has p among unmoves(t), and
// each un-move of t is a forward move into t, once. Every position reached
// either way must be legal. Returns the number of moves, or -1 on a failure.
template <class LegalFrom, class Forward, class LegalTo, class Backward>
long check_inverse(const endgame& g, const char* side, LegalFrom legal_from, Forward forward, LegalTo legal_to,
                   Backward backward) {
  const position n = g.size();
  bool ok = true;
  auto bad = [&](const char* what, position x) {
    if (ok) std::printf("%s: %s %s position %u\n", g.name().c_str(), side, what, x);
    ok = false;
  };
  // The forward moves grouped by target: those into t are
  // from[start[t]] .. from[start[t + 1] - 1].
  std::vector<std::uint32_t> start(std::size_t{n} + 1);
  for (position p = 0; p < n; ++p)
    if (legal_from(p)) forward(p, [&](position t) { ++start[t + 1]; });
  for (position t = 0; t < n; ++t) start[t + 1] += start[t];
  std::vector<position> from(start[n]);
  std::vector<std::uint32_t> next(start.begin(), start.end() - 1);
  for (position p = 0; p < n; ++p)
    if (legal_from(p)) forward(p, [&](position t) { from[next[t]++] = p; });
  next = {};
  position back[128];  // a position's un-moves: at most 8 + 27 + 8 + 27
  for (position t = 0; t < n && ok; ++t) {
    const auto first = from.begin() + start[t], last = from.begin() + start[t + 1];
    if (!legal_to(t)) {
      if (first != last) bad("move into the illegal", t);
      continue;
    }
    int k = 0;
    backward(t, [&](position p) {
      if (!legal_from(p)) bad("un-move from the illegal", p);
      back[k++ & 127] = p;
    });
    std::sort(first, last);
    std::sort(back, back + std::min(k, 128));
    if (k > 128 || !std::equal(first, last, back, back + k)) bad("un-moves differ from the moves into", t);
  }
  return ok ? static_cast<long>(start[n]) : -1;
}

// Both sides' un-moves against their forward moves, over every position.
bool check_unmoves(const endgame& g) {
  const auto none = [](position) {};
  const long white = check_inverse(
      g, "white", [&](position p) { return g.legal_wtm(p); },
      [&](position p, auto f) { g.white_moves(p, f, none); }, [&](position q) { return g.legal_btm(q); },
      [&](position q, auto f) { g.white_unmoves(q, f); });
  const long black = check_inverse(
      g, "black", [&](position q) { return g.legal_btm(q); },
      [&](position q, auto f) { g.black_moves(q, f, none); }, [&](position p) { return g.legal_wtm(p); },
      [&](position p, auto f) { g.black_unmoves(p, f); });
  const bool ok = white >= 0 && black >= 0;
  std::printf("%s: un-moves %s the forward moves (%ld white, %ld black moves without capture)\n",
              g.name().c_str(), ok ? "invert" : "DO NOT invert", white, black);
  return ok;
}

struct solved {
  std::vector<std::int8_t> win, loss;  // coded as win_of / loss_of
  int longest;
};

class solver {
public:
  solver(bool dtc, bool pull) : dtc_(dtc), pull_(pull) {}

  // Solves g (after its sub-endgame), prints and checks; false on a failed check.
  bool run(const endgame& g) {
    if (g.black != piece::none && !solutions_.contains(g.after_white_capture().name())) {
      // The sub-endgame by depth to mate: its losses, in full or as 0 (DTC),
      // are what a capture leads to.
      solver sub(false, pull_);
      if (!sub.run(g.after_white_capture())) return false;
      solutions_.merge(sub.solutions_);
    }
    const std::vector<std::int8_t>* sub_loss = nullptr;
    if (g.black != piece::none) sub_loss = &solutions_.at(g.after_white_capture().name()).loss;
    auto lookup = [&](position s) -> int {
      const int d = (*sub_loss)[s];
      return d >= 0 && dtc_ ? 0 : d;
    };
    const position n = g.size();
    std::vector<wtm_entry> wtm(n);
    std::vector<btm_entry> btm(n);
    auto t0 = std::chrono::steady_clock::now();
    const int longest = sub_loss ? solve_push(g, std::span(wtm), std::span(btm), lookup)
                                 : solve_push(g, std::span(wtm), std::span(btm), no_sub);
    const double push_time = seconds_since(t0);
    solved s{std::vector<std::int8_t>(n), std::vector<std::int8_t>(n), longest};
    for (position p = 0; p < n; ++p) s.win[p] = win_of(wtm[p]), s.loss[p] = loss_of(btm[p]);
    wtm = {}, btm = {};

    bool ok = true;
    std::string pulled = "not run";
    if (pull_) {
      std::vector<std::int8_t> win(n), loss(n);
      t0 = std::chrono::steady_clock::now();
      const int pull_longest = sub_loss ? solve_pull(g, std::span(win), std::span(loss), lookup)
                                        : solve_pull(g, std::span(win), std::span(loss), no_sub);
      char text[64];
      std::snprintf(text, sizeof text, "%.2f s, ", seconds_since(t0));
      pulled = text;
      long differ = 0;
      for (position p = 0; p < n; ++p) differ += (win[p] != s.win[p]) + (loss[p] != s.loss[p]);
      if (differ == 0 && pull_longest == longest) {
        pulled += "agrees";
      } else {
        pulled += "DISAGREES (" + std::to_string(differ) + " entries)";
        ok = false;
      }
    }

    long wins = 0, not_won = 0, lost = 0, not_lost = 0, longest_loss = 0;
    for (position p = 0; p < n; ++p) {
      wins += s.win[p] > 0, not_won += s.win[p] == unknown;
      lost += s.loss[p] >= 0, not_lost += s.loss[p] == unknown;
      longest_loss = std::max<long>(longest_loss, s.loss[p]);
    }
    const char* metric = dtc_ ? "DTC" : "DTM";
    std::printf("%s (%s): longest win %d moves (White to move), longest loss %ld (Black to move); "
                "White to move: %ld won, %ld not won; Black to move: %ld lost, %ld not lost; "
                "push %.2f s, pull %s\n",
                g.name().c_str(), metric, longest, longest_loss, wins, not_won, lost, not_lost, push_time,
                pulled.c_str());
    for (const figure& f : published) {
      if (g.name() != f.endgame || std::strcmp(metric, f.metric) != 0) continue;
      const bool match = f.longest == longest && (f.wtm_wins < 0 || f.wtm_wins == wins) &&
                         (f.btm_lost < 0 || f.btm_lost == lost);
      std::string counts;
      if (f.wtm_wins >= 0) counts += ", " + std::to_string(f.wtm_wins) + " won";
      if (f.btm_lost >= 0) counts += ", " + std::to_string(f.btm_lost) + " lost";
      std::printf("%s (%s): published longest win %d%s: %s\n", f.endgame, f.metric, f.longest, counts.c_str(),
                  match ? "reproduced" : "NOT REPRODUCED");
      ok = ok && match;
    }
    solutions_.emplace(g.name(), std::move(s));
    return ok;
  }

private:
  bool dtc_, pull_;
  std::map<std::string, solved> solutions_;  // by name, under DTM (the sub-endgames) or metric
};

int usage() {
  std::fprintf(stderr, "usage: solve_endgames [--metric dtm|dtc] [--no-pull] [--check-unmoves] [ENDGAME...]\n");
  return 2;
}

} // namespace

int main(int argc, char** argv) {
  bool dtc = false, pull = true, unmoves = false;
  std::vector<endgame> games;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--metric" && a + 1 < argc) {
      const std::string m = argv[++a];
      if (m != "dtm" && m != "dtc") return usage();
      dtc = m == "dtc";
    } else if (arg == "--no-pull") {
      pull = false;
    } else if (arg == "--check-unmoves") {
      unmoves = true;
    } else if (auto g = endgame::parse(arg)) {
      games.push_back(*g);
    } else {
      return usage();
    }
  }
  if (games.empty())
    for (const char* name : {"KQK", "KRK", "KQKR"}) games.push_back(*endgame::parse(name));

  bool ok = true;
  const auto t0 = std::chrono::steady_clock::now();
  if (unmoves)
    for (const endgame& g : games) ok = check_unmoves(g) && ok;
  solver s(dtc, pull);
  for (const endgame& g : games) ok = s.run(g) && ok;
  std::printf("solve_endgames: %s, %.2f s\n", ok ? "all checks pass" : "A CHECK FAILED", seconds_since(t0));
  return ok ? 0 : 1;
}
