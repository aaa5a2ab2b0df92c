// Running a chain: a worker runs the top frame's current iteration as one
// opaque unit of work; frames below it wait for that iteration. A unit is
// split (its node expanded into a frame of its own) only when a steal needs
// to look inside it.
#include <algorithm>

#include "simulator.hpp"

namespace scaling {

void simulator::sync(worker& w) {
  if (w.act != activity::working) return;
  double done = std::max(0.0, now_ - w.resume_at) * rate();
  done = std::min(done, w.rem);
  w.rem -= done;
  executed_ += done;
  w.resume_at = std::max(w.resume_at, now_);
}

void simulator::schedule_unit(worker& w) {
  ++w.ver;
  q_.post(std::max(now_, w.resume_at) + w.rem / rate(), ev::unit_done, w.id, 0, w.ver);
}

void simulator::run_piece(worker& w, int p) {
  piece& pc = pieces_[static_cast<std::size_t>(p)];
  pc.thief = w.id;
  process& q = procs_[static_cast<std::size_t>(w.proc)];
  if (w.hungry) {
    w.hungry = false;
    --q.hungry;
  }
  bool was_busy = !w.frames.empty();
  ++w.depth;
  frame f;
  f.node = pc.node;
  f.its = pc.its;
  f.cur = pc.lo;  // claimed before its first poll
  f.next = pc.lo + 1;
  f.end = pc.hi;
  f.piece = p;
  f.tree_depth = pc.tree_depth;
  if (!was_busy) w.offer_depth = pc.tree_depth;
  w.frames.push_back(std::move(f));
  w.rem = (*w.frames.back().its)[static_cast<std::size_t>(pc.lo)].work;
  w.resume_at = now_ + m_.costs.start;
  set_activity(w, activity::working);
  schedule_unit(w);
  if (!was_busy && ++q.busy == 1) wake_process(w.proc);
}

// The running unit has ended: the next iteration, or the join, or the end of
// the frame (and of the piece, if the frame was its first).
void simulator::advance(worker& w) {
  for (;;) {
    frame& f = w.frames.back();
    if (f.next < f.end) {
      f.cur = f.next++;
      w.rem = (*f.its)[static_cast<std::size_t>(f.cur)].work;
      if (w.rem <= 0) continue;  // an iteration with nothing in it (an unsafe column)
      w.resume_at = now_;
      if (w.act != activity::working) set_activity(w, activity::working);
      schedule_unit(w);
      return;
    }
    if (f.pending > 0) {
      start_waiting(w);
      return;
    }
    int p = f.piece;
    w.frames.pop_back();
    if (p >= 0) {
      finish_piece(w, p);
      return;
    }
  }
}

void simulator::finish_piece(worker& w, int p) {
  --w.depth;
  piece_done(p);
  wake_watchers(w);
  if (end_ >= 0) return;
  if (w.frames.empty()) {
    become_idle(w);
    return;
  }
  // Back to the join it was waiting at.
  advance(w);
}

void simulator::piece_done(int p) {
  piece& pc = pieces_[static_cast<std::size_t>(p)];
  if (pc.victim < 0) {  // the root call
    pc.done = true;
    end_ = now_;
    return;
  }
  if (pc.remote) {
    // The message thread sends RESULT; the victim's process marks it done.
    int from = workers_[static_cast<std::size_t>(pc.thief)].proc;
    int to = workers_[static_cast<std::size_t>(pc.victim)].proc;
    double t = thread_turn(procs_[static_cast<std::size_t>(from)], now_);
    send(from, to, msg::result, p, -1, t);
    return;
  }
  pc.done = true;
  worker& v = workers_[static_cast<std::size_t>(pc.victim)];
  --v.frames[static_cast<std::size_t>(pc.victim_frame)].pending;
  wake_blocked(v);
}

void simulator::become_idle(worker& w) {
  process& q = procs_[static_cast<std::size_t>(w.proc)];
  --q.busy;
  set_activity(w, activity::idle);
  w.failures = 0;
  ++w.ver;
  q_.post(now_ + m_.costs.loop, ev::attempt, w.id, 0, w.ver);
}

void simulator::start_waiting(worker& w) {
  set_activity(w, activity::waiting);
  w.failures = 0;
  w.remote_back_refusals = 0;
  w.next_remote_back = 0;
  ++w.ver;
  q_.post(now_, ev::attempt, w.id, 0, w.ver);
}

// Every piece of the join's point has come back: merge and go on.
void simulator::resume_after_join(worker& w) {
  set_activity(w, activity::working);
  w.rem = 0;
  advance(w);
}

// Looks inside the running unit: pushes the frame of its node, positioned
// where the worker is now. False when the unit has nothing inside (a leaf,
// or a node's own part).
bool simulator::expand_top(worker& w) {
  frame& f = w.frames.back();
  if (f.cur < 0 || w.rem <= 0) return false;
  iteration it = (*f.its)[static_cast<std::size_t>(f.cur)];
  if (it.child == no_node) return false;
  // Simulator approximation (machine::grain): subtrees smaller than the
  // grain are never split.
  if (it.work < m_.grain) return false;
  const expansion& e = tree_.expand(it.child, it.work);
  double done = it.work - w.rem;
  frame g;
  g.node = it.child;
  g.tree_depth = f.tree_depth + 1;
  g.its = std::make_shared<const std::vector<iteration>>(e.its);
  g.end = static_cast<int>(e.its.size());
  if (done < e.own || e.its.empty()) {
    g.cur = -1;
    g.next = 0;
    w.rem = std::max(e.own - done, 0.0);
  } else {
    double q = done - e.own, cum = 0, left = 0;
    int j = -1;
    for (int i = 0; i < g.end; ++i) {
      double x = (*g.its)[static_cast<std::size_t>(i)].work;
      if (cum + x > q) {
        j = i;
        left = cum + x - q;
        break;
      }
      if (x > 0) j = i;  // rounding may leave q at the very end: the last one, done
      cum += x;
    }
    if (j < 0) return false;
    g.cur = j;
    g.next = j + 1;
    // The frames now hold exactly the unit's remaining work: left + the
    // iterations after j.
    w.rem = std::max(left, 0.0);
  }
  w.frames.push_back(std::move(g));
  return true;
}

}  // namespace scaling
