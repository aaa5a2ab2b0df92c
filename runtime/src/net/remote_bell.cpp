#include "remote_bell.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <iterator>

namespace tascell::detail::net {

remote_bell::card remote_bell::open_socket() {
  card c;
  close();
  fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return c;
  sockaddr_in any{};
  any.sin_family = AF_INET;
  any.sin_addr.s_addr = htonl(INADDR_ANY);
  any.sin_port = 0;
  socklen_t len = sizeof any;
  if (::bind(fd_, reinterpret_cast<sockaddr*>(&any), sizeof any) != 0 ||
      ::getsockname(fd_, reinterpret_cast<sockaddr*>(&any), &len) != 0) {
    close();
    return c;
  }
  port_ = any.sin_port;
  c.port = port_;
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) == 0) {
    for (ifaddrs* i = list; i && c.count < std::size(c.address); i = i->ifa_next) {
      if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP) ||
          (i->ifa_flags & IFF_LOOPBACK))
        continue;
      c.address[c.count] = reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr;
      c.mask[c.count] = i->ifa_netmask ? reinterpret_cast<const sockaddr_in*>(i->ifa_netmask)->sin_addr.s_addr : 0;
      ++c.count;
    }
    ::freeifaddrs(list);
  }
  return c;
}

bool remote_bell::place(int rank, const std::vector<card>& cards, const std::vector<bool>& remote) {
  placed_ = false;
  if (fd_ < 0 || rank < 0 || static_cast<std::size_t>(rank) >= cards.size()) return false;
  // Every process sleeps on its socket or none does: a process on this
  // machine wakes a sleeping one through the other's socket (doorbell.hpp).
  std::uint32_t tag = 2166136261u;
  for (const card& c : cards) {
    if (c.port == 0) {
      close();
      return false;
    }
    const auto* b = reinterpret_cast<const unsigned char*>(&c);
    for (std::size_t i = 0; i < sizeof c; ++i) tag = (tag ^ b[i]) * 16777619u;
  }
  const card& mine = cards[static_cast<std::size_t>(rank)];
  std::size_t n = cards.size();
  rank_ = rank;
  tag_ = tag;
  to_.assign(n, sockaddr_in{});
  sent_.assign(n, 0);
  heard_.assign(n, 0);
  got_.assign(n, 0);
  ahead_ = 0;
  remote_ranks_ = heard_ranks_ = 0;
  rings_heard_.store(0, std::memory_order_relaxed);
  for (std::size_t r = 0; r < n; ++r) {
    const card& c = cards[r];
    if (static_cast<int>(r) == rank || r >= remote.size() || !remote[r]) continue;
    ++remote_ranks_;
    if (c.count == 0) continue;
    std::uint32_t chosen = c.address[0];
    bool found = false;
    for (std::uint16_t i = 0; i < c.count && !found; ++i)
      for (std::uint16_t j = 0; j < mine.count && !found; ++j)
        if (((c.address[i] ^ mine.address[j]) & mine.mask[j]) == 0) {
          chosen = c.address[i];
          found = true;
        }
    to_[r].sin_family = AF_INET;
    to_[r].sin_port = c.port;
    to_[r].sin_addr.s_addr = chosen;
  }
  placed_ = true;
  return true;
}

void remote_bell::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  placed_ = false;
}

void remote_bell::ring(int rank) {
  if (!is_open() || rank < 0 || static_cast<std::size_t>(rank) >= to_.size()) return;
  sockaddr_in& to = to_[static_cast<std::size_t>(rank)];
  if (to.sin_family != AF_INET) return;
  std::uint32_t& sent = sent_[static_cast<std::size_t>(rank)];
  if (++sent == 0) ++sent;  // 0 is "not heard yet" at the receiver
  ring_message m{ring_magic, tag_, rank_, sent};
  // Not waited for: a full buffer or an unreachable host loses a ring,
  // which the next one makes up (or the receiver's next look, within
  // 10 ms).
  ::sendto(fd_, &m, sizeof m, MSG_DONTWAIT | MSG_NOSIGNAL, reinterpret_cast<sockaddr*>(&to), sizeof to);
}

std::uint32_t remote_bell::drain() {
  if (fd_ < 0) return 0;
  std::uint32_t rings = 0;
  for (;;) {
    ring_message m;
    ssize_t got = ::recv(fd_, &m, sizeof m, MSG_DONTWAIT);
    if (got < 0) {
      if (errno == EINTR) continue;
      break;  // EAGAIN: none left (or an error, which polling outlives)
    }
    // A wake from a process of this machine (doorbell.hpp), or a datagram
    // not of this run: it has woken the thread, nothing more.
    if (static_cast<std::size_t>(got) != sizeof m || m.magic != ring_magic || m.tag != tag_ || !placed_) continue;
    rings += heard(m.from, m.count);
  }
  return rings;
}

std::uint32_t remote_bell::heard(int rank, std::uint32_t count) {
  if (rank < 0 || static_cast<std::size_t>(rank) >= heard_.size() || rank == rank_) return 0;
  auto r = static_cast<std::size_t>(rank);
  // Counts only grow (a late datagram brings an older one).
  auto more = static_cast<std::int32_t>(count - heard_[r]);
  if (more <= 0) return 0;
  bool was = ahead(r);
  if (heard_[r] == 0) ++heard_ranks_;
  heard_[r] = count;
  ahead_ += static_cast<int>(ahead(r)) - static_cast<int>(was);
  rings_heard_.fetch_add(more, std::memory_order_relaxed);
  return static_cast<std::uint32_t>(more);
}

void remote_bell::received(int rank) {
  if (rank < 0 || static_cast<std::size_t>(rank) >= got_.size()) return;
  auto r = static_cast<std::size_t>(rank);
  bool was = ahead(r);
  ++got_[r];
  ahead_ += static_cast<int>(ahead(r)) - static_cast<int>(was);
}

}  // namespace tascell::detail::net
