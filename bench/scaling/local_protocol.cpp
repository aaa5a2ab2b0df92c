// Requests inside a process (runtime/src/request.cpp, serve.cpp, join.cpp):
// one requester per victim (a CAS on its slot), answered at the victim's
// next poll; the idle loop (seek_work) and the waiting loop (help) with
// their back-off.
#include <algorithm>
#include <cmath>

#include "simulator.hpp"

namespace scaling {

// Claims v's requester slot for `requester` and lets v answer at its next
// poll (running) or its next turn (idle, waiting, itself asking).
bool simulator::post_request(worker& w_or_proxy_owner, int requester, worker& v, int wanted) {
  (void)w_or_proxy_owner;
  if (v.requester != -1) return false;  // someone else is asking this victim
  v.requester = requester;
  if (!is_proxy(requester)) workers_[static_cast<std::size_t>(requester)].wanted = wanted;
  ++res_.requests;
  const local_costs& c = m_.costs;
  double delay = c.signal;
  if (v.act == activity::working) delay += uniform(c.poll_interval);
  else if (v.dormant) delay += c.wake;  // request() wakes nappers
  else delay += c.loop;
  if (!v.serve_posted) {
    v.serve_posted = true;
    q_.post(now_ + delay, ev::serve, v.id);
  }
  return true;
}

void simulator::serve(worker& v) {
  v.serve_posted = false;
  int r = v.requester;
  if (r == -1) return;
  int wanted = is_proxy(r) ? proxies_[static_cast<std::size_t>(proxy_of(r))].wanted
                           : workers_[static_cast<std::size_t>(r)].wanted;
  int p = give(v, r, wanted);
  double cost = (p >= 0 ? m_.costs.give : m_.costs.refuse) + unwound_ * m_.costs.unwind_frame;
  if (v.act == activity::working) {
    v.resume_at = std::max(now_, v.resume_at) + cost;
    schedule_unit(v);
  }
  v.requester = -1;
  if (p < 0 && !is_proxy(r)) ++res_.refusals;
  if (is_proxy(r))
    q_.post(now_ + cost + m_.costs.signal + m_.net.wake, ev::proxy_reply, proxy_of(r), p);
  else
    q_.post(now_ + cost + m_.costs.signal, ev::reply, r, p);
}

void simulator::on_reply(worker& w, int p) {
  if (w.act != activity::asking) return;
  bool back = w.wanted >= 0;
  bool remote_back = back && pieces_[static_cast<std::size_t>(w.wanted)].remote;
  w.wanted = -1;
  if (p >= 0) {
    if (back) ++res_.steal_backs;
    if (remote_back) w.remote_back_refusals = 0;
    w.failures = 0;
    run_piece(w, p);
    return;
  }
  if (remote_back) {
    unsigned k = std::min(w.remote_back_refusals++, 6u);
    w.next_remote_back = now_ + 20e-6 * static_cast<double>(1u << k);
  }
  set_activity(w, w.asked_from);
  next_stage(w);
}

// One turn of seek_work (idle) or of help at a join (waiting).
void simulator::turn(worker& w) {
  w.dormant = false;
  if (w.act == activity::waiting) {
    const frame& f = w.frames.back();
    if (f.pending == 0) {
      resume_after_join(w);
      return;
    }
    w.stage = 0;
  } else {
    w.stage = 1;
  }
  next_stage(w);
}

void simulator::next_stage(worker& w) {
  bool waiting = w.act == activity::waiting;
  bool may_nest = !waiting || w.depth < m_.max_nesting;
  if (w.stage == 0) w.blocked_on = -1;
  for (;;) {
    int stage = w.stage++;
    if (stage == 0) {
      // Steal back from the thief of the newest piece still out.
      const frame& f = w.frames.back();
      int target = -1;
      for (auto it = f.given.rbegin(); it != f.given.rend(); ++it)
        if (!pieces_[static_cast<std::size_t>(*it)].done) {
          target = *it;
          break;
        }
      if (target < 0) continue;
      const piece& pc = pieces_[static_cast<std::size_t>(target)];
      if (pc.thief < 0) continue;  // still on its way to another process
      if (pc.remote) {
        if (now_ < w.next_remote_back) continue;
        remote_steal_back(w, target);
        return;
      }
      worker& t = workers_[static_cast<std::size_t>(pc.thief)];
      if (certain_refusal(t, target)) {
        w.blocked_on = t.id;
        continue;
      }
      if (post_request(w, w.id, t, target)) {
        w.asked_from = w.act;
        set_activity(w, activity::asking);
        return;
      }
      continue;
    }
    if (stage == 1) {
      if (!may_nest) continue;
      int v = choose_local_victim(w);
      if (v >= 0 && certain_refusal(workers_[static_cast<std::size_t>(v)], -1)) continue;
      if (v >= 0 && post_request(w, w.id, workers_[static_cast<std::size_t>(v)], -1)) {
        w.asked_from = w.act;
        set_activity(w, activity::asking);
        return;
      }
      continue;
    }
    // Stage 2: a piece from another process, else back off.
    if (take_inbox(w, may_nest)) return;
    back_off(w);
    return;
  }
}

// A victim that is not running a unit can give only from its known frames,
// and those do not change before it answers: when none has work left the
// answer is a refusal, settled here without the three events of a request
// (an approximation of the simulator, for speed: the refusal costs the
// asker no time).
bool simulator::certain_refusal(worker& v, int wanted) {
  if (v.requester != -1) return false;
  std::size_t lo = 0, hi = v.frames.size();
  if (wanted >= 0) {
    lo = hi;
    for (std::size_t i = 0; i < v.frames.size(); ++i)
      if (v.frames[i].piece == wanted) {
        lo = i;
        break;
      }
    for (std::size_t i = lo + 1; i < v.frames.size(); ++i)
      if (v.frames[i].piece >= 0) {
        hi = i;
        break;
      }
  }
  // The running unit may hide work, unless it belongs to a piece nested
  // above the eligible frames.
  if (v.act == activity::working && hi == v.frames.size()) return false;
  for (std::size_t i = lo; i < hi; ++i)
    if (v.frames[i].cur >= 0 && v.frames[i].next < v.frames[i].end) return false;
  ++res_.requests;
  ++res_.refusals;
  return true;
}

// A waiting worker that naps and can only steal back from a thief whose
// piece has nothing to give (the thief runs other work nested above it)
// sleeps in the simulator until that thief finishes a piece or one of its
// own pieces comes back; it then resumes at the next boundary of its naps,
// as the real one would have found it.
void simulator::wake_blocked(worker& w) {
  if (!w.blocked) return;
  w.blocked = false;
  double nap = w.failures < 1024 ? 20e-6 : 100e-6;
  double k = std::max(1.0, std::ceil((now_ - w.blocked_since) / nap));
  w.failures += static_cast<unsigned>(k) - 1;
  ++w.ver;
  q_.post(w.blocked_since + k * nap, ev::attempt, w.id, 0, w.ver);
}

void simulator::wake_watchers(worker& t) {
  std::vector<int> ws;
  ws.swap(t.watchers);
  for (int i : ws) wake_blocked(workers_[static_cast<std::size_t>(i)]);
}

void simulator::back_off(worker& w) {
  ++w.failures;
  const process& q = procs_[static_cast<std::size_t>(w.proc)];
  if (w.act == activity::idle && q.busy == 0) {
    // Nobody here has work: the turns would only be refused. Wait for a
    // piece from another process or for a worker here to start one.
    w.dormant = true;
    return;
  }
  if (w.act == activity::waiting && w.failures >= 256 && w.blocked_on >= 0 && w.depth >= m_.max_nesting) {
    w.blocked = true;
    w.blocked_since = now_;
    workers_[static_cast<std::size_t>(w.blocked_on)].watchers.push_back(w.id);
    return;
  }
  const local_costs& c = m_.costs;
  double d;
  if (w.failures < 8) {
    d = c.loop;
  } else if (w.failures < 256) {
    // sched_yield turns, simulated `spin_quantum` at a time.
    double turns = std::max(1.0, std::floor(c.spin_quantum / c.yield));
    d = turns * c.yield;
    w.failures += static_cast<unsigned>(turns) - 1;
  } else if (w.failures < 1024) {
    // 20 us naps, simulated nap_quantum at a time.
    double naps = std::max(1.0, std::floor(c.nap_quantum / 20e-6));
    d = naps * 20e-6;
    w.failures += static_cast<unsigned>(naps) - 1;
  } else {
    d = std::max(100e-6, c.nap_quantum);
  }
  if (w.failures >= 256) w.dormant = true;  // napping: a request wakes it
  ++w.ver;
  q_.post(now_ + d, ev::attempt, w.id, 0, w.ver);
}

// TASCELL_VICTIM: busy (a worker running a piece, up to n random tries) or random.
int simulator::choose_local_victim(worker& w) {
  const process& q = procs_[static_cast<std::size_t>(w.proc)];
  int n = static_cast<int>(q.workers.size());
  if (n < 2) return -1;
  auto pick = [&] {
    int k = static_cast<int>(rng_() % static_cast<std::uint64_t>(n - 1));
    int self = w.id - q.workers.front();
    if (k >= self) ++k;
    return q.workers[static_cast<std::size_t>(k)];
  };
  if (m_.local == local_choice::busy) {
    if (q.busy == 0 || (q.busy == 1 && !w.frames.empty())) return pick();
    for (int tries = 0; tries < n; ++tries) {
      int v = pick();
      if (!workers_[static_cast<std::size_t>(v)].frames.empty()) return v;
    }
  }
  return pick();
}

bool simulator::take_inbox(worker& w, bool may_nest) {
  process& q = procs_[static_cast<std::size_t>(w.proc)];
  if (q.inbox >= 0) {
    int p = q.inbox;
    q.inbox = -1;
    if (q.asked_at >= 0) res_.remote_steal.push_back(now_ + m_.costs.start - q.asked_at);
    q.asked_at = -1;
    w.failures = 0;
    run_piece(w, p);
    return true;
  }
  if (may_nest && !w.hungry) {
    w.hungry = true;
    ++q.hungry;
    on_hungry(w);
  }
  return false;
}

// A worker of the process started a piece: the dormant ones try again.
void simulator::wake_process(int proc) {
  for (int i : procs_[static_cast<std::size_t>(proc)].workers) {
    worker& x = workers_[static_cast<std::size_t>(i)];
    if (!x.dormant || x.act != activity::idle) continue;
    x.dormant = false;
    x.failures = 0;
    ++x.ver;
    q_.post(now_ + m_.costs.wake, ev::attempt, x.id, 0, x.ver);
  }
}

}  // namespace scaling
