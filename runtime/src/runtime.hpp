// The process-wide runtime: settings, workers and their threads, root calls.
// Initialisation order is the member order.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <vector>

#include "net/host.hpp"
#include "settings.hpp"
#include "tascell/root.hpp"
#include "worker.hpp"

namespace tascell::detail::net {
class network;
class worker_link;
}

namespace tascell::detail {

// The worker this thread is, during a root call; else nullptr.
extern thread_local worker_impl* current_worker;
// steal_back_for_testing(false) (testing.hpp): joins do not steal back.
extern std::atomic<bool> no_steal_back_for_testing;
extern std::atomic<int> steal_back_delay_us_for_testing;

// The host of the protocols between processes (net/host.hpp) in a real run.
// Final: calls through a runtime& need no virtual dispatch.
class runtime final : public net::host {
 public:
  static runtime& get();  // starts the runtime on first use
  ~runtime();

  const settings& config() const { return cfg_; }
  int size() const { return static_cast<int>(workers_.size()); }
  worker_impl* worker(int i) { return workers_[static_cast<std::size_t>(i)]; }
  int workers() const override { return size(); }
  worker_impl* worker(int i) const override { return workers_[static_cast<std::size_t>(i)]; }

  void run_root(const root_call& call);

  // Set when the root task has finished: searching workers stop.
  bool root_done() const override { return root_done_.load(std::memory_order_acquire); }
  void mark_root_done() override { root_done_.store(true, std::memory_order_release); }

  // The message thread, with several processes; else nullptr.
  net::network* net() { return net_.get(); }
  // What workers ask of it (net/worker_link.hpp), with several processes;
  // else nullptr.
  net::worker_link* link() { return link_; }
  int rank() const;
  int processes() const;
  // The CPU of worker i when pinning, else empty.
  const std::vector<int>& pinned_cpus() const { return cpus_; }

  // Idle workers nap here; wake_workers() ends their naps (work arrived).
  void nap(long microseconds);
  void wake_workers() override;
  void piece_done(task* t) override { detail::piece_done(t); }
  void alarm_victim(task* t) override { detail::alarm_victim(t); }

  // Incumbents and the board: the process's registries (net/registry.hpp).
  std::vector<std::pair<std::uint64_t, std::string>> incumbent_values() override;
  bool apply_incumbent(std::uint64_t id, std::string_view bytes) override;
  std::vector<board_write> board_writes() override;
  void apply_board(std::uint64_t id, std::uint64_t key, std::uint64_t stamp, std::string_view value) override;

  run_stats last_stats();

 private:
  explicit runtime(settings s);
  void thread_main(int id);
  // An idle worker looks for work until the root call is over.
  void seek_work(worker_impl* w);
  void finish_root(worker_impl* w);  // the barrier after the root task
  void print_stats(const run_stats& r) const;
  void gather_stats(const run_stats& r);  // several processes: totals on rank 0

  settings cfg_;
  std::unique_ptr<net::network> net_;  // started before the workers
  net::worker_link* link_ = nullptr;   // net_->workers()
  // Each worker lives at the start of its own region (chain.hpp).
  std::vector<worker_impl*> workers_;
  std::vector<pthread_t> threads_;
  std::vector<int> cpus_;  // CPU of worker i when pinning, else empty
  std::mutex root_mutex_;  // one root call at a time

  std::mutex m_;
  std::condition_variable cv_;
  std::uint64_t epoch_ = 0;  // incremented at every root call (under m_)
  bool shutdown_ = false;

  std::atomic<bool> root_done_{false};
  // Workers still taking part in the current root call.
  std::atomic<int> participants_{0};
  // Workers that have left the current root call (the caller waits for all).
  std::atomic<int> finished_{0};

  std::mutex stats_m_;
  run_stats last_;
  std::uint64_t root_calls_ = 0;  // the same count on every process

  std::mutex nap_m_;
  std::condition_variable nap_cv_;
  std::atomic<int> napping_{0};
};

}  // namespace tascell::detail
