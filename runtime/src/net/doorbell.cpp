#include "doorbell.hpp"

#include <arpa/inet.h>
#include <linux/futex.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <new>

namespace tascell::detail::net {
namespace {

// Not FUTEX_PRIVATE_FLAG: the word may be in memory another process maps.
long futex(std::atomic<std::uint32_t>& word, int op, std::uint32_t value, const timespec* timeout) {
  static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));
  return syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), op, value, timeout, nullptr, 0);
}

}  // namespace

void doorbell::open(MPI_Comm node, int world_rank, int world_size) {
  int local_size = 0;
  MPI_Comm_size(node, &local_size);
  std::vector<int> world(static_cast<std::size_t>(local_size));
  if (MPI_Allgather(&world_rank, 1, MPI_INT, world.data(), 1, MPI_INT, node) != MPI_SUCCESS) return;
  void* base = nullptr;
  if (MPI_Win_allocate_shared(static_cast<MPI_Aint>(sizeof(slot)), 1, MPI_INFO_NULL, node, &base, &win_) !=
      MPI_SUCCESS) {
    win_ = MPI_WIN_NULL;
    return;
  }
  // Every process initialises its own slot; the barrier publishes them.
  own_ = new (base) slot;
  MPI_Barrier(node);
  of_rank_.assign(static_cast<std::size_t>(world_size), nullptr);
  for (int i = 0; i < local_size; ++i) {
    MPI_Aint bytes = 0;
    int unit = 0;
    void* p = nullptr;
    if (MPI_Win_shared_query(win_, i, &bytes, &unit, &p) == MPI_SUCCESS && p &&
        bytes >= static_cast<MPI_Aint>(sizeof(slot)))
      of_rank_[static_cast<std::size_t>(world[static_cast<std::size_t>(i)])] = static_cast<slot*>(p);
  }
}

void doorbell::close() {
  socket_.store(-1, std::memory_order_relaxed);
  if (win_ == MPI_WIN_NULL) return;
  own_ = &private_;
  of_rank_.clear();
  MPI_Win_free(&win_);
}

void doorbell::ring(slot& s, bool other) {
  if (other) s.by_others.fetch_add(1, std::memory_order_relaxed);
  s.count.fetch_add(1, std::memory_order_seq_cst);
  std::uint32_t how = s.sleeping.load(std::memory_order_seq_cst);
  if (how == 1) {
    futex(s.count, FUTEX_WAKE, 1, nullptr);
  } else if (int fd = socket_.load(std::memory_order_relaxed); how == 2 && fd >= 0) {
    // Its socket is bound to every address: the loopback reaches it. A
    // datagram sent before the sleeper enters ppoll still wakes it there.
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = static_cast<in_port_t>(s.port.load(std::memory_order_relaxed));
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    char wake = 0;
    ::sendto(fd, &wake, 1, MSG_DONTWAIT | MSG_NOSIGNAL, reinterpret_cast<sockaddr*>(&to), sizeof to);
  }
}

void doorbell::sleep_on(int fd, std::uint16_t port) {
  socket_.store(fd, std::memory_order_relaxed);
  own_->port.store(port, std::memory_order_relaxed);
}

bool doorbell::sleep(std::uint32_t seen, long microseconds) {
  slot& s = *own_;
  timespec ts{microseconds / 1'000'000, (microseconds % 1'000'000) * 1000};
  bool datagram = false;
  if (int fd = socket_.load(std::memory_order_relaxed); fd >= 0) {
    s.sleeping.store(2, std::memory_order_seq_cst);
    if (s.count.load(std::memory_order_seq_cst) == seen) {
      pollfd p{fd, POLLIN, 0};
      datagram = ::ppoll(&p, 1, &ts, nullptr) == 1 && (p.revents & POLLIN);
    }
  } else {
    s.sleeping.store(1, std::memory_order_seq_cst);
    if (s.count.load(std::memory_order_seq_cst) == seen) futex(s.count, FUTEX_WAIT, seen, &ts);
  }
  s.sleeping.store(0, std::memory_order_relaxed);
  return datagram;
}

}  // namespace tascell::detail::net
