#include "shared_requests.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "worker_face.hpp"
#include "frame.hpp"
#include "giver.hpp"

namespace tascell::detail::net {
namespace {

std::string object_name(long pid) { return "/tascell." + std::to_string(pid); }

// Whether every process of `node` says yes.
bool all_agree(bool mine, MPI_Comm node) {
  int in = mine ? 1 : 0, out = 0;
  if (MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, node) != MPI_SUCCESS) return false;
  return out != 0;
}

}  // namespace

std::size_t shared_layout::page_bytes() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

void shared_requests::attach_for_testing(int rank, const std::vector<char*>& objects, int workers) {
  int n = static_cast<int>(objects.size());
  layout_.lay_out(n);
  own_bytes_ = shared_layout::object_bytes(n, workers);
  local_rank_ = rank;
  world_rank_ = rank;
  own_ = objects[static_cast<std::size_t>(rank)];
  layout_.head(view{own_, own_bytes_})->workers = workers;
  of_rank_.assign(objects.size(), view{});
  local_of_.assign(objects.size(), -1);
  thieves_.clear();
  for (int r = 0; r < n; ++r) {
    local_of_[static_cast<std::size_t>(r)] = r;
    if (r == rank) continue;
    thieves_.push_back(r);
    of_rank_[static_cast<std::size_t>(r)] = view{objects[static_cast<std::size_t>(r)], own_bytes_};
  }
  usable_.store(true, std::memory_order_relaxed);
}

bool shared_requests::open(MPI_Comm node, bool wanted, int world_rank, int world_size, int workers,
                           std::string& why) {
  // Decided together: a process whose settings differ must not leave the
  // others waiting in the collectives below.
  if (!all_agree(wanted, node)) {
    why = "not every process of this machine has TASCELL_NODE_REQUESTS=shared and TASCELL_MSG_LOOP=adaptive";
    return false;
  }
  int local_size = 0;
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_size(node, &local_size);
  world_rank_ = world_rank;
  layout_.lay_out(local_size);
  own_bytes_ = shared_layout::object_bytes(local_size, workers);
  mapped_ = true;
  long mine[2] = {world_rank, static_cast<long>(getpid())};
  std::vector<long> all(2 * static_cast<std::size_t>(local_size));
  if (MPI_Allgather(mine, 2, MPI_LONG, all.data(), 2, MPI_LONG, node) != MPI_SUCCESS) {
    why = "MPI_Allgather of the process ids failed";
    return false;
  }

  // This process's object: zeroed by ftruncate (every slot free).
  std::string name = object_name(mine[1]);
  bool ok = true;
  fd_ = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd_ < 0 || ftruncate(fd_, static_cast<off_t>(own_bytes_)) != 0) {
    why = "cannot create the shared-memory object " + name + ": " + std::strerror(errno);
    ok = false;
  } else {
    void* p = mmap(nullptr, layout_.control_bytes(), PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (p == MAP_FAILED) {
      why = "cannot map " + name + ": " + std::strerror(errno);
      ok = false;
    } else {
      own_ = static_cast<char*>(p);
      layout_.head(view{own_, own_bytes_})->workers = workers;
    }
  }
  // Every object exists (the reduction is also the barrier before opening them).
  ok = all_agree(ok, node) && ok;
  of_rank_.assign(static_cast<std::size_t>(world_size), view{});
  local_of_.assign(static_cast<std::size_t>(world_size), -1);
  for (int i = 0; ok && i < local_size; ++i) {
    int rank = static_cast<int>(all[2 * static_cast<std::size_t>(i)]);
    local_of_[static_cast<std::size_t>(rank)] = i;
    if (i == local_rank_) continue;
    thieves_.push_back(rank);
    std::string other = object_name(all[2 * static_cast<std::size_t>(i) + 1]);
    int fd = shm_open(other.c_str(), O_RDWR, 0);
    struct stat st {};
    void* p = MAP_FAILED;
    if (fd >= 0 && fstat(fd, &st) == 0)
      p = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
      why = "cannot map the shared-memory object " + other + " of rank " + std::to_string(rank) + ": " +
            std::strerror(errno);
      ok = false;
    } else {
      of_rank_[static_cast<std::size_t>(rank)] = view{static_cast<char*>(p), static_cast<std::size_t>(st.st_size)};
    }
    if (fd >= 0) ::close(fd);
  }
  // Every process has mapped every object: the names are no longer needed
  // (the objects live as long as a mapping does, also if a process dies).
  ok = all_agree(ok, node) && ok;
  if (fd_ >= 0) shm_unlink(name.c_str());
  if (!ok) {
    close();
    if (why.empty()) why = "another process of this machine could not share memory";
    return false;
  }
  usable_ = true;
  return true;
}

void shared_requests::close() {
  for (view& v : of_rank_)
    if (v.base && mapped_) munmap(v.base, v.bytes);
  of_rank_.clear();
  thieves_.clear();
  if (own_ && mapped_) munmap(own_, layout_.control_bytes());
  own_ = nullptr;
  mapped_ = false;
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  usable_ = false;
}

bool shared_requests::place_worker(int i, void* region) {
  if (!own_) return false;
  void* p = mmap(region, layout_.page(), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd_,
                 static_cast<off_t>(layout_.control_bytes() + static_cast<std::size_t>(i) * layout_.page()));
  if (p != region) {
    usable_ = false;
    return false;
  }
  return true;
}

bool shared_requests::reaches(int world_rank) const {
  return own_ && world_rank >= 0 && static_cast<std::size_t>(world_rank) < of_rank_.size() &&
         of_rank_[static_cast<std::size_t>(world_rank)].base;
}

bool shared_requests::post(int world_rank, std::uint64_t root, std::uint64_t seq, bool largest,
                           std::uint64_t start) {
  if (!reaches(world_rank)) return false;
  const view& v = of_rank_[static_cast<std::size_t>(world_rank)];
  // The first free slot with a standing proxy.
  slot* s = nullptr;
  worker_face* proxy = nullptr;
  for (int k = 0; k < slots_per_thief && !s; ++k) {
    slot* c = layout_.slot_of(v, local_rank_, k);
    std::uint32_t expected = free_slot;
    if (c->state.load(std::memory_order_relaxed) != free_slot ||
        !c->state.compare_exchange_strong(expected, claiming, std::memory_order_seq_cst))
      continue;
    proxy = reinterpret_cast<worker_face*>(c->proxy.load(std::memory_order_acquire));
    if (proxy) s = c;
    else c->state.store(free_slot, std::memory_order_release);
  }
  if (!s) return false;
  auto back_out = [&] {
    s->state.store(free_slot, std::memory_order_release);
    return false;
  };
  // After the claim (seq_cst): the victim stops accepting before it looks
  // at the slots for the last time.
  if (root == 0 || layout_.head(v)->accepting.load(std::memory_order_seq_cst) != root) return back_out();
  int n = layout_.head(v)->workers;
  if (n < 1 || layout_.control_bytes() + static_cast<std::size_t>(n) * layout_.page() > v.bytes) return back_out();
  // The victim's workers, through their shared first pages: only the words
  // that other processes may touch (busy, offer_depth, requester, attention).
  int best_index = choose_giver(
      n, start, largest, [&](int i) { return layout_.worker_of(v, i); },
      [](worker_face* w) {
        return w->busy.load(std::memory_order_relaxed) && !w->requester.load(std::memory_order_relaxed);
      });
  if (best_index < 0) return back_out();
  worker_face* best = layout_.worker_of(v, best_index);
  s->seq = seq;
  s->victim = best_index;
  worker_face* none = nullptr;
  if (!best->requester.compare_exchange_strong(none, proxy, std::memory_order_acq_rel, std::memory_order_relaxed))
    return back_out();
  s->state.store(posted, std::memory_order_release);
  best->attention.store(1, std::memory_order_release);
  return true;
}

void shared_requests::set_accepting(std::uint64_t root) {
  if (!usable_.load(std::memory_order_relaxed)) root = 0;
  if (root == accepting_ || !own_) return;
  accepting_ = root;
  layout_.head(view{own_, own_bytes_})->accepting.store(root, std::memory_order_seq_cst);
}

void shared_requests::stand(int world_rank, int k, worker_face* proxy) {
  view me{own_, own_bytes_};
  layout_.slot_of(me, local_of_[static_cast<std::size_t>(world_rank)], k)
      ->proxy.store(reinterpret_cast<std::uint64_t>(proxy), std::memory_order_release);
}

int shared_requests::unadopted(int world_rank) const {
  view me{own_, own_bytes_};
  int n = 0;
  for (int k = 0; k < slots_per_thief; ++k)
    n += layout_.slot_of(me, local_of_[static_cast<std::size_t>(world_rank)], k)->state.load(std::memory_order_relaxed) != free_slot;
  return n;
}

std::uint64_t shared_requests::posted_seq(int world_rank, int k) const {
  return layout_.slot_of(view{own_, own_bytes_}, local_of_[static_cast<std::size_t>(world_rank)], k)->seq;
}

bool shared_requests::write_mail(int world_rank, std::string_view bytes) {
  if (!reaches(world_rank) || bytes.size() > mailbox_capacity) return false;
  mailbox* m = layout_.mailbox_of(of_rank_[static_cast<std::size_t>(world_rank)]);
  // Empty: the thief took the answer to its last request before it posted
  // this one, and only the answer to this one is written here.
  if (m->state.load(std::memory_order_acquire) != mail_is_empty) return false;
  m->from = world_rank_;
  m->bytes = bytes.size();
  std::memcpy(m->data, bytes.data(), bytes.size());
  return true;
}

void shared_requests::publish_mail(int world_rank) {
  layout_.mailbox_of(of_rank_[static_cast<std::size_t>(world_rank)])->state.store(mail_is_full, std::memory_order_release);
}

bool shared_requests::claim_mail(int& from, std::string& bytes) {
  if (!own_) return false;
  mailbox* m = layout_.mailbox_of(view{own_, own_bytes_});
  std::uint32_t full = mail_is_full;
  if (m->state.load(std::memory_order_relaxed) != full ||
      !m->state.compare_exchange_strong(full, mail_is_taking, std::memory_order_acquire, std::memory_order_relaxed))
    return false;
  from = m->from;
  if (m->bytes > mailbox_capacity) {
    m->state.store(mail_is_full, std::memory_order_release);
    throw malformed_message("a mailbox that says it holds " + std::to_string(m->bytes) + " bytes");
  }
  bytes.assign(m->data, m->bytes);
  return true;
}

void shared_requests::mail_taken() {
  layout_.mailbox_of(view{own_, own_bytes_})->state.store(mail_is_taken, std::memory_order_release);
}

void shared_requests::mail_empty() {
  layout_.mailbox_of(view{own_, own_bytes_})->state.store(mail_is_empty, std::memory_order_release);
}

void shared_requests::mail_full_again() {
  layout_.mailbox_of(view{own_, own_bytes_})->state.store(mail_is_full, std::memory_order_release);
}

std::uint32_t shared_requests::mail_state() const {
  return own_ ? layout_.mailbox_of(view{own_, own_bytes_})->state.load(std::memory_order_acquire) : mail_is_empty;
}

bool shared_requests::write_result(int world_rank, std::string_view bytes) {
  if (!reaches(world_rank) || bytes.size() > result_capacity) return false;
  result_ring* g = layout_.ring_of(of_rank_[static_cast<std::size_t>(world_rank)], local_rank_);
  std::uint32_t open = 0;
  if (!g->lock.compare_exchange_strong(open, 1, std::memory_order_acquire, std::memory_order_relaxed)) return false;
  std::uint64_t t = g->tail.load(std::memory_order_relaxed);
  bool room = t - g->head.load(std::memory_order_acquire) < static_cast<std::uint64_t>(results_per_ring);
  if (room) {
    result_entry& e = g->entries[t % results_per_ring];
    e.bytes = static_cast<std::uint32_t>(bytes.size());
    std::memcpy(e.data, bytes.data(), bytes.size());
    g->tail.store(t + 1, std::memory_order_release);
  }
  g->lock.store(0, std::memory_order_release);
  return room;
}

bool shared_requests::results_waiting() const {
  if (!own_) return false;
  view me{own_, own_bytes_};
  for (int r : thieves_) {
    const result_ring* g = layout_.ring_of(me, local_of_[static_cast<std::size_t>(r)]);
    if (g->head.load(std::memory_order_relaxed) != g->tail.load(std::memory_order_relaxed)) return true;
  }
  return false;
}

bool shared_requests::quiet() {
  if (!own_) return true;
  set_accepting(0);
  view me{own_, own_bytes_};
  for (int r : thieves_)
    for (int k = 0; k < slots_per_thief; ++k)
      if (layout_.slot_of(me, local_of_[static_cast<std::size_t>(r)], k)->state.load(std::memory_order_seq_cst) != free_slot)
        return false;
  return true;
}

}  // namespace tascell::detail::net
