// The discrete-event simulator of the stealing protocol of runtime/src (one
// process: request.cpp, serve.cpp, join.cpp; several: net/steal_protocol.cpp,
// net/network.cpp). Its parts live in their own files:
//   simulator.cpp        the event loop, statistics, processor sharing
//   execution.cpp        running a chain: units, frames, joins, expansion
//   give.cpp             temporary backtracking: which point gives what
//   local_protocol.cpp   requests inside a process, idle and waiting loops
//   remote_protocol.cpp  the message thread: asking other processes, proxies
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "event_queue.hpp"
#include "params.hpp"
#include "state.hpp"
#include "tree.hpp"

namespace scaling {

struct result {
  double seconds = 0;        // the root call, first event to last
  double work = 0;           // the tree's work on one worker (seconds)
  double executed = 0;       // work the workers actually ran (must equal work)
  std::int64_t pieces_local = 0, pieces_remote = 0, steal_backs = 0;
  std::int64_t requests = 0, refusals = 0, messages = 0, remote_asks = 0, remote_refusals = 0;
  std::int64_t events = 0;
  std::int64_t unwindings = 0;  // gives that unwound lazy frames (machine's unwind_frame > 0)
  double unwound_frames = 0;    // the frames they saved and rebuilt (expected values, summed)
  std::vector<double> remote_steal;  // request sent -> piece taken by a worker, per steal (s)
  double median_remote_steal() const;
  double work_time = 0, idle_time = 0, wait_time = 0;  // summed over workers
  double efficiency() const;   // work / (workers * seconds)
  int workers = 0;
};

class simulator {
 public:
  simulator(tree_model& tree, const machine& m);
  result run();

 private:
  // simulator.cpp
  double rate() const;
  void set_activity(worker& w, activity a);
  void rescale();
  double uniform(double hi);

  // execution.cpp
  void sync(worker& w);
  void schedule_unit(worker& w);
  void advance(worker& w);
  void run_piece(worker& w, int p);
  void finish_piece(worker& w, int p);
  void piece_done(int p);
  void become_idle(worker& w);
  void start_waiting(worker& w);
  bool expand_top(worker& w);
  void resume_after_join(worker& w);

  // give.cpp
  int give(worker& v, int requester, int wanted);
  int give_from(worker& v, int fi, int requester);

  // local_protocol.cpp
  bool post_request(worker& thief_or_none, int requester, worker& v, int wanted);
  void serve(worker& v);
  void on_reply(worker& w, int p);
  void turn(worker& w);
  void next_stage(worker& w);
  void back_off(worker& w);
  bool certain_refusal(worker& v, int wanted);
  void wake_blocked(worker& w);
  void wake_watchers(worker& t);
  int choose_local_victim(worker& w);
  bool take_inbox(worker& w, bool may_nest);
  void wake_process(int proc);

  // remote_protocol.cpp
  void send(int from, int to, msg type, int piece, int back_worker, double at);
  double notice_delay(process& q, double arrival);
  double thread_turn(process& q, double ready);
  void charge_thread(process& q);
  void maybe_ask(int proc);
  void on_ask(int proc);
  int choose_remote_victim(int proc);
  void on_message(int m);
  void on_proxy_reply(int px, int p);
  bool ask_local(int px);
  int new_proxy(int proc, int from, int wanted, int back_worker);
  void heard_load(process& q, int from, int load);
  int load_of(int proc) const;
  bool all_hungry(int proc) const;
  void remote_steal_back(worker& w, int p);
  void on_hungry(worker& w);

  tree_model& tree_;
  machine m_;
  std::mt19937_64 rng_;
  event_queue q_;
  double now_ = 0;
  double end_ = -1;
  std::vector<worker> workers_;
  std::vector<process> procs_;
  std::vector<piece> pieces_;
  std::vector<proxy> proxies_;
  std::vector<int> free_proxies_;
  std::vector<message> messages_;
  int working_ = 0;
  double unwound_ = 0;  // frames the last give() unwound
  double executed_ = 0;
  result res_;
};

}  // namespace scaling
