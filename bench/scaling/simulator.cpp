#include "simulator.hpp"

#include <algorithm>
#include <stdexcept>

namespace scaling {

double result::median_remote_steal() const {
  if (remote_steal.empty()) return 0;
  std::vector<double> x = remote_steal;
  std::nth_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(x.size() / 2), x.end());
  return x[x.size() / 2];
}

double result::efficiency() const { return seconds > 0 ? work / (workers * seconds) : 0; }

simulator::simulator(tree_model& tree, const machine& m) : tree_(tree), m_(m), rng_(m.seed) {
  if (m.processes < 1 || m.workers < 1) throw std::invalid_argument("processes and workers must be >= 1");
  if (m.extra > 0) ++m_.processes;  // from here on m_.processes counts every process
  int n = m.processes * m.workers + m.extra;
  workers_.resize(static_cast<std::size_t>(n));
  procs_.resize(static_cast<std::size_t>(m_.processes));
  for (int i = 0; i < n; ++i) {
    int proc = i / m.workers;
    workers_[static_cast<std::size_t>(i)].id = i;
    workers_[static_cast<std::size_t>(i)].proc = proc;
    procs_[static_cast<std::size_t>(proc)].workers.push_back(i);
  }
  for (auto& p : procs_) {
    p.loads.assign(static_cast<std::size_t>(m_.processes), 0);
    p.zero_loads = m_.processes - 1;
  }
}

double simulator::uniform(double hi) {
  return std::uniform_real_distribution<double>(0, hi)(rng_);
}

// Processor sharing: with fewer cores than working workers, each runs at
// cores / working of full speed (idle and waiting workers are assumed to
// yield their core).
double simulator::rate() const {
  if (m_.cores <= 0 || working_ <= m_.cores) return 1.0;
  return static_cast<double>(m_.cores) / working_;
}

void simulator::rescale() {
  for (auto& w : workers_)
    if (w.act == activity::working) schedule_unit(w);
}

void simulator::set_activity(worker& w, activity a) {
  double span = now_ - w.since;
  switch (w.act) {
    case activity::working: w.work_time += span; break;
    case activity::waiting: w.wait_time += span; break;
    case activity::idle: w.idle_time += span; break;
    case activity::asking:
      (w.asked_from == activity::waiting ? w.wait_time : w.idle_time) += span;
      break;
  }
  w.since = now_;
  bool was = w.act == activity::working, is = a == activity::working;
  if (was == is) {
    w.act = a;
    return;
  }
  // Leaving `working` freezes the unit's progress at the current rate; with
  // processor sharing every working worker's progress is brought up to date
  // at the old rate before the rate changes.
  bool shared = m_.cores > 0;
  if (shared) {
    for (auto& x : workers_)
      if (x.act == activity::working) sync(x);
  } else if (was) {
    sync(w);
  }
  working_ += is ? 1 : -1;
  w.act = a;
  if (shared) rescale();
}

result simulator::run() {
  res_ = {};
  res_.workers = static_cast<int>(workers_.size());
  res_.work = tree_.root_work();
  // The root call: worker 0 of process 0 runs the root task.
  pieces_.push_back({});
  piece& root = pieces_.back();
  root.node = tree_.root();
  root.its = std::make_shared<const std::vector<iteration>>(std::vector<iteration>{{res_.work, tree_.root()}});
  root.lo = 0;
  root.hi = 1;
  root.work = res_.work;
  for (auto& w : workers_) {
    w.act = activity::idle;
    if (w.id != 0) q_.post(0, ev::attempt, w.id, 0, w.ver);
  }
  run_piece(workers_[0], 0);

  while (!q_.empty() && end_ < 0) {
    event e = q_.pop();
    now_ = e.t;
    switch (e.kind) {
      case ev::unit_done: {
        worker& w = workers_[static_cast<std::size_t>(e.a)];
        if (e.ver != w.ver || w.act != activity::working) break;
        executed_ += w.rem;
        w.rem = 0;
        advance(w);
        break;
      }
      case ev::serve: serve(workers_[static_cast<std::size_t>(e.a)]); break;
      case ev::reply: on_reply(workers_[static_cast<std::size_t>(e.a)], e.b); break;
      case ev::attempt: {
        worker& w = workers_[static_cast<std::size_t>(e.a)];
        if (e.ver != w.ver) break;
        if (w.act == activity::idle || w.act == activity::waiting) turn(w);
        break;
      }
      case ev::proxy_reply: on_proxy_reply(e.a, e.b); break;
      case ev::message: on_message(e.a); break;
      case ev::ask: on_ask(e.a); break;
    }
  }
  if (end_ < 0) throw std::logic_error("the simulation ran out of events before the root call ended");
  for (auto& w : workers_) set_activity(w, w.act == activity::working ? activity::idle : w.act);
  res_.seconds = end_;
  res_.executed = executed_;
  res_.events = static_cast<std::int64_t>(q_.posted());
  for (auto& w : workers_) {
    res_.work_time += w.work_time;
    res_.idle_time += w.idle_time;
    res_.wait_time += w.wait_time;
  }
  return res_;
}

}  // namespace scaling
