// give() (give.cpp): temporary backtracking's choice of the spawn point to
// split, the depth of the piece in the task tree, what the worker offers
// other processes afterwards, and the winds undone and redone around the
// split. Chains made by hand in a worker's region (points, winds and piece
// boundaries of made-up kinds, on one or several fibers), against a model
// written from the rules as stated (worker.hpp, give.cpp) over a plain list:
// - the highest priority, among equals the oldest point with work;
// - for another process only kinds that can travel;
// - a steal-back only from the wanted piece's own frames (the points older
//   than every other piece's boundary above the wanted one's);
// - a chain's oldest point is at depth 0, the first point above a boundary
//   at its piece's tree_depth, each point above one deeper;
// - the offer: the shallowest point with work that can travel, after the
//   split;
// - the winds newer than the point on its chain: undone newest first, redone
//   oldest first.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <memory>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "worker.hpp"

namespace tascell::detail {
namespace {

// --- made-up node kinds ---

struct test_point {
  spawn_point sp;
  std::int64_t prio;
  std::uintptr_t kind;
};
struct test_wind {
  std::int64_t id;
  std::uintptr_t kind;
};
struct test_task : task {
  spawn_point* from = nullptr;
};

std::vector<std::string> wind_log;

task* put_point(spawn_point* p, std::int64_t, std::int64_t) {
  auto* t = new test_task;
  t->from = p;
  return t;
}
std::int64_t prio_of(spawn_point* p) { return reinterpret_cast<test_point*>(p)->prio; }
void undo_wind(void* n) { wind_log.push_back("undo " + std::to_string(static_cast<test_wind*>(n)->id)); }
void redo_wind(void* n) { wind_log.push_back("redo " + std::to_string(static_cast<test_wind*>(n)->id)); }

// Give only tests whether a kind can travel; never called here.
const int travel_marker = 0;
const wire_ops* const travels = reinterpret_cast<const wire_ops*>(&travel_marker);

const node_kind plain_kind{node_type::point, sizeof(test_point), &put_point, nullptr, nullptr, false,
                           "plain", nullptr, nullptr, nullptr};
const node_kind prio_kind{node_type::point, sizeof(test_point), &put_point, nullptr, &prio_of, false,
                          "prio", nullptr, nullptr, nullptr};
const node_kind wire_kind{node_type::point, sizeof(test_point), &put_point, nullptr, nullptr, false,
                          "wire", nullptr, nullptr, travels};
const node_kind wind_kind{node_type::wind, sizeof(test_wind), nullptr, nullptr, nullptr, false,
                          "wind", &undo_wind, &redo_wind, nullptr};

// --- the chains, as the model sees them ---

struct node {
  enum node_t { point, wind, boundary } type = point;
  const node_kind* kind = nullptr;  // points
  std::int64_t next = 0, end = 0, prio = 0;
  int id = 0;                  // winds
  std::int32_t tree_depth = 0;  // boundaries
  // where it was laid out
  char* at = nullptr;
  std::shared_ptr<task> piece;  // boundaries
};
struct chain {
  int fiber = 0;
  std::uint64_t born = 0;
  std::vector<node> nodes;  // oldest first
  ctx top{};
};

// A worker made by hand in a region of its own; fiber k's nodes on segment k.
struct hand_made_worker {
  void* region = std::aligned_alloc(region_bytes, region_bytes);  // pages touched only where nodes go
  worker_impl* w = ::new (region) worker_impl;
  hand_made_worker() { w->seg_shift = 23; }  // 8 segments of 8 MiB
  ~hand_made_worker() {
    clear_auxes();
    w->~worker_impl();
    std::free(region);
  }
  void clear_auxes() {
    auto drop = [](std::vector<point_aux*>& stack) {
      for (point_aux* a : stack) {
        for (task* t = a->given; t;) {
          task* n = t->next_given;
          delete t;
          t = n;
        }
        delete a;
      }
      stack.clear();
    };
    drop(w->aux_stack);
    for (auto& f : w->fibers) drop(f.aux);
    w->sync_aux_owner();
  }
  // Lays the chains out (each fiber's from its segment's base) and sets
  // the fibers up; chains[running] is the running one.
  void lay_out(std::vector<chain>& chains, int running) {
    clear_auxes();
    w->running = chains[static_cast<std::size_t>(running)].fiber;
    w->waiting = 0;
    for (auto& f : w->fibers) f.state = fiber_slot::free;
    for (chain& ch : chains) {
      char* at = segment_base(w, ch.fiber);
      for (node& n : ch.nodes) {
        n.at = at;
        if (n.type == node::point) {
          auto* p = ::new (at) test_point{{n.next, n.end}, n.prio, reinterpret_cast<std::uintptr_t>(n.kind)};
          at = reinterpret_cast<char*>(p + 1);
        } else if (n.type == node::wind) {
          auto* p = ::new (at) test_wind{n.id, reinterpret_cast<std::uintptr_t>(&wind_kind)};
          at = reinterpret_cast<char*>(p + 1);
        } else {
          if (!n.piece) n.piece = std::make_shared<test_task>();  // kept: a steal-back names it
          n.piece->tree_depth = n.tree_depth;
          auto* p = ::new (at) boundary{n.piece.get(), reinterpret_cast<std::uintptr_t>(&boundary_kind)};
          at = reinterpret_cast<char*>(p + 1);
        }
      }
      ch.top = after(at);
      fiber_slot& f = w->fibers[ch.fiber];
      f.born = ch.born;
      f.top = ch.top;
      if (ch.fiber == w->running) {
        f.state = fiber_slot::running;
      } else {
        f.state = fiber_slot::waiting;
        ++w->waiting;
      }
    }
  }
};

// --- the model ---

struct expected {
  const node* chosen = nullptr;  // nullptr: nothing given
  bool asked_ok = true;          // false: the wanted piece is not on any chain
  std::int64_t lo = 0, hi = 0;
  std::int32_t depth = 0;
  std::int32_t offer = INT32_MAX;
  std::vector<std::string> winds;
};

expected model(const std::vector<chain>& chains, const task* wanted, bool remote) {
  // The chains newest fiber first; each newest node first.
  std::vector<const chain*> order;
  for (const chain& ch : chains) order.push_back(&ch);
  std::stable_sort(order.begin(), order.end(), [](const chain* a, const chain* b) { return a->born > b->born; });
  struct seen {
    const chain* ch;
    std::size_t index;  // in ch->nodes
    bool eligible;
  };
  std::vector<seen> walk;
  bool found = false;
  for (const chain* ch : order) {
    std::vector<seen> mine;
    bool here = false;
    for (std::size_t i = ch->nodes.size(); i-- > 0;) {
      const node& n = ch->nodes[i];
      if (wanted && n.type == node::boundary) {
        if (n.piece.get() == wanted) {
          here = true;
          break;
        }
        for (seen& s : mine) s.eligible = false;
      }
      mine.push_back({ch, i, true});
    }
    if (wanted && !here)
      for (seen& s : mine) s.eligible = false;
    walk.insert(walk.end(), mine.begin(), mine.end());
    if (here) {
      found = true;
      break;
    }
  }
  expected e;
  if (wanted && !found) {
    e.asked_ok = false;
    return e;
  }
  // Depth of node i of a chain: from its oldest node, or from the wanted
  // piece's boundary.
  auto depth_of = [&](const chain* ch, std::size_t index) {
    std::int32_t d = 0;
    std::size_t from = 0;
    if (wanted)
      for (std::size_t i = 0; i < ch->nodes.size(); ++i)
        if (ch->nodes[i].type == node::boundary && ch->nodes[i].piece.get() == wanted) {
          d = wanted->tree_depth;
          from = i + 1;
        }
    for (std::size_t i = from; i < index; ++i) {
      const node& n = ch->nodes[i];
      if (n.type == node::boundary) d = n.tree_depth;
      else if (n.type == node::point) ++d;
    }
    return d;
  };
  const seen* best = nullptr;
  for (const seen& s : walk) {
    const node& n = s.ch->nodes[s.index];
    if (!s.eligible || n.type != node::point || n.next >= n.end) continue;
    if (remote && !n.kind->wire) continue;
    std::int64_t prio = n.kind->priority ? n.prio : 0;
    std::int64_t best_prio = best ? (best->ch->nodes[best->index].kind->priority ? best->ch->nodes[best->index].prio : 0) : 0;
    if (!best || prio >= best_prio) best = &s;
  }
  // The offer, after the split.
  auto left = [&](const node& n) {
    if (best && &n == &best->ch->nodes[best->index]) return n.end - (n.end - n.next + 1) / 2 > n.next;
    return n.next < n.end;
  };
  if (!wanted)
    for (const seen& s : walk) {
      const node& n = s.ch->nodes[s.index];
      if (n.type == node::point && n.kind->wire && left(n))
        e.offer = std::min(e.offer, depth_of(s.ch, s.index));
    }
  if (!best) return e;
  const node& p = best->ch->nodes[best->index];
  e.chosen = &p;
  e.hi = p.end;
  e.lo = p.end - (p.end - p.next + 1) / 2;
  e.depth = depth_of(best->ch, best->index);
  std::vector<int> above;  // newest first
  for (std::size_t i = best->ch->nodes.size(); i-- > best->index + 1;)
    if (best->ch->nodes[i].type == node::wind) above.push_back(best->ch->nodes[i].id);
  for (int id : above) e.winds.push_back("undo " + std::to_string(id));
  for (auto it = above.rbegin(); it != above.rend(); ++it) e.winds.push_back("redo " + std::to_string(*it));
  return e;
}

// Runs give on the laid-out chains and checks it against the model.
void check(hand_made_worker& h, std::vector<chain>& chains, int running, const task* wanted, bool remote,
           const std::string& what) {
  h.lay_out(chains, running);
  expected e = model(chains, wanted, remote);
  worker_impl thief;
  thief.id = 1;
  thief.wanted = const_cast<task*>(wanted);
  if (remote) thief.remote_rank.store(2);
  const std::int32_t before = 12345;
  h.w->offer_depth.store(before);
  wind_log.clear();
  task* t = give(h.w, chains[static_cast<std::size_t>(running)].top, &thief);
  if (!e.chosen) {
    EXPECT_EQ(t, nullptr) << what;
  } else {
    ASSERT_NE(t, nullptr) << what;
    auto* tt = static_cast<test_task*>(t);
    EXPECT_EQ(reinterpret_cast<char*>(tt->from), e.chosen->at) << what;
    EXPECT_EQ(t->lo, e.lo) << what;
    EXPECT_EQ(t->hi, e.hi) << what;
    EXPECT_EQ(t->tree_depth, e.depth) << what;
    EXPECT_EQ(tt->from->end, e.lo) << what << ": the point keeps [next, lo)";
    EXPECT_EQ(wind_log, e.winds) << what;
  }
  if (wanted) EXPECT_EQ(h.w->offer_depth.load(), before) << what << ": a steal-back leaves the offer";
  else EXPECT_EQ(h.w->offer_depth.load(), e.offer) << what;
}

node pt(const node_kind& k, std::int64_t next, std::int64_t end, std::int64_t prio = 0) {
  node n;
  n.type = node::point;
  n.kind = &k;
  n.next = next;
  n.end = end;
  n.prio = prio;
  return n;
}
node wd(int id) {
  node n;
  n.type = node::wind;
  n.id = id;
  return n;
}
node bd(std::int32_t depth) {
  node n;
  n.type = node::boundary;
  n.tree_depth = depth;
  return n;
}
std::vector<chain> one_chain(std::vector<node> nodes) {
  std::vector<chain> c(1);
  c[0].nodes = std::move(nodes);
  return c;
}

TEST(Give, SplitsTheOldestPointWithWorkAndUndoesOnlyTheWindsAboveIt) {
  hand_made_worker h;
  ASSERT_NE(h.region, nullptr);
  std::vector<node> n;
  n.push_back(pt(wire_kind, 5, 5));  // depth 0, no work left
  n.push_back(wd(1));
  n.push_back(pt(wire_kind, 2, 7));  // depth 1: this one
  n.push_back(wd(2));
  n.push_back(pt(plain_kind, 0, 3));  // depth 2
  n.push_back(wd(3));
  auto chains = one_chain(std::move(n));
  check(h, chains, 0, nullptr, false, "one chain");
  // Its half went: [2, 4) stays, [4, 7) was given; the offer is still depth 1.
  EXPECT_EQ(chains[0].nodes[2].at, reinterpret_cast<char*>(h.w->aux_stack.back()->point));
  EXPECT_EQ(h.w->offer_depth.load(), 1);
  EXPECT_EQ(wind_log, (std::vector<std::string>{"undo 3", "undo 2", "redo 2", "redo 3"}));
}

TEST(Give, TheOfferMovesUpWhenTheGiveTakesTheLastWorkOfThePoint) {
  hand_made_worker h;
  ASSERT_NE(h.region, nullptr);
  std::vector<node> n;
  n.push_back(pt(wire_kind, 6, 7));  // depth 0: one iteration left, given
  n.push_back(pt(plain_kind, 0, 4));  // depth 1: cannot travel
  n.push_back(pt(wire_kind, 0, 4));  // depth 2
  auto chains = one_chain(std::move(n));
  check(h, chains, 0, nullptr, false, "last iteration");
  EXPECT_EQ(h.w->offer_depth.load(), 2);
}

TEST(Give, PriorityBeatsAgeAndARemoteThiefGetsOnlyWorkThatTravels) {
  hand_made_worker h;
  ASSERT_NE(h.region, nullptr);
  std::vector<node> n;
  n.push_back(pt(plain_kind, 0, 8));
  n.push_back(pt(prio_kind, 0, 8, 5));
  n.push_back(pt(prio_kind, 0, 8, 9));  // the highest priority
  n.push_back(pt(wire_kind, 0, 8));
  auto chains = one_chain(std::move(n));
  check(h, chains, 0, nullptr, false, "priority");
  EXPECT_EQ(static_cast<test_task*>(h.w->aux_stack.back()->given)->from->end, 4);
  auto again = one_chain({pt(plain_kind, 0, 8), pt(prio_kind, 0, 8, 9), pt(wire_kind, 0, 8)});
  check(h, again, 0, nullptr, true, "remote");
}

TEST(Give, AStealBackGivesOnlyFromTheWantedPiecesOwnFrames) {
  hand_made_worker h;
  ASSERT_NE(h.region, nullptr);
  std::vector<node> n;
  n.push_back(pt(wire_kind, 0, 9));  // older than the wanted piece: not its own
  n.push_back(bd(4));                // the wanted piece
  n.push_back(pt(wire_kind, 9, 9));  // depth 4, no work
  n.push_back(pt(wire_kind, 0, 3));  // depth 5: this one
  n.push_back(bd(20));               // another piece running nested above
  n.push_back(pt(wire_kind, 0, 9));  // not eligible
  auto chains = one_chain(std::move(n));
  h.lay_out(chains, 0);
  const task* wanted = chains[0].nodes[1].piece.get();
  check(h, chains, 0, wanted, false, "steal-back");
  EXPECT_EQ(static_cast<test_task*>(h.w->aux_stack.back()->given)->tree_depth, 5);
}

// Random chains on one to three fibers, with random requests.
TEST(Give, AgreesWithTheRulesOnRandomChains) {
  hand_made_worker h;
  ASSERT_NE(h.region, nullptr);
  std::mt19937 rng(11);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const node_kind* kinds[] = {&plain_kind, &prio_kind, &wire_kind};
  int given = 0, refused = 0, steal_backs = 0;
  for (int round = 0; round < 3000; ++round) {
    int fibers = 1 + pick(3);
    std::vector<chain> chains(static_cast<std::size_t>(fibers));
    // Fiber 0 (born 0) and others in distinct slots, born in any order.
    std::vector<int> slots{1, 2, 3, 4, 5, 6, 7}, borns{1, 2, 3, 4, 5, 6, 7, 8, 9};
    std::shuffle(slots.begin(), slots.end(), rng);
    std::shuffle(borns.begin(), borns.end(), rng);
    int wind_id = 0;
    for (int f = 0; f < fibers; ++f) {
      chain& ch = chains[static_cast<std::size_t>(f)];
      ch.fiber = f == 0 ? 0 : slots[static_cast<std::size_t>(f - 1)];
      ch.born = f == 0 ? 0 : static_cast<std::uint64_t>(borns[static_cast<std::size_t>(f - 1)]);
      if (f > 0) ch.nodes.push_back(bd(pick(30)));  // a fiber runs a piece
      int len = pick(40);
      for (int i = 0; i < len; ++i) {
        int r = pick(10);
        if (r < 7) {
          std::int64_t end = pick(6);
          ch.nodes.push_back(pt(*kinds[pick(3)], pick(2) ? end : pick(7), end, pick(3)));
        } else if (r < 9) {
          ch.nodes.push_back(wd(++wind_id));
        } else {
          ch.nodes.push_back(bd(pick(30)));
        }
      }
    }
    int running = pick(fibers);
    bool remote = pick(4) == 0;
    h.lay_out(chains, running);
    const task* wanted = nullptr;
    if (pick(3) == 0) {
      std::vector<const task*> pieces;
      for (const chain& ch : chains)
        for (const node& n : ch.nodes)
          if (n.type == node::boundary) pieces.push_back(n.piece.get());
      static const test_task elsewhere;  // a piece not on any chain
      pieces.push_back(&elsewhere);
      wanted = pieces[static_cast<std::size_t>(pick(static_cast<int>(pieces.size())))];
      ++steal_backs;
    }
    check(h, chains, running, wanted, remote, "round " + std::to_string(round));
    if (::testing::Test::HasFailure()) break;
    bool gave = false;
    for (point_aux* a : h.w->aux_stack) gave |= a->given != nullptr;
    for (auto& f : h.w->fibers)
      for (point_aux* a : f.aux) gave |= a->given != nullptr;
    (gave ? given : refused)++;
  }
  // The rounds cover both outcomes and steal-backs.
  EXPECT_GT(given, 1000);
  EXPECT_GT(refused, 100);
  EXPECT_GT(steal_backs, 500);
}

}  // namespace
}  // namespace tascell::detail
