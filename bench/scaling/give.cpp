// Temporary backtracking (runtime/src/serve.cpp, give()): the oldest spawn
// point with work left gives the upper half of what is left (for parts:
// from the last part back). For a steal-back only the wanted piece's own
// frames may give.
#include <limits>

#include "simulator.hpp"

namespace scaling {

int simulator::give(worker& v, int requester, int wanted) {
  unwound_ = 0;
  if (v.frames.empty()) return -1;
  sync(v);
  std::size_t lo = 0, hi = v.frames.size();
  if (wanted >= 0) {
    bool found = false;
    for (std::size_t i = 0; i < v.frames.size(); ++i)
      if (v.frames[i].piece == wanted) {
        lo = i;
        found = true;
        break;
      }
    if (!found) return -1;  // the wanted piece is not running here (any more)
    for (std::size_t i = lo + 1; i < v.frames.size(); ++i)
      if (v.frames[i].piece >= 0) {
        hi = i;
        break;
      }
  }
  int id = -1;
  for (std::size_t i = lo; i < hi && id < 0; ++i) {
    const frame& f = v.frames[i];
    if (f.cur >= 0 && f.next < f.end) id = give_from(v, static_cast<int>(i), requester);
  }
  // Nothing in the frames known so far: look inside the running unit.
  if (id < 0 && hi == v.frames.size() && v.act == activity::working) {
    // Lazy lowering: the frames from the running subtree's root up to the
    // running leaf hold no point; they are saved, and rebuilt as eager
    // frames whose points the give then finds (runtime/src/lazy.cpp). The
    // known frames below are the eager ones: pieces and earlier rebuilds.
    const frame& top = v.frames.back();
    if (m_.costs.unwind_frame > 0 && top.cur >= 0 && v.rem > 0) {
      node_id running = (*top.its)[static_cast<std::size_t>(top.cur)].child;
      if (running != no_node) {
        unwound_ = tree_.frames_below(running);
        ++res_.unwindings;
        res_.unwound_frames += unwound_;
      }
    }
    while (id < 0 && expand_top(v)) {
      const frame& g = v.frames.back();
      if (g.cur >= 0 && g.next < g.end) id = give_from(v, static_cast<int>(v.frames.size() - 1), requester);
    }
  }
  if (wanted < 0) {
    // As the runtime publishes it after a hand-over (serve.cpp).
    v.offer_depth = std::numeric_limits<int>::max();
    for (const frame& f : v.frames)
      if (f.cur >= 0 && f.next < f.end) {
        v.offer_depth = f.tree_depth;
        break;
      }
  }
  return id;
}

int simulator::give_from(worker& v, int fi, int requester) {
  frame& f = v.frames[static_cast<std::size_t>(fi)];
  int lo = f.end - (f.end - f.next + 1) / 2;
  int hi = f.end;
  f.end = lo;
  piece pc;
  pc.victim = v.id;
  pc.victim_frame = fi;
  pc.node = f.node;
  pc.its = f.its;
  pc.lo = lo;
  pc.hi = hi;
  pc.tree_depth = f.tree_depth;
  for (int i = lo; i < hi; ++i) pc.work += (*f.its)[static_cast<std::size_t>(i)].work;
  pc.remote = is_proxy(requester);
  int id = static_cast<int>(pieces_.size());
  pieces_.push_back(std::move(pc));
  f.given.push_back(id);
  ++f.pending;
  ++(is_proxy(requester) ? res_.pieces_remote : res_.pieces_local);
  return id;
}

}  // namespace scaling
