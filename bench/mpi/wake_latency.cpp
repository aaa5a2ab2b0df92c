// What waking a sleeping thread costs on this machine: the floor under the
// steal round trip between processes, whose message threads sleep on a
// futex (the doorbell) and are woken by another process or by a worker.
//
// A ringer process stamps the time, bumps a futex word in shared memory and
// wakes it; a sleeper process, bound to CPU 1, notes when it runs again.
// Cases (each 2,000 wake-ups, 300 us apart):
//   other core, idle    ringer on CPU 0, nothing else on CPU 1
//   other core, busy    ringer on CPU 0, a thread computing on CPU 1 (a worker)
//   same core           ringer on CPU 1 too (a worker waking its message thread)
//   spinning            the sleeper does not sleep: it calls sched_yield() in a
//                       loop, sharing CPU 1 with a computing thread that also yields
// each with the sleeper at normal priority and (but for spinning) at
// real-time priority (SCHED_FIFO 1, as TASCELL_MSG_PRIORITY=auto gives the
// message thread; the real-time rows are missing when the system does not
// allow it).
// usage: wake_latency   (needs 2 CPUs)
#include <linux/futex.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <new>
#include <thread>
#include <vector>

namespace {

struct shared_page {
  std::atomic<std::uint32_t> word{0};
  std::atomic<std::int64_t> rung_at{0};
  std::atomic<std::uint32_t> seen{0};
  std::atomic<int> stop{0};
};

std::int64_t now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1'000'000'000LL + t.tv_nsec;
}

void bind_to(int cpu) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(cpu, &s);
  sched_setaffinity(0, sizeof s, &s);
}

long futex(std::atomic<std::uint32_t>& w, int op, std::uint32_t v) {
  return syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&w), op, v, nullptr, nullptr, 0);
}

enum class place { idle, busy, same_core, spinning };

// Returns false when the sleeper could not have the priority asked for.
bool measure(const char* name, place where, bool realtime) {
  auto* page = static_cast<shared_page*>(
      mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  new (page) shared_page;
  int pipe_fd[2];
  if (pipe(pipe_fd) != 0) return false;
  pid_t pid = fork();
  if (pid == 0) {
    bind_to(1);
    std::atomic<bool> end{false};
    std::thread worker;
    if (where == place::busy || where == place::spinning)
      worker = std::thread([&] {
        bind_to(1);
        volatile std::uint64_t x = 0;
        while (!end.load(std::memory_order_relaxed)) {
          for (int i = 0; i < 1000; ++i) x = x + 1;
          if (where == place::spinning) sched_yield();
        }
      });
    char ok = 1;
    if (realtime) {
      sched_param sp{};
      sp.sched_priority = 1;
      ok = sched_setscheduler(0, SCHED_FIFO, &sp) == 0;
    }
    if (write(pipe_fd[1], &ok, 1) != 1) ok = 0;
    std::vector<std::int64_t> lat;
    std::uint32_t seen = 0;
    while (ok && !page->stop.load()) {
      while (page->word.load() == seen && !page->stop.load()) {
        if (where == place::spinning) sched_yield();
        else futex(page->word, FUTEX_WAIT, seen);
      }
      seen = page->word.load();
      std::int64_t t = now_ns();
      if (!page->stop.load()) lat.push_back(t - page->rung_at.load());
      page->seen.store(seen);
    }
    end = true;
    if (worker.joinable()) worker.join();
    if (!lat.empty()) {
      std::sort(lat.begin(), lat.end());
      auto q = [&](double f) { return lat[std::min(lat.size() - 1, std::size_t(f * lat.size()))] / 1000.0; };
      std::printf("| %-18s | %-9s | %5.1f | %6.1f | %5.1f | %5.1f |\n", name, realtime ? "real-time" : "normal",
                  q(0.1), q(0.5), q(0.9), q(0.99));
    }
    std::fflush(stdout);
    _exit(0);
  }
  char ok = 0;
  if (read(pipe_fd[0], &ok, 1) != 1) ok = 0;
  close(pipe_fd[0]);
  close(pipe_fd[1]);
  if (ok) {
    bind_to(where == place::same_core ? 1 : 0);
    for (std::uint32_t i = 1; i <= 2000; ++i) {
      usleep(300);
      page->rung_at.store(now_ns());
      page->word.store(i);
      if (where != place::spinning) futex(page->word, FUTEX_WAKE, 1);
      // On the same core: stay runnable for 20 us (a worker goes on
      // computing), so the sleeper runs only if it preempts the ringer.
      if (where == place::same_core) {
        std::int64_t t0 = now_ns();
        while (now_ns() - t0 < 20'000 && page->seen.load() != i) {
        }
      }
      while (page->seen.load() != i) sched_yield();
    }
  }
  page->stop.store(1);
  page->word.fetch_add(1);
  futex(page->word, FUTEX_WAKE, 1);
  waitpid(pid, nullptr, 0);
  munmap(page, 4096);
  return ok != 0;
}

}  // namespace

int main() {
  if (std::thread::hardware_concurrency() < 2) {
    std::fprintf(stderr, "wake_latency: needs 2 CPUs\n");
    return 2;
  }
  std::printf("wake-up latency, ring -> the sleeper runs (us)\n\n");
  std::printf("| case | sleeper | p10 | median | p90 | p99 |\n|---|---|---:|---:|---:|---:|\n");
  std::fflush(stdout);
  struct {
    const char* name;
    place where;
  } cases[] = {{"other core, idle", place::idle},
               {"other core, busy", place::busy},
               {"same core", place::same_core},
               {"spinning", place::spinning}};
  bool realtime_refused = false;
  for (auto& c : cases)
    for (bool rt : {false, true})
      // (A real-time thread that yields in a loop would keep the computing
      // thread off its core: the message thread never does that.)
      if (!(rt && (realtime_refused || c.where == place::spinning)) && !measure(c.name, c.where, rt))
        realtime_refused = true;
  if (realtime_refused) std::printf("\n(real-time priority refused: no real-time rows)\n");
  return 0;
}
