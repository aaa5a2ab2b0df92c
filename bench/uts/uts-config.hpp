// Problem parameters for UTS, the Unbalanced Tree Search benchmark (Olivier,
// Prins et al., "UTS: An Unbalanced Tree Search Benchmark", LCPC 2006),
// written from the published description: shared by every variant (seq,
// omp, tbb, tascell). Keep this header free of any parallel library.
//
// A node's state is a 20-byte SHA-1 digest. The root's is SHA-1 of 16 zero
// bytes and the 4-byte big-endian seed r; child i's is SHA-1 of its parent's
// state and the 4-byte big-endian i. A node's random value is the last 4
// bytes of its state, big-endian, masked to 31 bits; its probability is that
// value / 2^31. The number of children:
//   BIN (t 0): the root has floor(b) children; any other node m with
//     probability q, else none.
//   GEO (t 1): geometric with mean b_i, m = floor(log(1 - u) / log(1 - p)),
//     p = 1 / (1 + b_i), u the node's probability; b_i from the shape a:
//     LINEAR (0) b (1 - depth / d), EXPDEC (1) b depth^(-log b / log d),
//     CYCLIC (2) b^sin(2 pi depth / d) (0 below depth 5d), FIXED (3) b below
//     depth d and 0 from d on; the root (depth 0) has b_i = b.
//   At most 100 children (a BIN root: at most ceil(b)).
//
// Command line: <prog> TREE [reps], TREE one of the trees below by name (T1)
// or number (1). The printed answer is the number of nodes; the programs also
// check the depth and the number of leaves.
#pragma once

#define OPENSSL_SUPPRESS_DEPRECATED  // SHA1_Init & co.: the fast interface (SHA1() goes through EVP)
#include <openssl/sha.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "common/report.hpp"

namespace uts_config {

enum tree_type { BIN = 0, GEO = 1 };
enum geo_shape { LINEAR = 0, EXPDEC = 1, CYCLIC = 2, FIXED = 3 };

struct tree {
  long id;           // the number on the command line (and N in run_matrix.py)
  const char* name;  // the name on the command line
  const char* params;
  tree_type type;
  double b;      // -b: branching factor (root's for BIN)
  int shape;     // -a: GEO shape
  int gen_mx;    // -d: GEO depth parameter
  double q;      // -q: BIN: probability of a non-leaf
  int m;         // -m: BIN: children of a non-leaf
  int seed;      // -r
};

// The trees: T1, T3, T5 of the UTS sample trees, and small ones (for quick
// checks; their answers were computed with uts-seq, checked on T1, T3, T5).
inline constexpr tree trees[] = {
    {1, "T1", "-t 1 -a 3 -d 10 -b 4 -r 19", GEO, 4, FIXED, 10, 0, 0, 19},
    {3, "T3", "-t 0 -b 2000 -q 0.124875 -m 8 -r 42", BIN, 2000, 0, 0, 0.124875, 8, 42},
    {5, "T5", "-t 1 -a 0 -d 20 -b 4 -r 34", GEO, 4, LINEAR, 20, 0, 0, 34},
    {11, "T1S", "-t 1 -a 3 -d 8 -b 4 -r 19", GEO, 4, FIXED, 8, 0, 0, 19},
    {13, "T3S", "-t 0 -b 2000 -q 0.124 -m 8 -r 42", BIN, 2000, 0, 0, 0.124, 8, 42},
    {15, "T5S", "-t 1 -a 0 -d 15 -b 4 -r 34", GEO, 4, LINEAR, 15, 0, 0, 34},
};

inline constexpr long default_n = 1;  // T1

struct KnownAnswer {
  long n;  // the tree's id
  long answer;  // nodes
  long depth;
  long leaves;
};

// Known answers, checked by the programs (and read by bench/run_matrix.py:
// the first two numbers, id and nodes).
inline constexpr KnownAnswer known_answers[] = {
    {1, 4130071, 10, 3305118},
    {3, 4112897, 1572, 3599034},
    {5, 4147582, 20, 2181318},
    {11, 257042, 8, 205878},
    {13, 540929, 333, 473562},
    {15, 151680, 15, 81195},
};

inline constexpr std::optional<long> known_answer(long n) {
  for (const auto& k : known_answers)
    if (k.n == n) return k.answer;
  return std::nullopt;
}

// The tree of this run (set once by parse_args, before any search).
inline const tree* the_tree = nullptr;

// Parses `TREE [reps]` (TREE by name or number) into bench::Args with n = the
// tree's id, and sets the_tree. Exits with status 2 on bad input.
inline bench::Args parse_args(int argc, char** argv) {
  const char* name = argc >= 2 ? argv[1] : "T1";
  const tree* t = nullptr;
  char* end = nullptr;
  long num = std::strtol(name, &end, 10);
  bool is_num = *name != '\0' && *end == '\0';
  for (const auto& x : trees)
    if (std::strcmp(name, x.name) == 0 || (is_num && num == x.id)) t = &x;
  if (t == nullptr || argc > 3) {
    std::fprintf(stderr, "%s: %s\nusage: %s TREE [reps]   (TREE one of:", argv[0],
                 argc > 3 ? "too many arguments" : "unknown tree", argv[0]);
    for (const auto& x : trees) std::fprintf(stderr, " %s (%ld: %s)", x.name, x.id, x.params);
    std::fprintf(stderr, "; default T1; workers from env TASCELL_WORKERS)\n");
    std::exit(2);
  }
  char id[24];
  std::snprintf(id, sizeof id, "%ld", t->id);
  char* args[3] = {argv[0], id, argc >= 3 ? argv[2] : nullptr};
  the_tree = t;
  return bench::parse_args(argc >= 3 ? 3 : 2, args, t->id, t->id, t->id);
}

// ---- nodes ----

struct state {
  unsigned char d[20];
};

inline state root_state(int seed) {
  unsigned char in[20] = {};
  in[16] = static_cast<unsigned char>(seed >> 24);
  in[17] = static_cast<unsigned char>(seed >> 16);
  in[18] = static_cast<unsigned char>(seed >> 8);
  in[19] = static_cast<unsigned char>(seed);
  state s;
  SHA_CTX ctx;
  SHA1_Init(&ctx);
  SHA1_Update(&ctx, in, 20);
  SHA1_Final(s.d, &ctx);
  return s;
}

// The state of child i of the node with state parent.
inline state child_state(const state& parent, long i) {
  unsigned char in[24];
  std::memcpy(in, parent.d, 20);
  in[20] = static_cast<unsigned char>(i >> 24);
  in[21] = static_cast<unsigned char>(i >> 16);
  in[22] = static_cast<unsigned char>(i >> 8);
  in[23] = static_cast<unsigned char>(i);
  state s;
  SHA_CTX ctx;
  SHA1_Init(&ctx);
  SHA1_Update(&ctx, in, 24);
  SHA1_Final(s.d, &ctx);
  return s;
}

// The node's probability: its last 4 bytes, big-endian, 31 bits, / 2^31.
inline double to_prob(const state& s) {
  std::uint32_t v = (static_cast<std::uint32_t>(s.d[16]) << 24) | (static_cast<std::uint32_t>(s.d[17]) << 16) |
                    (static_cast<std::uint32_t>(s.d[18]) << 8) | static_cast<std::uint32_t>(s.d[19]);
  return static_cast<double>(v & 0x7FFFFFFFu) / 2147483648.0;
}

inline constexpr int max_children = 100;

// The number of children of the node with state s at depth `depth`.
inline int num_children(const tree& t, const state& s, int depth) {
  int m;
  if (t.type == BIN) {
    if (depth == 0) return static_cast<int>(std::floor(t.b));  // (at most ceil(b): no truncation)
    m = to_prob(s) < t.q ? t.m : 0;
  } else {
    double b_i = t.b;
    if (depth > 0) {
      double dd = depth, mx = t.gen_mx;
      switch (t.shape) {
        case EXPDEC: b_i = t.b * std::pow(dd, -std::log(t.b) / std::log(mx)); break;
        case CYCLIC: b_i = depth > 5 * t.gen_mx ? 0.0 : std::pow(t.b, std::sin(2.0 * 3.141592653589793 * dd / mx)); break;
        case FIXED: b_i = depth < t.gen_mx ? t.b : 0.0; break;
        case LINEAR:
        default: b_i = t.b * (1.0 - dd / mx); break;
      }
    }
    double p = 1.0 / (1.0 + b_i);
    m = static_cast<int>(std::floor(std::log(1.0 - to_prob(s)) / std::log(1.0 - p)));
  }
  return m > max_children ? max_children : m;
}

// ---- the answer ----

struct counts {
  long nodes = 0, leaves = 0;
  int depth = 0;  // the deepest node's depth (the root's is 0)
};

// Checks the whole answer (nodes, depth, leaves) when it is known.
inline bool check(const char* prog, long id, const counts& c) {
  for (const auto& k : known_answers)
    if (k.n == id) {
      if (c.nodes == k.answer && c.depth == k.depth && c.leaves == k.leaves) return true;
      std::fprintf(stderr, "%s: tree %ld: got %ld nodes, depth %d, %ld leaves; expected %ld, %ld, %ld\n", prog,
                   id, c.nodes, c.depth, c.leaves, k.answer, k.depth, k.leaves);
      return false;
    }
  return true;
}

}  // namespace uts_config
