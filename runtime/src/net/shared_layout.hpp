// How a process's shared-memory object is laid out (shared_requests.hpp has
// the protocol that uses it): a control area, then one page per worker.
// The control area holds a header, a slot per (thief on this machine,
// k < slots_per_thief), this process's mailbox, and a result ring per
// process of the machine; its size depends on the number of processes of
// the machine only, so it is the same in every process. Every structure is
// whole cache lines.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace tascell::detail::net {

struct worker_face;

class shared_layout {
 public:
  static constexpr int slots_per_thief = 16;
  static constexpr std::size_t mailbox_capacity = 16384 - 64;
  static constexpr std::size_t result_capacity = 252;
  static constexpr int results_per_ring = 64;

  enum : std::uint32_t { free_slot = 0, claiming = 1, posted = 2 };
  // One cache line per thief (the object is mapped at a page boundary).
  struct slot {
    std::atomic<std::uint32_t> state;
    std::int32_t victim;
    std::uint64_t seq;
    std::atomic<std::uint64_t> proxy;  // the standing proxy's address in the victim
    char pad[40];
  };
  static_assert(sizeof(slot) == 64);
  struct header {
    std::atomic<std::uint64_t> accepting;
    std::int32_t workers;
    char pad[52];
  };
  static_assert(sizeof(header) == 64);
  struct mailbox {
    std::atomic<std::uint32_t> state;
    std::int32_t from;  // world rank of the victim that wrote it
    std::uint64_t bytes;
    char pad[48];
    char data[mailbox_capacity];
  };
  static_assert(sizeof(mailbox) == 16384);
  struct result_entry {
    std::uint32_t bytes;
    char data[result_capacity];
  };
  static_assert(sizeof(result_entry) == 256);
  // One per thief in the victim's control area: the thief's workers write
  // (one at a time, `lock`), the victim takes.
  struct result_ring {
    std::atomic<std::uint32_t> lock;
    std::uint32_t pad0;
    std::atomic<std::uint64_t> tail;  // results written
    char pad1[48];
    std::atomic<std::uint64_t> head;  // results taken
    char pad2[56];
    result_entry entries[results_per_ring];
  };
  // A process's object as mapped here.
  struct view {
    char* base = nullptr;  // the control area, then the worker pages
    std::size_t bytes = 0;
  };

  // For `local_size` processes on the machine.
  void lay_out(int local_size) {
    local_size_ = local_size;
    page_ = page_bytes();
    control_bytes_ = control_size(local_size);
  }
  int local_size() const { return local_size_; }
  std::size_t page() const { return page_; }
  std::size_t control_bytes() const { return control_bytes_; }

  header* head(const view& v) const { return reinterpret_cast<header*>(v.base); }
  slot* slot_of(const view& v, int local, int k) const {
    return reinterpret_cast<slot*>(v.base + sizeof(header)) + local * slots_per_thief + k;
  }
  mailbox* mailbox_of(const view& v) const { return reinterpret_cast<mailbox*>(v.base + mailbox_offset(local_size_)); }
  // After the mailbox, one per process of the machine (by its rank there).
  result_ring* ring_of(const view& v, int local) const {
    return reinterpret_cast<result_ring*>(v.base + mailbox_offset(local_size_) + sizeof(mailbox)) + local;
  }
  worker_face* worker_of(const view& v, int i) const {
    return reinterpret_cast<worker_face*>(v.base + control_bytes_ + static_cast<std::size_t>(i) * page_);
  }

  // The size of a process's object (local_size processes on the machine,
  // `workers` worker pages after the control area), and where worker i's
  // page starts in it.
  static std::size_t object_bytes(int local_size, int workers) {
    return control_size(local_size) + static_cast<std::size_t>(workers) * page_bytes();
  }
  static std::size_t worker_offset(int local_size, int i) {
    return control_size(local_size) + static_cast<std::size_t>(i) * page_bytes();
  }

 private:
  static std::size_t page_bytes();
  // After the header and the slots, at a 64-byte boundary.
  static std::size_t mailbox_offset(int local_size) {
    return sizeof(header) + static_cast<std::size_t>(local_size) * slots_per_thief * sizeof(slot);
  }
  static std::size_t control_size(int local_size) {
    std::size_t page = page_bytes();
    std::size_t control =
        mailbox_offset(local_size) + sizeof(mailbox) + static_cast<std::size_t>(local_size) * sizeof(result_ring);
    return (control + page - 1) / page * page;
  }

  int local_size_ = 1;
  std::size_t page_ = 4096;
  std::size_t control_bytes_ = 0;
};

}  // namespace tascell::detail::net
