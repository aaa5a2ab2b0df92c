// Temporary backtracking: what a worker does when it serves a request (at a
// poll, serve.cpp). It chooses the spawn point to give from, undoes the winds
// newer than that point, packs half of the point's work into a task, and
// redoes the winds.
//
// The choice: the highest priority, among equals the oldest point with work
// (the largest piece, in a search tree), none below a lazy mark (lazy.hpp:
// the lazy frames above it undo their winds only by unwinding). So the walk must reach the bottom of
// every chain, and chains are deep: UTS T3's are hundreds of nodes, and a
// 2-worker run of it serves about a thousand requests in 0.09 s, each while
// the thief waits. The walk is therefore one pass, newest node first, that
// keeps only the best point so far and the counts its depth in the task tree
// needs, in registers; nothing is copied. A second walk, down to the chosen
// point only, runs when winds lie above it. (The first version copied the
// chain into a vector and made three more passes over it: about 5,800
// cycles per give on T3, against about 2,000 now with walk_chain's guess of
// the next node's size; docs/history/performance-sessions.md, session 13.)
#include <algorithm>
#include <cstdint>

#include "runtime.hpp"
#include "tascell/detail/entry.hpp"
#include "trace.hpp"
#include "worker.hpp"

namespace tascell::detail {

namespace {

// A point's depth in the task tree: the first point above a boundary is at
// its piece's tree_depth (a chain's oldest point at 0), each point above
// that one deeper. A walk newest first learns a point's depth only at the
// boundary below it, so it notes how many points it had passed when it
// passed that one (a mark) and subtracts.
inline constexpr std::int32_t no_mark = -1;

// What the walk of the chains finds. The walk runs over hundreds of nodes
// per request on a deep recursion; its state is local to walk() so that the
// compiler keeps it in registers (as members, written through `this` at
// every node, it cost more than the walk itself).
struct chain_scan {
  // The request: a steal-back (`wanted`: only that piece's own frames may
  // give), or for another process (only kinds that can travel).
  task* wanted = nullptr;
  bool remote = false;
  int thief_rank = -1;  // the thief's process when it is another (a placed point gives by it)

  // The point chosen: the highest priority, among equals the oldest.
  spawn_point* best = nullptr;
  const node_kind* best_kind = nullptr;
  std::int64_t best_prio = 0;
  ctx best_top{};      // the top of its chain
  int best_winds = 0;  // winds newer than it on its chain
  std::int32_t best_depth = 0;

  // The shallowest point with work that can travel, once the best one is
  // split (what this worker offers another process; not for a steal-back).
  // Depth grows with newness between two boundaries, so each stretch of a
  // chain between boundaries offers its oldest such point, or, when that
  // is the best point and the give takes its last work, the next oldest.
  // The stretch whose oldest is the best point is kept apart until the walk
  // ends; the others count at once.
  std::int32_t offer_others = INT32_MAX;
  bool best_stretch = false;
  std::int32_t best_stretch_depth = 0, best_stretch_next = 0;

  bool found_wanted = false;

  std::int32_t offer() const {
    if (!best_stretch) return offer_others;
    return std::min(offer_others, best->next < best->end ? best_stretch_depth : best_stretch_next);
  }

  // Walks one chain, newest node first. Returns false when the walk is
  // over (the wanted piece's boundary was reached).
  bool walk(ctx top) {
    spawn_point* b = best;
    const node_kind* bk = best_kind;
    std::int64_t bprio = best_prio;
    int bwinds = best_winds;
    bool bstretch = best_stretch;
    std::int32_t bdepth = best_depth, bs_depth = best_stretch_depth, bs_next = best_stretch_next;
    std::int32_t others = offer_others;

    int winds = 0;
    bool blocked = false;                   // a lazy mark passed: older points cannot give
    std::int32_t points = 0;                // points passed on this chain
    std::int32_t bmark = no_mark;           // the best point's, while its depth is open
    spawn_point* oldest = nullptr;          // this stretch's oldest point that offers
    std::int32_t omark = no_mark, nmark = no_mark;  // its mark and the next oldest's
    bool over = false;

    // The boundary below the points passed since the last one is at `at`.
    auto close = [&](std::int32_t at) TASCELL_LAMBDA_INLINE {
      if (bmark != no_mark) bdepth = at + (points - bmark);
      bmark = no_mark;
      if (omark != no_mark) {
        std::int32_t d = at + (points - omark);
        if (oldest == b) {
          bstretch = true;
          bs_depth = d;
          bs_next = nmark != no_mark ? at + (points - nmark) : INT32_MAX;
        } else {
          others = std::min(others, d);
        }
      }
      omark = nmark = no_mark;
    };
    walk_chain(top, [&](const chain_entry& e) TASCELL_LAMBDA_INLINE {
      if (e.kind->type == node_type::point) [[likely]] {
        spawn_point* p = e.point();
        ++points;
        if (p->next >= p->end || blocked) return true;
        if (!wanted && e.kind->wire) {  // older, so shallower
          nmark = omark;
          omark = points;
          oldest = p;
        }
        if (remote && !e.kind->wire) return true;
        if (e.kind->place && e.kind->place(p, thief_rank) < 0) [[unlikely]] return true;
        std::int64_t prio = e.kind->priority ? e.kind->priority(p) : 0;
        if (!b || prio >= bprio) {
          if (bstretch) others = std::min(others, bs_depth);  // no longer the best's
          bstretch = false;
          b = p;
          bk = e.kind;
          bprio = prio;
          bwinds = winds;
          bmark = points;
        }
        return true;
      }
      if (e.kind->type == node_type::wind) {
        ++winds;
        return true;
      }
      if (e.kind->type == node_type::lazy_mark) {
        // Lazy frames above it may have entered winds that wrote no node,
        // which giving from an older point could not undo (lazy.hpp).
        blocked = true;
        return true;
      }
      task* t = e.bound()->t;
      if (wanted) {
        if (t == wanted) {
          found_wanted = true;
          close(t->tree_depth);
          over = true;
          return false;
        }
        // Points newer than another piece's boundary belong to pieces
        // running nested above the wanted one's frames: not eligible.
        b = nullptr;
        bmark = no_mark;
        return true;
      }
      close(t->tree_depth);
      return true;
    });
    if (!over) {
      if (wanted) b = nullptr;  // the wanted piece is not on this chain
      else close(0);            // a chain's oldest point is at depth 0
    }
    if (b != best) best_top = top;
    best = b;
    best_kind = bk;
    best_prio = bprio;
    best_winds = bwinds;
    best_depth = bdepth;
    best_stretch = bstretch;
    best_stretch_depth = bs_depth;
    best_stretch_next = bs_next;
    offer_others = others;
    return !over;
  }
};

// The winds above point p on the chain under top: undone newest first
// (`after`), or redone oldest first (`before`). Each fiber's pieces have
// their own copies of what winds change, so only p's chain is concerned.
void collect_winds(std::vector<chain_entry>& winds, ctx top, const spawn_point* p) {
  winds.clear();
  walk_chain(top, [&](const chain_entry& e) {
    if (e.start == reinterpret_cast<const char*>(p)) return false;
    if (e.kind->type == node_type::wind) winds.push_back(e);
    return true;
  });
}
void undo_winds(const std::vector<chain_entry>& winds) {
  for (const chain_entry& e : winds) e.kind->undo(e.start);
}
void redo_winds(const std::vector<chain_entry>& winds) {
  for (auto it = winds.rbegin(); it != winds.rend(); ++it) it->kind->redo(it->start);
}

}  // namespace

task* give(worker_impl* w, ctx c, worker_face* thief) {
  chain_scan scan;
  scan.wanted = thief->wanted;
  scan.remote = thief->remote_rank.load(std::memory_order_relaxed) >= 0;
  scan.thief_rank = scan.remote ? thief->remote_rank.load(std::memory_order_relaxed) : -1;
  if (w->waiting == 0) {
    scan.walk(c);
  } else {
    // Every fiber's chain, the newest fiber first, so that a later chain is
    // older (fiber 0, the thread's own stack, is the oldest) and wins ties.
    // (Sorted by hand: GCC 12 warns falsely on std::sort of 8 ints.)
    int order[max_fibers];
    int n = 0;
    for (int k = 0; k < max_fibers; ++k) {
      if (w->fibers[k].state == fiber_slot::free) continue;
      int i = n++;
      for (; i > 0 && w->fibers[order[i - 1]].born < w->fibers[k].born; --i) order[i] = order[i - 1];
      order[i] = k;
    }
    for (int i = 0; i < n; ++i)
      if (!scan.walk(order[i] == w->running ? c : w->fibers[order[i]].top)) break;
  }
  task* wanted = scan.wanted;
  if (wanted && !scan.found_wanted) return nullptr;  // the wanted piece is not running here (any more)
  if (!scan.best) {
    if (!wanted) w->offer_depth.store(scan.offer(), std::memory_order_relaxed);
    return nullptr;
  }

  spawn_point* p = scan.best;
  auto& winds = w->walk;
  if (scan.best_winds > 0) collect_winds(winds, scan.best_top, p);
  else winds.clear();
  undo_winds(winds);
  const bool placed = scan.best_kind->place != nullptr;
  std::int64_t lo = placed ? scan.best_kind->place(p, scan.thief_rank) : p->end - (p->end - p->next + 1) / 2;
  std::int64_t hi = placed ? lo + 1 : p->end;
  task* t = nullptr;
  try {
    t = scan.best_kind->put(p, lo, hi);
  } catch (...) {
    redo_winds(winds);
    throw;
  }
  if (!placed) p->end = lo;
  redo_winds(winds);

  // What this worker offers another process now (worker_impl::offer_depth),
  // as of this walk, which saw every chain.
  if (!wanted) w->offer_depth.store(scan.offer(), std::memory_order_relaxed);

  if (!placed) {  // a placed point's put set them (table_loop.hpp)
    t->kind = scan.best_kind;
    t->lo = lo;
    t->hi = hi;
  }
  t->tree_depth = scan.best_depth;
  t->victim = w;
  t->serial = next_task_serial();
  t->thief.store(thief, std::memory_order_relaxed);
  if (w->tracing) [[unlikely]] {
    int to = scan.remote ? -1 - thief->remote_rank.load(std::memory_order_relaxed) : thief->id;
    w->note(trace_type::give, piece_flow_id(w->rt->rank(), t->serial), to, t->tree_depth, hi - lo);
  }
  point_aux* a = get_aux(w, p);
  t->origin = a;
  t->next_given = a->given;
  a->given = t;
  a->pending++;
  w->stats.pieces_given++;
  // Work given away comes after the table updates this worker issued so
  // far: they are applied before the thief can see the piece.
  if (w->unsettled) [[unlikely]] settle_updates(w);
  return t;
}

}  // namespace tascell::detail
