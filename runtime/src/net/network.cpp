// The message thread: MPI set-up and tear-down, the loop, batching of
// messages per destination, sends in flight, back-off, and ending the run
// on every process when something fails.
//
// Why the loop cannot deadlock: it never blocks in MPI. It receives with
// MPI_Iprobe + MPI_Recv of a message that has already arrived, sends with
// MPI_Isend and reaps completed sends with MPI_Test, and every step of the
// protocol is an answer computed from local state without waiting for
// another message. So whatever the pattern of messages, every process keeps
// draining its incoming messages, which lets every send complete.
#include "network.hpp"

#include <mpi.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <stdexcept>
#include <utility>

#include "backoff.hpp"
#include "registry.hpp"
#include "worker_face.hpp"
#include "tascell/detail/testing.hpp"
#include "tascell/incumbent.hpp"
#include "tascell/root.hpp"

namespace tascell::detail::net {
namespace {

using clock = std::chrono::steady_clock;

}  // namespace

bool launched_by_mpi(const settings& cfg) {
  if (cfg.mpi == mpi_use::on) return true;
  if (cfg.mpi == mpi_use::off) return false;
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

network::network(host& h, const settings& cfg) : host_(h), cfg_(cfg) {
  std::future<std::string> started = started_.get_future();
  thread_ = std::thread([this] { thread_main(); });
  std::string error = started.get();
  if (!error.empty()) {
    thread_.join();
    throw std::runtime_error(error);
  }
}

network::network(host& h, const settings& cfg, transport& link, int rank, int size)
    : host_(h), cfg_(cfg), at_{rank, size, 0, 1, cpu_sharing::alone} {
  loop_.use(link);
  std::uint64_t seed = (cfg.seed ? cfg.seed : 1) | 1u;
  root_.place(at_.rank, at_.size, seed);
  steal_.place(at_.rank, at_.size, seed);
  tables_.place(at_.rank, at_.size);
  out_.place(at_.size, &loop_.link());
}

void network::share_requests_for_testing(const std::vector<char*>& objects) {
  steal_.share_for_testing(objects, host_.workers());
}

network::~network() {
  // Under the queue's lock: the message thread closes the bell under it,
  // once it has seen shutdown_.
  events_.stop(shutdown_);
  if (thread_.joinable()) thread_.join();
}

void network::place_worker(int i, void* region) { steal_.place_worker(i, region); }

void network::init_mpi(std::string& error) {
  mpi_ = mpi_transport::start(error);
  if (!mpi_) return;
  at_.rank = mpi_->rank();
  at_.size = mpi_->size();
  // The seed of the choice of victims (TASCELL_SEED, else the clock).
  std::uint64_t seed =
      (cfg_.seed ? cfg_.seed : static_cast<std::uint64_t>(clock::now().time_since_epoch().count())) | 1u;
  root_.place(at_.rank, at_.size, seed);
  steal_.place(at_.rank, at_.size, seed);
  tables_.place(at_.rank, at_.size);
  loop_.use(*mpi_);
  set_rank(at_.rank);
  mpi_->leave_priority_for_long_receives(&loop_.priority());
  mpi_transport::machine m = mpi_->this_machine();
  // The processes of other machines (those not in this machine's communicator).
  std::vector<bool> other(static_cast<std::size_t>(at_.size), true);
  other[static_cast<std::size_t>(at_.rank)] = false;
  for (int r : m.members)
    if (r >= 0 && r < at_.size) other[static_cast<std::size_t>(r)] = false;
  bool afar = std::find(other.begin(), other.end(), true) != other.end();
  if (cfg_.net_delay_us > 0 || cfg_.net_bandwidth_mbit > 0) {
    // TASCELL_NET_DELAY_US, TASCELL_NET_BANDWIDTH_MBIT: the links to them,
    // as over a slower network.
    mpi_->delay_to(other, slow_link(std::chrono::microseconds(cfg_.net_delay_us),
                                    std::int64_t{cfg_.net_bandwidth_mbit} * 1'000'000));
  }
  if (m.ok) {
    at_.local_rank = m.rank;
    at_.local_size = m.size;
    at_.cpus = m.cpus;
    loop_.bell().open(m.node, at_.rank, at_.size);
    // Requests between processes of this machine through shared memory;
    // the seed's loop (the baseline) keeps MPI.
    if (at_.local_size > 1)
      steal_.open_shared(m.node, cfg_.node_requests == request_path::shared && cfg_.loop == message_loop::adaptive,
                         cfg_.workers);
    mpi_transport::free_machine(m);
  }
  // Batches from other machines ring too (remote_bell.hpp): collective
  // whenever some process is elsewhere (then every process is elsewhere to
  // some); a process that does not want it publishes no socket, and then
  // none rings. The seed's loop (the baseline) keeps polling.
  bool afar_rings = false;
  if (afar) {
    bool want = cfg_.wake_from_afar == remote_wake::ring && cfg_.loop == message_loop::adaptive;
    afar_rings = mpi_->ring_other_machines(remote_, other, want);
    if (afar_rings) loop_.bell().sleep_on(remote_.fd(), remote_.port());
  }
  // Every other process's batches ring this one: those of this machine
  // through the shared bell, those of other machines through the socket
  // (once a ring from each has been heard: pause()).
  rings_.every_other_rings = m.ok || !afar;
  for (int r = 0; r < at_.size; ++r)
    rings_.every_other_rings = rings_.every_other_rings &&
                               (r == at_.rank || loop_.bell().rings_for(r) || (afar_rings && other[static_cast<std::size_t>(r)]));
  out_.place(at_.size, mpi_.get());
  mpi_->check_same_binary();
  if (!cfg_.trace.empty()) loop_.trace().start(static_cast<std::size_t>(cfg_.trace_records), mpi_->align_clocks());
}

void network::detach() {
  events_.quiesce();
  loop_.attach(false);
  events_.quiesce();  // a turn of the loop that began before the store has ended
}

void network::send_raw(int to, std::string bytes) {
  events_.post({event::raw, nullptr, 0, to, std::move(bytes)});
}

void network::thread_main() {
  thread_priority::ask_for_prompt_wakeups();
  std::string error;
  init_mpi(error);
  if (error.empty()) {
    error = loop_.priority().take(cfg_.priority, at_.rank);
    // Before the runtime goes on: a SIGUSR1 from then on finds the handler
    // (mpirun forwards one to every process at any time).
    catch_dump_signal();
  }
  bool failed = !error.empty();
  started_.set_value(std::move(error));  // the constructor goes on, or throws it
  if (failed) return;
  if (at_.size > 1) spreading.store(true);
  message_trace& trace = loop_.trace();
  trace.begin_spans();

  while (!shutdown_.load(std::memory_order_acquire)) {
    if (remote_.is_open()) remote_.drain_if_due();
    rings_.turn_begins(loop_.bell());
    bool progress = turn();
    if (!progress) {
      pause();
    } else if (cfg_.loop == message_loop::adaptive && gave_workers_work_) {
      // A local worker has something to do that the next turn would only
      // wait for: let it have the core now (the message thread shares it
      // with a worker when processes are bound to cores). Its answer to a
      // proxy rings the bell; hungry workers yield, so work in the inbox
      // starts at once.
      pause();
    } else if (trace.asleep()) {
      trace.span(false);
    }
  }
  if (trace.on()) trace.span(false);
  // At exit (the runtime has detached: every event is sent on): let the
  // last sends complete, then leave MPI together. At normal priority: the
  // collectives below spin, and two processes whose real-time message
  // threads shared one CPU hung there, the spinning one never letting the
  // other run (SCHED_FIFO; seen with taskset -c 1 on 2 processes, 4 runs
  // of 4).
  loop_.priority().leave();
  out_.flush();
  auto deadline = loop_.now() + std::chrono::seconds(10);
  while (loop_.link().sending() || out_.queued()) {
    reap_sends();
    receive_all();
    out_.flush();
    if (loop_.now() > deadline) break;
  }
  steal_.close_shared();
  events_.close_bell();
  mpi_->finish();
}

bool network::turn() {
  std::lock_guard<std::mutex> turn_held(loop_.turn_lock());
  bool progress = false;
  steal_.begin_turn();
  // What workers handed over first (a piece a proxy got goes out before
  // this turn's probes), then what arrived.
  progress |= take_events();
  progress |= tables_.take_handed();
  progress |= tables_.arrivals().retry_held();
  if (worker_face* pw = workers_.take_proxy_to_describe()) [[unlikely]]
    steal_.describe(pw);
  if (dump_asked.load(std::memory_order_relaxed)) [[unlikely]]
    if (dump_asked.exchange(false, std::memory_order_acq_rel)) describe_all();
  steal_.victim().adopt_posted_requests();
  progress |= steal_.victim().tend_proxies();
  progress |= out_.flush();
  progress |= steal_.mail().take_results();
  progress |= receive_all();
  progress |= steal_.thief().ask_for_work();
  if (cfg_.watchdog_s != 0) steal_.thief().watch();
  progress |= steal_.thief().keep_worker_post();
  progress |= tend_root();
  progress |= out_.flush();
  progress |= reap_sends();
  events_.turn_ended();
  // Rung for a message that this turn did not find: it is on its way but
  // not visible to MPI_Iprobe yet, so look again soon (the back-off
  // starts over). A ring whose message was received asks for nothing
  // more: the sender rings again when it sends again.
  // A thief of this machine is writing its shared-memory request: look
  // again soon too.
  if (rings_.rung_not_received() || remote_.rung_not_received() || steal_.victim().claims_seen())
    sleep_.restart();
  // Read here, in the turn: a worker that takes the next one may write them.
  gave_workers_work_ = steal_.victim().posted_local() || steal_.thief().filled_inbox();
  return progress;
}

// After a turn that found nothing to do: how long to sleep is backoff.hpp's
// (its comment has the measurements behind it); what it needs is read here,
// under the turn's lock.
void network::pause() {
  message_trace& trace = loop_.trace();
  if (cfg_.loop == message_loop::seed) {
    if (trace.on() && !trace.asleep()) [[unlikely]] trace.span(true);
    timespec ts{0, 20'000};  // the seed's fixed 20 us
    nanosleep(&ts, nullptr);
    sleep_.slept();
    return;
  }
  // What it reads of the protocols' state a worker may write in a turn it
  // takes (try_take_turn).
  std::unique_lock<std::mutex> turn_held(loop_.turn_lock());
  doorbell& bell = loop_.bell();
  auto polled = [&](int r) { return !bell.rings_for(r) && !remote_.rings_from(r); };
  // A request posted through shared memory that has not been answered in
  // time: wake the victim's message thread (the worker may be napping at a
  // join, or the request must be withdrawn at the end of the root call).
  long post_wait_us = steal_.thief().posted_wait_us();
  // A request for work is out and every worker is idle: nothing else wants
  // this process's cores, so look again at once instead of sleeping, even
  // when the answer will ring. On this machine a futex wake from another
  // core took 14 us (median, the core busy) to 32 us (idle), a thread that
  // yields in a loop saw the change after 2 us (bench/mpi/wake_latency.cpp).
  // Not at real-time priority: a real-time thread's sched_yield() would not
  // let the workers run (and a loop of 3 us sleeps instead took 95% of its
  // core in this VM, starving a worker that had work to start), so the
  // thread leaves it for the spin and takes it again before it sleeps.
  // Not for a request posted through shared memory: a piece answering it
  // comes through the mailbox, which the idle workers watch and take
  // themselves, and a refusal comes by MPI from this machine, which rings.
  // Spinning, this thread would share a core with those workers.
  if (steal_.thief().spin_for_answer()) {
    turn_held.unlock();
    loop_.step_aside();
    return;
  }
  loop_.priority().resume();
  backoff::facts f;
  f.in_root_with_others = root_.in_root() && at_.size >= 2;
  f.need_polling = !rings_.every_other_rings || !remote_.heard_every_remote() || rings_.rung_not_received() ||
                   remote_.rung_not_received();
  if (f.in_root_with_others) {
    f.urgent = steal_.answer_due(polled) || loop_.link().sending();
    // After refusals the next request for work leaves at next_ask: every
    // worker waits for it.
    f.waits_to_ask = steal_.thief().wants_work();
    if (f.waits_to_ask) {
      f.next_ask = steal_.thief().request().next_ask;
      f.now = loop_.now();
    }
  }
  f.post_wait_us = post_wait_us;
  // A batch held back (TASCELL_NET_DELAY_US) is sent once due: wake then.
  if (mpi_ && mpi_->holding())
    f.post_wait_us = std::min(f.post_wait_us, sleep_before_ask(LONG_MAX, mpi_->next_due(), loop_.now()));
  // Table updates or reads wait for locks: retry soon. A caller waits for
  // an answer from another machine, which does not ring: poll soon (one
  // that rings wakes this thread; polling at 20 us while a process waited
  // at a table's collective end took 48% of a core).
  f.tables_soon = tables_.arrivals().retrying() || (tables_.awaiting_answer() && f.need_polling);
  long us = sleep_.next_sleep_us(f);
  turn_held.unlock();
  if (trace.on() && !trace.asleep()) [[unlikely]] trace.span(true);
  if (bell.sleep(rings_.seen, us)) remote_.datagram_waits();
  sleep_.slept();
}

bool network::reap_sends() { return loop_.link().reap(); }

bool network::receive_all() {
  bool any = steal_.thief().take_mail();
  if (steal_.thief().filled_inbox()) return any;
  std::string& buf = loop_.inbound();
  // Open MPI's MPI_Iprobe looks at the messages it has already taken in
  // and, only when none matches, makes progress (takes in what has
  // arrived) and says "nothing": a message that arrived while this thread
  // slept is seen by the second call. So one empty answer is not enough.
  int empty = 0;
  for (;;) {
    int from = -1;
    if (!loop_.link().receive(from, buf)) {
      if (++empty < 2) continue;
      return any;
    }
    handle_batch(from, buf);
    any = true;
    // A local worker has been given something to do (a request to answer,
    // work to start) and may share this thread's core: let it run first;
    // the next turn looks for more.
    if (steal_.victim().posted_local() || steal_.thief().filled_inbox()) return any;
  }
}

void network::handle_batch(int from, const std::string& buf) {
  // A piece in the mailbox was given before anything this batch may say
  // about it (a STOP, a steal-back): take it first.
  steal_.thief().take_mail(true);
  guard_message(from, [&] {
    reader r(buf);
    auto magic = r.get<std::uint32_t>("the batch header");
    if (magic != batch_magic && magic != quiet_batch_magic)
      throw malformed_message("not a tascell message (bad magic number)");
    std::int32_t load = r.get<std::int32_t>("the sender's load");
    steal_.heard_load(from, load);
    // From another machine: more may follow, and only polling finds it,
    // unless that machine's batches ring (then the next one does).
    if (loop_.bell().rings_for(from)) {
      rings_.received += magic == batch_magic ? 1 : 0;
    } else {
      if (magic == batch_magic) remote_.received(from);
      if (!remote_.rings_from(from)) sleep_.restart();
    }
    std::int64_t n = 0;
    for (; !r.done(); ++n) handle(from, r);
    if (loop_.tracing()) [[unlikely]]
      loop_.note(trace_type::recv, 0, from, n, static_cast<std::int64_t>(buf.size()));
  }, [&](const std::string& cause) { loop_.fatal(cause); });
}

bool network::take_events() {
  std::vector<event> evs = events_.take();
  if (evs.empty()) return false;
  // A piece a worker took from the mailbox is recorded before any event of
  // it (its end) is handled.
  steal_.thief().collect_taken();
  for (event& e : evs) {
    switch (e.kind) {
      case event::finished: steal_.pieces().send_result(e.t); break;
      case event::result_mailed: steal_.pieces().result_mailed(e.t); break;
      case event::cancelled: steal_.pieces().send_cancel_up(e.t); break;
      case event::improved: root_.spread_incumbent(e.id, e.bytes, -1, -1); break;
      case event::published: root_.publish(e.id, e.key, e.stamp, e.bytes); break;
      case event::root_begin:
        try {
          root_.begin_here();  // applies improvements held for this call
        } catch (const malformed_message& e) {
          loop_.fatal(std::string("malformed incumbent value received before this root call began: ") + e.what());
        }
        steal_.root_begun();
        break;
      case event::root_end: root_.end_here(std::move(e.bytes)); break;
      case event::raw: out_.send(e.to, std::move(e.bytes)); break;
      case event::sync: events_.sync_seen(); break;
      case event::stats: {
        writer w(out_.begin(0, msg::stats));
        w.put(e.id);
        w.bytes(e.bytes);
        break;
      }
    }
  }
  return true;
}

void network::handle(int from, reader& r) {
  auto type = r.get<msg>("a message type");
  switch (type) {
    case msg::request: steal_.on_request_message(from, r); return;
    case msg::work: steal_.on_work(from, r); return;
    case msg::refuse: steal_.on_refuse(from, r.get<std::uint64_t>("a request number")); return;
    case msg::result: steal_.victim().on_result(from, r); return;
    case msg::stop: steal_.pieces().on_stop(from, r.get<std::uint64_t>("a piece handle")); return;
    case msg::cancel_up: steal_.victim().on_cancel_up(from, r.get<std::uint64_t>("a piece handle")); return;
    case msg::root_done: root_.on_done(from, r); return;
    case msg::root_ack: root_.on_ack(from, r); return;
    case msg::root_finish: root_.on_finish(from, r); return;
    case msg::incumbent: {
      std::uint64_t id = 0;
      if (root_.on_incumbent(from, r, id) && loop_.tracing()) loop_.note(trace_type::improved, id, from);
      return;
    }
    case msg::board: root_.on_board(from, r); return;
    case msg::stats: roots_.stats().on_stats(from, at_.rank, at_.size, r); return;
    case msg::table_made: tables_.on_made(from, r); return;
    case msg::updates: tables_.arrivals().on_updates(from, r); return;
    case msg::fence: tables_.arrivals().on_fence(from, r); return;
    case msg::fence_ack: tables_.on_fence_ack(from, r); return;
    case msg::table_read: tables_.arrivals().on_read(from, r); return;
    case msg::table_entries: tables_.on_entries(from, r); return;
    case msg::block_waits: steal_.victims().prefer(from); return;
  }
  throw malformed_message("unknown message type " + std::to_string(static_cast<int>(type)));
}

// --- the end of a root call, on this thread (the calling thread's calls: root_calls.hpp) ---

bool network::tend_root() {
  if (!root_.ending()) return false;
  bool acted = false;
  if (!steal_.quiet_for_root_end(acted)) return acted;
  return root_.finish_here();
}

}  // namespace tascell::detail::net

namespace tascell::detail {

std::atomic<int> claim_delay_us_for_testing{0};
void (*claim_window_for_testing)() = nullptr;
void claim_delay_for_testing(int microseconds) {
  claim_delay_us_for_testing.store(microseconds, std::memory_order_relaxed);
}

}  // namespace tascell::detail
