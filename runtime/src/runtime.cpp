// The runtime: starting the workers, root calls, shutting down at exit.
#include "runtime.hpp"

#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <new>
#include <sstream>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "net/network.hpp"
#include "net/registry.hpp"
#include "tables/table_registry.hpp"
#include "tascell/incumbent.hpp"
#include "tascell/detail/table_check.hpp"
#include "tascell/detail/testing.hpp"
#include "tascell/root.hpp"

namespace tascell::detail {
thread_local worker_impl* current_worker = nullptr;

namespace {

struct thread_start {
  runtime* rt;
  int id;
  void (runtime::*fn)(int);
};

// A region of region_bytes aligned to region_bytes: the worker, then its
// node stack, then an inaccessible guard page, so that a node stack that
// overflows faults instead of overwriting memory. Pages are committed only
// when touched.
void* allocate_region(int i, int n) {
  void* raw = mmap(nullptr, 2 * region_bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED)
    throw std::runtime_error("tascell: cannot reserve the node stack of worker " + std::to_string(i) +
                             " of TASCELL_WORKERS=" + std::to_string(n) + ": " +
                             std::strerror(errno));
  auto start = reinterpret_cast<std::uintptr_t>(raw);
  std::uintptr_t aligned = (start + region_bytes - 1) & ~(region_bytes - 1);
  if (aligned > start) munmap(raw, aligned - start);
  std::uintptr_t end = start + 2 * region_bytes;
  if (end > aligned + region_bytes)
    munmap(reinterpret_cast<void*>(aligned + region_bytes), end - (aligned + region_bytes));
  long page = sysconf(_SC_PAGESIZE);
  mprotect(reinterpret_cast<void*>(aligned + region_bytes - static_cast<std::uintptr_t>(page)),
           static_cast<std::size_t>(page), PROT_NONE);
  return reinterpret_cast<void*>(aligned);
}

}  // namespace

runtime& runtime::get() {
  // Constructed on first use; a bad setting throws config_error here, and
  // the next call tries again.
  static runtime rt(settings::from_environment());
  return rt;
}

runtime::runtime(settings s) : cfg_(std::move(s)) {
  // MPI first: a bad MPI set-up stops the program before any worker starts.
  if (net::launched_by_mpi(cfg_)) {
    net_ = std::make_unique<net::network>(*this, cfg_);
    link_ = &net_->workers();
    net_->tables().find_tables_with(&table_by_id);
  }
  // The list and the warnings once per run, not once per process: mpirun -x
  // gives every process the same variables.
  if (rank() == 0) {
    if (cfg_.help) {
      std::fputs(cfg_.list().c_str(), stdout);
      std::fflush(stdout);
    }
    std::fputs(settings::unknown_variables(environ).c_str(), stderr);
  }
  std::uint64_t seed = cfg_.seed ? cfg_.seed
                                 : static_cast<std::uint64_t>(
                                       std::chrono::steady_clock::now().time_since_epoch().count());
  for (int i = 0; i < cfg_.workers; ++i) {
    void* region = allocate_region(i, cfg_.workers);
    if (net_) net_->place_worker(i, region);  // its first page shared with this machine's processes
    worker_impl* w = ::new (region) worker_impl;
    w->id = i;
    w->rt = this;
    w->rng.seed(seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(i) + 1);
    w->since = std::chrono::steady_clock::now();
    w->tracing = !cfg_.trace.empty();
    w->trace.room = w->tracing ? static_cast<std::size_t>(cfg_.trace_records) : 0;
    if (cfg_.wait == wait_mode::suspend) {
      // The node stack is cut into a segment per fiber, each ending with a
      // guard page (the last one's is the region's).
      w->suspend = true;
      w->seg_shift = 26 - 3;
      static_assert(max_fibers == 8);
      static_assert(stack_offset < (region_bytes >> 3) / 2);
      long page = sysconf(_SC_PAGESIZE);
      for (int k = 1; k < max_fibers; ++k)
        mprotect(reinterpret_cast<char*>(w) + (std::uintptr_t(k) << w->seg_shift) - page,
                 static_cast<std::size_t>(page), PROT_NONE);
    }
    workers_.push_back(w);
  }
  if (!cfg_.trace.empty()) spreading.store(true);  // incumbent improvements are traced
  // Worker i runs on the i-th CPU this process may use, when there are no
  // more workers than such CPUs (TASCELL_PIN=1). Worker 0 is the thread that
  // makes the root call: it is pinned for the duration of each root call
  // only, and its own affinity is restored afterwards.
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (cfg_.pin && sched_getaffinity(0, sizeof(allowed), &allowed) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &allowed)) cpus_.push_back(c);
    // Several processes of this run on this machine that see the same CPUs
    // (mpirun did not bind them apart): each takes its own share, in the
    // order of its rank on the machine, or nobody pins when there are not
    // enough CPUs for all (the OS spreads the threads better then).
    // Processes bound to CPUs of their own pin within them; processes
    // whose CPUs partly overlap do not pin.
    std::size_t share = static_cast<std::size_t>(cfg_.workers);
    std::size_t local = net_ ? static_cast<std::size_t>(net_->where().local_size) : 1;
    auto sharing = net_ ? net_->where().cpus : net::network::cpu_sharing::alone;
    if (local > 1 && sharing == net::network::cpu_sharing::same) {
      if (cpus_.size() >= share * local)
        cpus_.erase(cpus_.begin(),
                    cpus_.begin() + static_cast<std::ptrdiff_t>(share * static_cast<std::size_t>(net_->where().local_rank)));
      else
        cpus_.clear();
    } else if (local > 1 && sharing == net::network::cpu_sharing::overlapping) {
      cpus_.clear();
    }
    if (share > cpus_.size()) cpus_.clear();
    else cpus_.resize(share);
  }
  for (int i = 1; i < cfg_.workers; ++i) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, cfg_.stack_bytes);
    auto* start = new thread_start{this, i, &runtime::thread_main};
    pthread_t th;
    int rc = pthread_create(
        &th, &attr,
        [](void* p) -> void* {
          auto* s = static_cast<thread_start*>(p);
          (s->rt->*(s->fn))(s->id);
          delete s;
          return nullptr;
        },
        start);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
      delete start;
      throw std::runtime_error(std::string("tascell: cannot start worker thread ") +
                               std::to_string(i) + " of TASCELL_WORKERS=" +
                               std::to_string(cfg_.workers) + ": " + std::strerror(rc));
    }
    if (!cpus_.empty()) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpus_[static_cast<std::size_t>(i)], &set);
      pthread_setaffinity_np(th, sizeof(set), &set);  // best effort
    }
    threads_.push_back(th);
  }
  if (net_) net_->attach();
}

runtime::~runtime() {
  {
    std::lock_guard<std::mutex> g(m_);
    shutdown_ = true;
  }
  cv_.notify_all();
  for (pthread_t th : threads_) pthread_join(th, nullptr);
  if (net_) net_->detach();
  if (!cfg_.trace.empty()) {
    std::string path = cfg_.trace;
    if (processes() > 1) {  // (appended in two steps: GCC 12 warns falsely on "." + string)
      path += '.';
      path += std::to_string(rank());
    }
    std::vector<trace_track> tracks;
    for (worker_impl* w : workers_) {
      std::string name = "worker ";
      name += std::to_string(w->id);
      tracks.push_back({w->id, name, &w->trace});
    }
    trace_buffer messages;
    trace_clock clock;
    if (net_) {
      messages = net_->trace().take();
      clock = net_->trace().clock();
      tracks.push_back({size(), "message thread", &messages});
    }
    std::string error = write_trace(path, rank(), processes(), clock, tracks);
    if (!error.empty()) std::fprintf(stderr, "%s\n", error.c_str());
    for (const trace_track& k : tracks)
      if (k.buffer->dropped)
        std::fprintf(stderr,
                     "tascell: rank %d: the trace of %s was cut after %lld records (TASCELL_TRACE_RECORDS); "
                     "%lld later records are missing from %s\n",
                     rank(), k.name.c_str(), static_cast<long long>(k.buffer->records.size()),
                     static_cast<long long>(k.buffer->dropped), path.c_str());
  }
  for (worker_impl* w : workers_) {
    w->~worker_impl();
    munmap(w, region_bytes);
  }
  net_.reset();  // leaves MPI, with the other processes
}

int runtime::rank() const { return net_ ? net_->where().rank : 0; }
int runtime::processes() const { return net_ ? net_->where().size : 1; }

// What the tables ask of the process (tables/table_process.hpp).
namespace table_process {
int rank() { return runtime::get().rank(); }
int processes() { return runtime::get().processes(); }
int workers() { return runtime::get().size(); }
int table_check() { return runtime::get().config().table_check; }
net::table_protocol& protocol() { return runtime::get().net()->tables(); }
worker* current_worker() { return detail::current_worker; }
}  // namespace table_process

void runtime::nap(long microseconds) {
  // Work asked of another process is on its way: stay awake for it (a
  // sleeping thread takes tens of microseconds to run again; the core is
  // idle anyway).
  if (link_ && link_->expecting_work()) {
    sched_yield();
    return;
  }
  napping_.fetch_add(1, std::memory_order_seq_cst);
  {
    std::unique_lock<std::mutex> g(nap_m_);
    nap_cv_.wait_for(g, std::chrono::microseconds(microseconds));
  }
  napping_.fetch_sub(1, std::memory_order_relaxed);
}

// An incumbent improved, or a board was written, here: the message thread
// spreads it to the other processes.
void incumbent_improved(std::uint64_t id, const void* bytes, std::size_t n, bool is_number, double value) {
  if (worker_impl* w = current_worker; w && w->tracing) {
    std::int64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    w->note(trace_type::incumbent, id, 0, is_number, bits);
  }
  if (net::worker_link* l = runtime::get().link())
    l->incumbent_improved(id, std::string(static_cast<const char*>(bytes), n));
}

void board_published(std::uint64_t id, std::uint64_t key, std::uint64_t stamp, std::string value) {
  if (!spreading.load(std::memory_order_relaxed)) return;
  if (net::worker_link* l = runtime::get().link()) l->board_published(id, key, stamp, std::move(value));
}

std::vector<std::pair<std::uint64_t, std::string>> runtime::incumbent_values() { return net::incumbent_values(); }

bool runtime::apply_incumbent(std::uint64_t id, std::string_view bytes) { return net::apply_incumbent(id, bytes); }

std::vector<runtime::board_write> runtime::board_writes() { return net::board_writes(); }

void runtime::apply_board(std::uint64_t id, std::uint64_t key, std::uint64_t stamp, std::string_view value) {
  net::apply_board(id, key, stamp, value);
}

void runtime::wake_workers() {
  if (napping_.load(std::memory_order_seq_cst) == 0) return;
  std::lock_guard<std::mutex> g(nap_m_);
  nap_cv_.notify_all();
}

void runtime::seek_work(worker_impl* w) {
  unsigned failures = 0;
  while (!root_done()) {
    if (w->attention.load(std::memory_order_relaxed)) serve_impl(empty_chain(w), false);
    // TASCELL_WAIT=suspend: a fiber that may go on runs before new work.
    if (w->waiting > 0) {
      int k = ready_fiber(w, true);
      if (k >= 0) {
        yield_to(w, empty_chain(w), k, true);
        failures = 0;
        continue;
      }
    }
    task* t = request(w, empty_chain(w), choose_victim(w), nullptr);
    if (!t && link_) t = link_->take_work(w);
    if (t) {
      run_task(w, empty_chain(w), t);
      failures = 0;
    } else {
      back_off(failures);
    }
  }
}

void runtime::thread_main(int id) {
  worker_impl* w = worker(id);
  current_worker = w;
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> g(m_);
      cv_.wait(g, [&] { return shutdown_ || epoch_ != seen; });
      if (shutdown_) return;
      seen = epoch_;
    }
    w->since = std::chrono::steady_clock::now();
    w->act = activity::idle;
    seek_work(w);
    finish_root(w);
  }
}

// The end of a root call for one worker. Once the root task has finished no
// work exists, but requests may still be in flight: every worker keeps
// answering (refusing) until all have stopped asking.
void runtime::finish_root(worker_impl* w) {
  // Every piece has ended, so every fiber has: none is left waiting.
  if (w->waiting != 0 || w->running != 0 || !w->aux_stack.empty()) {
    std::fprintf(stderr, "tascell: internal error: worker %d ends a root call with %d fibers waiting\n", w->id,
                 w->waiting);
    std::abort();
  }
  w->set_activity(activity::idle);
  participants_.fetch_sub(1, std::memory_order_acq_rel);
  while (participants_.load(std::memory_order_acquire) > 0) {
    if (w->attention.load(std::memory_order_relaxed)) serve_impl(empty_chain(w), false);
    sched_yield();
  }
  if (w->attention.load(std::memory_order_relaxed)) serve_impl(empty_chain(w), false);
  finished_.fetch_add(1, std::memory_order_acq_rel);
}

namespace {

// The network's running counts: read at a root call's start and end, the
// call's figures are the differences.
struct network_counts {
  std::int64_t bytes = 0, messages = 0, batches = 0, wakeups = 0, posted = 0, worker_posted = 0, mailed = 0,
               results_mailed = 0, pieces = 0, piece_bytes = 0, results = 0, result_bytes = 0, updates = 0,
               update_batches = 0, applied = 0;
  void read(net::network& n) {
    net::network::counts c = n.figures();
    bytes = c.bytes;
    messages = c.messages;
    batches = c.batches;
    wakeups = c.wakeups;
    posted = c.requests_posted;
    worker_posted = c.requests_posted_by_workers;
    mailed = c.pieces_mailed;
    results_mailed = c.results_mailed;
    pieces = c.pieces;
    piece_bytes = c.piece_bytes;
    results = c.results;
    result_bytes = c.result_bytes;
    updates = n.tables().sent().updates.load(std::memory_order_relaxed);
    update_batches = n.tables().sent().batches.load(std::memory_order_relaxed);
    applied = n.tables().arrivals().updates_applied();
  }
  void since(const network_counts& b, run_stats& r) const {
    r.bytes_sent = bytes - b.bytes;
    r.messages_sent = messages - b.messages;
    r.batches_sent = batches - b.batches;
    r.wakeups = wakeups - b.wakeups;
    r.shared_requests = posted - b.posted;
    r.worker_requests = worker_posted - b.worker_posted;
    r.mailed_pieces = mailed - b.mailed;
    r.mailed_results = results_mailed - b.results_mailed;
    r.pieces_sent = pieces - b.pieces;
    r.piece_bytes = piece_bytes - b.piece_bytes;
    r.results_sent = results - b.results;
    r.result_bytes = result_bytes - b.result_bytes;
    r.table_updates = updates - b.updates;
    r.table_batches = update_batches - b.update_batches;
    r.table_updates_applied = applied - b.applied;
  }
};

}  // namespace

void runtime::run_root(const root_call& call) {
  if (current_worker)
    throw std::logic_error(
        "tascell: a root call was made from inside a running task (root calls do not nest; call "
        "the @task function with the task's context instead)");
  std::lock_guard<std::mutex> root_lock(root_mutex_);
  worker_impl* w = worker(0);
  current_worker = w;
  for (auto& x : workers_) {
    x->stats = worker_stats{};
    x->hungry.store(false, std::memory_order_relaxed);
  }
  root_done_.store(false, std::memory_order_relaxed);
  participants_.store(size(), std::memory_order_relaxed);
  finished_.store(0, std::memory_order_relaxed);
  auto start = std::chrono::steady_clock::now();
  network_counts before;
  if (net_) before.read(*net_);
  ++root_calls_;
  if (net_) {
    net_->take_steal_latencies();
    net_->roots().begin();
    net_->tables().worker_in(true);
  }
  {
    std::lock_guard<std::mutex> g(m_);
    ++epoch_;
  }
  cv_.notify_all();

  cpu_set_t caller_affinity;
  bool pinned = false;
  if (!cpus_.empty() && pthread_getaffinity_np(pthread_self(), sizeof(caller_affinity),
                                               &caller_affinity) == 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpus_[0], &set);
    pinned = pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
  }
  w->since = start;
  bool runs_root_task = rank() == 0;
  std::exception_ptr err;
  if (runs_root_task) {
    w->act = activity::work;
    w->offer_depth.store(0, std::memory_order_relaxed);
    w->busy.store(true, std::memory_order_relaxed);
    try {
      call.fn(empty_chain(w), call.env);
    } catch (...) {
      err = std::current_exception();
    }
    // The root call ends when the table updates issued in it are applied.
    if (w->unsettled) settle_updates(w);
    w->busy.store(false, std::memory_order_relaxed);
    root_done_.store(true, std::memory_order_release);
  } else {
    // Another process runs the root task: work for it until it has finished.
    w->act = activity::idle;
    seek_work(w);
  }
  finish_root(w);
  while (finished_.load(std::memory_order_acquire) < size()) sched_yield();
  if (net_) net_->tables().worker_in(false);

  if (net_) {
    // [u8 1][result] or [u8 0][exception], from rank 0 to every process.
    std::string outcome;
    if (runs_root_task) {
      std::exception_ptr sent = err;
      if (!sent && !call.pack)
        sent = std::make_exception_ptr(std::logic_error(
            "tascell: the result of a root call must be copyable between processes (see "
            "docs/language.md, Several processes) when the program runs on several processes"));
      std::ostringstream os;
      if (!sent) {
        try {
          out_archive a(os);
          call.pack(call.env, a);
        } catch (...) {
          sent = std::current_exception();
        }
      }
      outcome = sent ? std::string(1, '\0') + net::pack_exception(sent) : std::string(1, '\1') + os.str();
      if (!err && sent) err = sent;
    }
    std::string got = net_->roots().end(std::move(outcome));
    if (!runs_root_task) {
      try {
        if (got[0] == '\1') {
          std::istringstream is(got.substr(1));
          in_archive a(is);
          call.unpack(call.env, a);
        } else {
          err = net::unpack_exception(std::string_view(got).substr(1), 0);
        }
      } catch (const std::exception& e) {
        err = std::make_exception_ptr(std::runtime_error(
            std::string("tascell: cannot decode the result of the root call sent by rank 0: ") + e.what()));
      }
    }
  }
  auto end = std::chrono::steady_clock::now();
  if (pinned) pthread_setaffinity_np(pthread_self(), sizeof(caller_affinity), &caller_affinity);

  run_stats r;
  r.seconds = std::chrono::duration<double>(end - start).count();
  for (auto& x : workers_) r.workers.push_back(x->stats);
  r.rank = rank();
  r.processes = processes();
  if (net_) {
    network_counts now;
    now.read(*net_);
    now.since(before, r);
    r.remote_steal_ns = net_->take_steal_latencies();
  }
  {
    std::lock_guard<std::mutex> g(stats_m_);
    last_ = r;
  }
  if (cfg_.stats) {
    print_stats(r);
    if (net_ && processes() > 1) gather_stats(r);
  }
  current_worker = nullptr;
  if (err) std::rethrow_exception(err);
}

run_stats runtime::last_stats() {
  std::lock_guard<std::mutex> g(stats_m_);
  return last_;
}

namespace {

// One process's figures of a root call, as sent to rank 0 (every process
// runs the same binary: the bytes of a trivially copyable struct).
struct process_figures {
  worker_stats total;
  std::int64_t messages_sent = 0, batches_sent = 0, bytes_sent = 0, remote_pieces = 0, wakeups = 0;

  process_figures& operator+=(const process_figures& f) {
    total += f.total;
    messages_sent += f.messages_sent;
    batches_sent += f.batches_sent;
    bytes_sent += f.bytes_sent;
    remote_pieces += f.remote_pieces;
    wakeups += f.wakeups;
    return *this;
  }
};

void stats_header(const char* who, const char* more = "") {
  std::fprintf(stderr, "%6s %10s %10s %10s %9s %9s %8s %8s %8s %8s %8s %8s %8s %8s%s\n", who, "work_ms", "idle_ms",
               "wait_ms", "stlbk_ms", "give_ms", "req_sent", "refused", "served", "declined", "given", "received",
               "stealbk", "suspend", more);
}

// The per-worker columns; scripts read the counts by position (req_sent
// to stealbk are the 7th to 13th); suspend came later, as the 14th. A row
// is written with one call, so that rows of processes that share a
// terminal (mpirun) are not cut in two.
void stats_row(const char* name, const worker_stats& s, const char* more = "") {
  auto ms = [](std::int64_t ns) { return static_cast<double>(ns) / 1e6; };
  std::fprintf(stderr, "%6s %10.1f %10.1f %10.1f %9.1f %9.1f %8lld %8lld %8lld %8lld %8lld %8lld %8lld %8lld%s\n", name,
               ms(s.work_ns), ms(s.idle_ns), ms(s.wait_ns), ms(s.steal_back_ns), ms(s.give_ns),
               static_cast<long long>(s.requests_sent), static_cast<long long>(s.requests_refused),
               static_cast<long long>(s.requests_served), static_cast<long long>(s.requests_declined),
               static_cast<long long>(s.pieces_given), static_cast<long long>(s.pieces_received),
               static_cast<long long>(s.steal_backs), static_cast<long long>(s.suspends), more);
}

// A process's row: its workers' sum, then what it sent to other processes
// and its message thread's wake-ups.
void process_row(const char* name, const process_figures& f) {
  char more[80];
  std::snprintf(more, sizeof more, " %8lld %8lld %10lld %8lld %8lld", static_cast<long long>(f.messages_sent),
                static_cast<long long>(f.batches_sent), static_cast<long long>(f.bytes_sent),
                static_cast<long long>(f.remote_pieces), static_cast<long long>(f.wakeups));
  stats_row(name, f.total, more);
}

}  // namespace

void runtime::print_stats(const run_stats& r) const {
  // Batches from other machines ring this process (net/remote_bell.hpp):
  // the rings heard so far, from the start of the run.
  std::string afar;
  if (std::int64_t rings = net_ ? net_->rings_from_afar() : -1; rings >= 0)
    afar = "; " + std::to_string(rings) + " rings heard from other machines";
  std::fprintf(stderr,
               "tascell stats: rank %d of %d: root call %.3f s, %d workers, %lld messages in %lld MPI sends, "
               "%lld bytes sent, %zu pieces from other processes, %lld wake-ups of the message thread, "
               "%lld requests posted through shared memory (%lld by idle workers), %lld pieces put in "
               "thieves' mailboxes, %lld results put in victims' rings, %lld pieces sent (%lld bytes of inputs), "
               "%lld results sent (%lld bytes of outputs)%s%s%s\n",
               r.rank, r.processes, r.seconds, size(), static_cast<long long>(r.messages_sent),
               static_cast<long long>(r.batches_sent), static_cast<long long>(r.bytes_sent),
               r.remote_steal_ns.size(), static_cast<long long>(r.wakeups),
               static_cast<long long>(r.shared_requests), static_cast<long long>(r.worker_requests),
               static_cast<long long>(r.mailed_pieces), static_cast<long long>(r.mailed_results),
               static_cast<long long>(r.pieces_sent), static_cast<long long>(r.piece_bytes),
               static_cast<long long>(r.results_sent), static_cast<long long>(r.result_bytes),
               !net_ ? "" : net_->realtime() ? "; message thread at real-time priority"
                                             : "; message thread at normal priority",
               link_ && link_->shares_requests() ? "; requests on this machine through shared memory" : "",
               afar.c_str());
  stats_header("worker");
  for (std::size_t i = 0; i < r.workers.size(); ++i) stats_row(std::to_string(i).c_str(), r.workers[i]);
  stats_row("total", r.total());
  // Lazy functions (tascell/lazy.hpp), when any unwound: a line of its own,
  // as scripts read the table's columns by position.
  worker_stats t = r.total();
  if (r.table_updates > 0 || r.table_updates_applied > 0)
    std::fprintf(stderr,
                 "tascell stats: tables: %lld updates sent to other processes in %lld batches (%.0f per batch), "
                 "%lld applied here from other processes\n",
                 static_cast<long long>(r.table_updates), static_cast<long long>(r.table_batches),
                 r.table_batches ? static_cast<double>(r.table_updates) / static_cast<double>(r.table_batches) : 0.0,
                 static_cast<long long>(r.table_updates_applied));
  if (t.lazy_unwinds > 0)
    std::fprintf(stderr, "tascell stats: lazy frames: %lld requests made them unwind, %lld frames saved and rebuilt\n",
                 static_cast<long long>(t.lazy_unwinds), static_cast<long long>(t.lazy_frames));
}

// Several processes: rank 0 prints a row per process and the sum of all.
void runtime::gather_stats(const run_stats& r) {
  process_figures mine{r.total(), r.messages_sent, r.batches_sent, r.bytes_sent,
                       static_cast<std::int64_t>(r.remote_steal_ns.size()), r.wakeups};
  std::string bytes(reinterpret_cast<const char*>(&mine), sizeof mine);
  if (rank() != 0) {
    net_->roots().send_stats(root_calls_, std::move(bytes));
    return;
  }
  std::vector<std::string> all =
      net_->roots().gather_stats(root_calls_, net_->where().size, std::move(bytes), std::chrono::seconds(5));
  std::fprintf(stderr, "tascell stats: all %d processes: root call %.3f s on rank 0\n", processes(), r.seconds);
  stats_header("rank", " messages  batches      bytes   remote  wakeups");
  process_figures sum;
  std::vector<int> missing;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].size() != sizeof(process_figures)) {
      missing.push_back(static_cast<int>(i));
      continue;
    }
    process_figures f;
    std::memcpy(&f, all[i].data(), sizeof f);
    std::string name = "r";  // (appended: GCC 12 warns falsely on "r" + string)
    name += std::to_string(i);
    process_row(name.c_str(), f);
    sum += f;
  }
  process_row("all", sum);
  for (int m : missing)
    std::fprintf(stderr,
                 "tascell stats: rank %d sent no statistics within 5 s (is TASCELL_STATS=1 set on every "
                 "process?); the row \"all\" leaves it out\n",
                 m);
}

void run_root(const root_call& call) {
  // The tables' checking mode: a root call runs as rank 0, whatever the
  // plain code before it acted as; that code's state comes back after it.
  check_scope as_root{check_context{}};
  runtime::get().run_root(call);
}

std::atomic<bool> no_steal_back_for_testing{false};
void steal_back_for_testing(bool on) { no_steal_back_for_testing.store(!on, std::memory_order_relaxed); }
std::atomic<int> steal_back_delay_us_for_testing{0};
void steal_back_delay_for_testing(int microseconds) {
  steal_back_delay_us_for_testing.store(microseconds, std::memory_order_relaxed);
}

void send_raw_for_testing(int rank, std::string bytes) {
  if (net::network* nw = runtime::get().net()) nw->send_raw(rank, std::move(bytes));
}
std::vector<int> pinned_cpus_for_testing() { return runtime::get().pinned_cpus(); }

std::pair<int, int> local_rank_for_testing() {
  runtime& rt = runtime::get();
  if (net::network* nw = rt.net()) return {nw->where().local_rank, nw->where().local_size};
  return {0, 1};
}

}  // namespace tascell::detail

namespace tascell {

worker_stats& worker_stats::operator+=(const worker_stats& s) {
  work_ns += s.work_ns;
  idle_ns += s.idle_ns;
  wait_ns += s.wait_ns;
  steal_back_ns += s.steal_back_ns;
  give_ns += s.give_ns;
  requests_sent += s.requests_sent;
  requests_refused += s.requests_refused;
  requests_served += s.requests_served;
  requests_declined += s.requests_declined;
  pieces_given += s.pieces_given;
  pieces_received += s.pieces_received;
  steal_backs += s.steal_backs;
  suspends += s.suspends;
  lazy_unwinds += s.lazy_unwinds;
  lazy_frames += s.lazy_frames;
  return *this;
}

worker_stats run_stats::total() const {
  worker_stats t;
  for (const auto& s : workers) t += s;
  return t;
}

run_stats last_stats() { return detail::runtime::get().last_stats(); }
int workers() { return detail::runtime::get().size(); }
int rank() {
  detail::check_act_as_root();  // the tables' checking mode: the code after this acts as this rank
  return detail::runtime::get().rank();
}
int processes() { return detail::runtime::get().processes(); }

}  // namespace tascell
