// Between processes (runtime/src/net/steal_protocol.cpp, network.cpp): one
// message thread per process, which alone sends and receives. A process
// asks another only when all its workers are hungry, with one request out
// at a time; the victim process posts a proxy's request to a busy worker of
// its own, which gives at its next poll as for a local thief.
#include <algorithm>

#include "simulator.hpp"

namespace scaling {

int simulator::load_of(int proc) const { return procs_[static_cast<std::size_t>(proc)].busy; }

bool simulator::all_hungry(int proc) const {
  const process& q = procs_[static_cast<std::size_t>(proc)];
  return q.hungry == static_cast<int>(q.workers.size());
}

void simulator::heard_load(process& q, int from, int load) {
  int& l = q.loads[static_cast<std::size_t>(from)];
  if ((l == 0) != (load == 0)) q.zero_loads += load == 0 ? 1 : -1;
  l = load;
}

// When a message that arrived at `arrival` is seen by q's message thread:
// it sleeps between turns, 20 us while an answer is due or another process
// is idle, else doubling up to 1 ms; it does not sleep while its process
// waits for work with every worker idle. With rings, the message wakes it.
double simulator::notice_delay(process& q, double arrival) {
  const network_costs& n = m_.net;
  int self = static_cast<int>(&q - procs_.data());
  if (q.asking && all_hungry(self)) return 0;
  if (n.rings) return n.ring_wake;
  double interval = n.poll_urgent;
  bool urgent = q.asking || q.zero_loads > 0;
  if (!urgent) interval = std::clamp(arrival - q.last_active, n.poll_urgent, n.poll_max);
  return uniform(interval) + n.wake;
}

// A worker's event wakes the thread at once; it handles one thing at a time.
double simulator::thread_turn(process& q, double ready) {
  double start = std::max(ready + m_.net.wake, q.thread_free);
  q.thread_free = start + m_.net.handle;
  q.last_active = start;
  charge_thread(q);
  return q.thread_free;
}

// --thread-cpu: the message thread runs on the core of a worker of its
// process (a host with a core per worker), which loses that much time per
// turn of the thread (its wake-up, its work, the switches back and forth).
void simulator::charge_thread(process& q) {
  double x = m_.net.thread_cpu;
  if (x <= 0) return;
  for (int id : q.workers) {
    worker& w = workers_[static_cast<std::size_t>(id)];
    if (w.act != activity::working) continue;
    sync(w);
    w.resume_at = std::max(w.resume_at, now_) + x;
    schedule_unit(w);
    return;
  }
}

void simulator::send(int from, int to, msg type, int p, int back_worker, double at) {
  messages_.push_back({type, from, to, load_of(from), p, back_worker});
  const network_costs& n = m_.net;
  double bytes = type == msg::work ? static_cast<double>(n.piece_bytes + tree_.piece_bytes())
                 : type == msg::result ? static_cast<double>(n.result_bytes)
                                       : 32.0;
  double arrival = at + n.latency + bytes / n.bandwidth;
  double seen = arrival + notice_delay(procs_[static_cast<std::size_t>(to)], arrival);
  q_.post(seen, ev::message, static_cast<int>(messages_.size() - 1));
  ++res_.messages;
}

void simulator::on_hungry(worker& w) { maybe_ask(w.proc); }

void simulator::maybe_ask(int proc) {
  process& q = procs_[static_cast<std::size_t>(proc)];
  if (m_.processes < 2 || q.asking || q.inbox >= 0 || q.ask_posted || !all_hungry(proc)) return;
  q.ask_posted = true;
  q_.post(std::max(now_ + m_.net.wake, q.next_ask), ev::ask, proc);
}

void simulator::on_ask(int proc) {
  process& q = procs_[static_cast<std::size_t>(proc)];
  q.ask_posted = false;
  if (q.asking || q.inbox >= 0 || !all_hungry(proc)) return;
  if (now_ < q.next_ask) {
    q.ask_posted = true;
    q_.post(q.next_ask, ev::ask, proc);
    return;
  }
  int to = choose_remote_victim(proc);
  q.asking = true;
  q.asking_rank = to;
  q.asked_at = now_;
  ++res_.remote_asks;
  double t = std::max(now_, q.thread_free) + m_.net.handle;
  q.thread_free = t;
  q.last_active = now_;
  charge_thread(q);
  send(proc, to, msg::request, -1, -1, t);
}

// TASCELL_REMOTE_VICTIM: random, or loaded (the highest load heard of; ties
// and no news at random). hierarchical is a model-only proposal: loaded
// inside a group of m_.group neighbouring ranks first, then loaded over all.
int simulator::choose_remote_victim(int proc) {
  const process& q = procs_[static_cast<std::size_t>(proc)];
  int P = m_.processes;
  auto random_other = [&](int lo, int hi) {  // in [lo, hi), not proc
    int span = hi - lo - ((proc >= lo && proc < hi) ? 1 : 0);
    if (span <= 0) return -1;
    int v = lo + static_cast<int>(rng_() % static_cast<std::uint64_t>(span));
    if (proc >= lo && proc < hi && v >= proc) ++v;
    return v;
  };
  auto loaded_in = [&](int lo, int hi) {
    int start = random_other(lo, hi);
    if (start < 0) return -1;
    int best = -1, best_load = 0;
    for (int k = 0; k < hi - lo; ++k) {
      int r = lo + (start - lo + k) % (hi - lo);
      if (r == proc) continue;
      int l = q.loads[static_cast<std::size_t>(r)];
      if (l > best_load) {
        best = r;
        best_load = l;
      }
    }
    return best;
  };
  if (m_.remote == remote_choice::loaded) {
    int v = loaded_in(0, P);
    return v >= 0 ? v : random_other(0, P);
  }
  if (m_.remote == remote_choice::hierarchical) {
    int g0 = proc / m_.group * m_.group, g1 = std::min(P, g0 + m_.group);
    // While refusals in a row stay below the group's size, stay in the group.
    if (q.refusals < g1 - g0 - 1) {
      int v = loaded_in(g0, g1);
      if (v >= 0) return v;
      v = random_other(g0, g1);
      if (v >= 0) return v;
    }
    int v = loaded_in(0, P);
    return v >= 0 ? v : random_other(0, P);
  }
  return random_other(0, P);
}

int simulator::new_proxy(int proc, int from, int wanted, int back_worker) {
  int id;
  if (!free_proxies_.empty()) {
    id = free_proxies_.back();
    free_proxies_.pop_back();
  } else {
    id = static_cast<int>(proxies_.size());
    proxies_.emplace_back();
  }
  proxy& px = proxies_[static_cast<std::size_t>(id)];
  px = proxy{};
  px.proc = proc;
  px.from = from;
  px.wanted = wanted;
  px.back_worker = back_worker;
  px.free = false;
  return id;
}

// Posts the proxy's request to a busy worker not tried yet.
bool simulator::ask_local(int id) {
  proxy& px = proxies_[static_cast<std::size_t>(id)];
  const process& q = procs_[static_cast<std::size_t>(px.proc)];
  int n = static_cast<int>(q.workers.size());
  if (m_.largest_first) {
    // Model-only proposal: ask the worker whose oldest point with work
    // left would give the most (as if each worker published it).
    int best = -1;
    double best_work = -1;
    for (int v : q.workers) {
      const worker& x = workers_[static_cast<std::size_t>(v)];
      if (x.frames.empty() || x.requester != -1) continue;
      if (std::find(px.tried.begin(), px.tried.end(), v) != px.tried.end()) continue;
      double w = 0;
      for (const frame& f : x.frames)
        if (f.cur >= 0 && f.next < f.end) {
          int lo = f.end - (f.end - f.next + 1) / 2;
          for (int i = lo; i < f.end; ++i) w += (*f.its)[static_cast<std::size_t>(i)].work;
          break;
        }
      if (w == 0 && x.act == activity::working) w = x.rem * 0.5;  // inside its running unit
      if (w > best_work) {
        best_work = w;
        best = v;
      }
    }
    if (best >= 0) {
      worker& x = workers_[static_cast<std::size_t>(best)];
      if (post_request(x, proxy_requester(id), x, -1)) {
        px.victim = best;
        return true;
      }
    }
  }
  int start = static_cast<int>(rng_() % static_cast<std::uint64_t>(n));
  if (m_.giver_largest) {
    // The runtime's rule (steal_protocol.cpp, ask_local): the shallowest
    // published offer; ties from a random start.
    int best = -1;
    for (int k = 0; k < n; ++k) {
      int v = q.workers[static_cast<std::size_t>((start + k) % n)];
      const worker& x = workers_[static_cast<std::size_t>(v)];
      if (x.frames.empty()) continue;
      if (std::find(px.tried.begin(), px.tried.end(), v) != px.tried.end()) continue;
      if (best < 0 || x.offer_depth < workers_[static_cast<std::size_t>(best)].offer_depth) best = v;
    }
    if (best >= 0) {
      worker& x = workers_[static_cast<std::size_t>(best)];
      if (post_request(x, proxy_requester(id), x, -1)) {
        px.victim = best;
        return true;
      }
    }
  }
  for (int k = 0; k < n; ++k) {
    int v = q.workers[static_cast<std::size_t>((start + k) % n)];
    worker& x = workers_[static_cast<std::size_t>(v)];
    if (x.frames.empty()) continue;
    if (std::find(px.tried.begin(), px.tried.end(), v) != px.tried.end()) continue;
    if (post_request(x, proxy_requester(id), x, -1)) {
      px.victim = v;
      return true;
    }
  }
  return false;
}

void simulator::on_message(int mi) {
  message m = messages_[static_cast<std::size_t>(mi)];
  process& q = procs_[static_cast<std::size_t>(m.to)];
  if (q.thread_free > now_) {  // the thread is still busy with earlier work
    q_.post(q.thread_free, ev::message, mi);
    return;
  }
  q.thread_free = now_ + m_.net.handle;
  q.last_active = now_;
  charge_thread(q);
  double t = q.thread_free;
  heard_load(q, m.from, m.load);
  switch (m.type) {
    case msg::request: {
      if (m.piece >= 0) {
        // Steal back: only the wanted piece's thief, from that piece's frames.
        const piece& pc = pieces_[static_cast<std::size_t>(m.piece)];
        int id = new_proxy(m.to, m.from, m.piece, m.back_worker);
        if (!pc.done && pc.thief >= 0 &&
            post_request(workers_[static_cast<std::size_t>(pc.thief)], proxy_requester(id),
                         workers_[static_cast<std::size_t>(pc.thief)], m.piece)) {
          proxies_[static_cast<std::size_t>(id)].victim = pc.thief;
          return;
        }
        proxies_[static_cast<std::size_t>(id)].free = true;
        free_proxies_.push_back(id);
        send(m.to, m.from, msg::refuse, -1, m.back_worker, t);
        return;
      }
      int id = new_proxy(m.to, m.from, -1, -1);
      if (ask_local(id)) return;
      proxies_[static_cast<std::size_t>(id)].free = true;
      free_proxies_.push_back(id);
      send(m.to, m.from, msg::refuse, -1, -1, t);
      return;
    }
    case msg::work: {
      if (m.back_worker >= 0) {
        q_.post(t + m_.costs.signal, ev::reply, m.back_worker, m.piece);
        return;
      }
      q.asking = false;
      q.refusals = 0;
      q.inbox = m.piece;
      // Hungry workers are woken; the first takes it.
      for (int i : q.workers) {
        worker& x = workers_[static_cast<std::size_t>(i)];
        if (x.act == activity::idle || x.act == activity::waiting) {
          x.dormant = false;
          ++x.ver;
          q_.post(t + m_.net.take, ev::attempt, x.id, 0, x.ver);
          break;
        }
      }
      return;
    }
    case msg::refuse: {
      if (m.back_worker >= 0) {
        q_.post(t + m_.costs.signal, ev::reply, m.back_worker, -1);
        return;
      }
      ++res_.remote_refusals;
      q.asking = false;
      heard_load(q, m.from, 0);
      ++q.refusals;
      // Ask the next victim at once until every other process has refused
      // in a row; then wait 5 us, doubling up to 1 ms.
      int over = q.refusals - (m_.processes - 1);
      double wait = over < 0 ? 0 : std::min(1e-3, 5e-6 * static_cast<double>(1 << std::min(over, 8)));
      q.next_ask = now_ + wait;
      maybe_ask(m.to);
      return;
    }
    case msg::result: {
      piece& pc = pieces_[static_cast<std::size_t>(m.piece)];
      pc.done = true;
      worker& v = workers_[static_cast<std::size_t>(pc.victim)];
      --v.frames[static_cast<std::size_t>(pc.victim_frame)].pending;
      wake_blocked(v);
      return;
    }
  }
}

void simulator::on_proxy_reply(int id, int p) {
  proxy& px = proxies_[static_cast<std::size_t>(id)];
  process& q = procs_[static_cast<std::size_t>(px.proc)];
  double t = std::max(now_, q.thread_free) + m_.net.handle;
  q.thread_free = t;
  q.last_active = now_;
  charge_thread(q);
  px.tried.push_back(px.victim);
  px.victim = -1;
  if (p >= 0) {
    if (px.wanted < 0) heard_load(q, px.from, 1);  // it has work now
    send(px.proc, px.from, msg::work, p, px.back_worker, t);
  } else {
    if (px.wanted < 0 && ask_local(id)) return;
    send(px.proc, px.from, msg::refuse, -1, px.back_worker, t);
  }
  px.free = true;
  free_proxies_.push_back(id);
}

// A worker waiting for a piece that runs in another process asks through
// the piece's proxy; it spins until the answer comes.
void simulator::remote_steal_back(worker& w, int p) {
  const piece& pc = pieces_[static_cast<std::size_t>(p)];
  int to = workers_[static_cast<std::size_t>(pc.thief)].proc;
  w.wanted = p;
  w.asked_from = w.act;
  set_activity(w, activity::asking);
  double t = thread_turn(procs_[static_cast<std::size_t>(w.proc)], now_);
  ++res_.requests;
  send(w.proc, to, msg::request, p, w.id, t);
}

}  // namespace scaling
