#include "protocol_sim.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <new>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "net/network.hpp"
#include "net/shared_requests.hpp"
#include "settings.hpp"
#include "tables/table_registry.hpp"
#include "tascell/detail/entry.hpp"
#include "tascell/detail/table_core.hpp"
#include "tascell/wire.hpp"
#include "worker.hpp"

namespace tascell::sim {
namespace {

using detail::worker_impl;
using detail::worker_face;
namespace net = detail::net;

struct sim_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// --- the program: a tree whose value is the sum of its leaves' values ---

std::uint64_t leaf_value(std::uint64_t id) {
  std::uint64_t z = id + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::uint64_t child_id(std::uint64_t id, int branch, std::int64_t i) {
  return id * static_cast<std::uint64_t>(branch) + static_cast<std::uint64_t>(i) + 1;
}

// A leaf's score in branch and bound (config::incumbents).
std::uint64_t leaf_score(std::uint64_t id) { return leaf_value(id) >> 16; }

// How two results combine: the sum of the leaves, or the largest score.
std::uint64_t combine(const config& c, std::uint64_t a, std::uint64_t b) {
  return c.incumbents || c.cancels ? std::max(a, b) : a + b;
}

// The node's value; with incumbents, also every node's largest leaf
// (`best_below`, by id: the bound that prunes).
std::uint64_t sequential(std::uint64_t id, int depth, const config& c, std::map<std::uint64_t, std::uint64_t>& best_below) {
  std::uint64_t v = 0;
  if (depth == c.depth) {
    v = c.incumbents ? leaf_score(id) : leaf_value(id);
  } else {
    for (int i = 0; i < c.branch; ++i) v = combine(c, v, sequential(child_id(id, c.branch, i), depth + 1, c, best_below));
  }
  if (c.incumbents) best_below[id] = v;
  return v;
}

// A piece: iterations [lo, hi) of the node (depth, id).
struct tree_task : task {
  std::int32_t depth = 0;
  std::uint64_t id = 0;
  std::uint64_t result = 0;
};

void pack(task* t, out_archive& a) {
  auto* x = static_cast<tree_task*>(t);
  a(x->depth, x->id);
}
task* unpack(std::int64_t lo, std::int64_t hi, in_archive& a) {
  auto* x = new tree_task;
  x->lo = lo;
  x->hi = hi;
  a(x->depth, x->id);
  return x;
}
void pack_result(task* t, out_archive& a) { a(static_cast<tree_task*>(t)->result); }
void unpack_result(task* t, in_archive& a) { a(static_cast<tree_task*>(t)->result); }

const detail::wire_ops tree_wire{pack, unpack, pack_result, unpack_result};
const node_kind tree_kind{node_type::point, 0,       nullptr, nullptr, nullptr, false, "the simulated tree",
                          nullptr,          nullptr, &tree_wire};
const bool tree_kind_registered = (detail::register_kind(&tree_kind, "tascell::sim::tree_kind"), true);

// An open spawn point of the program: iterations [next, end) not started.
struct frame {
  std::int32_t depth = 0;
  std::uint64_t id = 0;
  std::int64_t next = 0, end = 0;
  std::uint64_t acc = 0;       // finished iterations, and pieces merged
  tree_task* piece = nullptr;  // this point is that piece's own
  std::vector<tree_task*> given;
  int pending = 0;
  detail::point_aux aux;  // its alarm: a piece of it ended with an exception
  // It will not complete: an exception (its own iteration's or a piece's)
  // to pass on, or a stop of the piece it runs in (aborted). Either way it
  // stops its pieces, waits for them, and then ends.
  std::exception_ptr error;
  bool aborted = false;
  bool stopped = false;    // its pieces were told
  bool cancelled = false;  // cancel(): completes with what finished
  bool joining = false;    // at its join (join.cpp's join begun)
};

struct world;
struct process;
constexpr std::uint64_t sim_board_id = 1;

// A worker: its real shared words (worker_impl) and the program's state.
struct sim_worker {
  process* p = nullptr;
  int index = 0;
  worker_impl* w = nullptr;
  std::vector<std::unique_ptr<frame>> stack;
  int nested = 0;          // pieces running on it (worker_impl::depth)
  bool asking = false;     // a request out, waiting for `reply`
  bool tried_local = false;
  bool help_other = false;  // at a join: steal back or take other work, in turn
  // join.cpp's steal-back back-off: after a refused steal-back from a thief
  // in another process, the next waits 20 us << k (k <= 6) of the
  // simulated clock (one step a microsecond); reset at each join and by a
  // steal-back that succeeds.
  bool asking_back = false, asking_remote = false;
  unsigned remote_back_refusals = 0;
  std::uint64_t next_remote_back = 0;
  // config::tables: its batches being filled, one per process
  // (tables/update_sender.cpp's), and a settle under way.
  struct destination {
    std::string buf;
    std::uint32_t count = 0;
    bool sent = false;  // handed a batch since the last settle
  };
  std::vector<destination> to;
  std::vector<std::uint64_t> unsettled;  // leaves whose updates went to other processes since the last settle
  bool settling = false;
  std::unique_ptr<std::atomic<bool>> fence_done = std::make_unique<std::atomic<bool>>(false);
  std::function<void()> then;  // what the worker does once settled
};

struct link final : net::transport {
  world* wd = nullptr;
  int rank = 0;
  void send(int to, std::string batch) override;
  bool reap() override { return false; }
  bool sending() const override { return false; }
  bool receive(int& from, std::string& batch) override;
  [[noreturn]] void abort(const std::string& cause) override {
    throw sim_failure("rank " + std::to_string(rank) + ": " + cause);
  }
  time_point now() const override;
};

struct process final : net::host {
  world* wd = nullptr;
  int rank = 0;
  std::vector<sim_worker> workers_;
  std::vector<void*> regions;  // the workers' memory (shared first pages)
  bool done = false;           // the root call's end is known here
  std::uint64_t best = 0;      // the incumbent (config::incumbents)
  bool ended_local = false, over = false;
  bool begun = false;  // this process has begun the current root call (config::late_begin)
  std::string outcome;
  std::shared_ptr<detail::table_core> table;  // config::tables: this process's part
  // config::boards: one board of 64-bit values, as tascell/board.hpp keeps
  // it (the newest stamp wins; the keys written since the root protocol
  // last took them), and this process's Lamport clock (net/registry.cpp).
  std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> board;  // key -> (stamp, value)
  std::set<std::uint64_t> board_written;
  std::uint64_t lamport = 0;
  void board_store(std::uint64_t key, std::uint64_t stamp, std::uint64_t v) {
    auto& e = board[key];
    if (e.first > stamp) return;
    e = {stamp, v};
    board_written.insert(key);
  }
  link ln;
  std::unique_ptr<net::network> net;

  int workers() const override { return static_cast<int>(workers_.size()); }
  worker_impl* worker(int i) const override { return workers_[static_cast<std::size_t>(i)].w; }
  bool root_done() const override { return done; }
  void mark_root_done() override { done = true; }
  void wake_workers() override {}
  void piece_done(task* t) override { detail::piece_done(t); }
  void alarm_victim(task* t) override { detail::alarm_victim(t); }
  std::vector<std::pair<std::uint64_t, std::string>> incumbent_values() override {
    return {{1, std::string(reinterpret_cast<const char*>(&best), sizeof best)}};
  }
  bool apply_incumbent(std::uint64_t id, std::string_view bytes) override {
    std::uint64_t v = 0;
    if (id != 1 || bytes.size() != sizeof v) throw std::runtime_error("not the simulation's incumbent");
    std::memcpy(&v, bytes.data(), sizeof v);
    if (v <= best) return false;
    best = v;
    return true;
  }
  std::vector<board_write> board_writes() override {
    std::vector<board_write> out;
    for (std::uint64_t key : board_written) {
      auto [stamp, v] = board[key];
      out.emplace_back(sim_board_id, key, stamp, std::string(reinterpret_cast<const char*>(&v), sizeof v));
    }
    board_written.clear();
    return out;
  }
  void apply_board(std::uint64_t id, std::uint64_t key, std::uint64_t stamp, std::string_view value) override {
    std::uint64_t v = 0;
    if (id != sim_board_id || value.size() != sizeof v) throw std::runtime_error("not the simulation's board");
    std::memcpy(&v, value.data(), sizeof v);
    lamport = std::max(lamport, stamp >> 16);
    board_store(key, stamp, v);
  }
};

struct world {
  config c;
  std::mt19937_64 rng;
  std::uint64_t steps = 0, batches = 0, remote_pieces = 0, remote_stops = 0, remote_cancels = 0,
                remote_cancels_taken = 0, gives_while_stopping = 0, remote_steal_backs = 0;
  std::uint64_t expected = 0;
  std::map<std::uint64_t, std::uint64_t> best_below;  // config::incumbents
  std::uint64_t thrower = 0;                          // config::throws: the leaf that throws
  // Batches in flight, [from][to], and delivered but not yet received, [to].
  std::vector<std::vector<std::deque<std::string>>> flight;
  std::vector<std::deque<std::pair<int, std::string>>> arrived;
  std::vector<std::unique_ptr<process>> ps;
  std::map<std::pair<int, std::uint64_t>, int> runs;  // (giver's rank, its handle) -> times started
  sim_worker* stepping = nullptr;  // the worker whose step is under way
  int preempted = 0;
  // The progress check: the last step at which a piece or an iteration
  // moved (an iteration begun, a piece started or merged, a frame
  // finished), and the longest span without (outcome::quiet_max).
  std::uint64_t last_moved = 0, quiet_max = 0;
  // The stopping-early check. A piece in another process that its giver
  // told to stop is chased: the giver's message thread ends a turn (the
  // STOP is in what it sent by then: `need` batches to the thief's
  // process), the thief's message thread receives them all, and ends that
  // turn: from then on the piece must not run on to its end unstopped.
  // (giver's rank, its handle) -> the chase; and the longest a stop took to
  // reach its piece (outcome::stop_delivery_max).
  struct stop_chase {
    int giver = 0, thief = 0;
    std::uint64_t told = 0, need = 0;
    int turns = 0;  // of the giver's message thread, begun after it told
    int phase = 0;  // 0 the giver's turns, 1 the batches received and the thief's turn ending, 2 reached
  };
  std::map<std::pair<int, std::uint64_t>, stop_chase> stop_told;
  std::uint64_t stop_delivery_max = 0;
  std::vector<std::vector<std::uint64_t>> sent_to, received_from;  // batches [from][to]
  // turn_ended(rank, began): a turn of rank's message thread that began at
  // step `began` (a worker's step may run inside a turn: claim_window).
  void turn_ended(int rank, std::uint64_t began) {
    for (auto& [key, ch] : stop_told) {
      // Two turns: one that begins while the proxy still waits for its
      // worker's answer sends the piece (tend_proxies), and the stop only
      // at the next.
      if (ch.phase == 0 && ch.giver == rank && began > ch.told && ++ch.turns == 2) {
        ch.need = sent_to[static_cast<std::size_t>(ch.giver)][static_cast<std::size_t>(ch.thief)];
        ch.phase = 1;
      }
      if (ch.phase == 1 && ch.thief == rank &&
          received_from[static_cast<std::size_t>(ch.giver)][static_cast<std::size_t>(ch.thief)] >= ch.need)
        ch.phase = 2;  // received in this turn or before: handled by its end
    }
  }
  // config::boards: the newest write of each key, over all root calls.
  std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> board_want;
  std::uint64_t board_writes = 0;
  void moved() { last_moved = steps; }
  bool messages_in_flight() const;
  // config::tables, this root call: updates issued and applied, by leaf;
  // the leaves whose updates each piece issued, and those its giver had
  // issued to other processes before giving it, by (giver's rank, serial).
  std::map<std::uint64_t, int> issued, applied;
  std::map<std::pair<int, std::uint64_t>, std::vector<std::uint64_t>> piece_updates, before_give;
  std::vector<std::uint64_t> expected_entries;  // by position, over all root calls
  std::uint64_t locks_preempted = 0;
  // Shared memory: one object per process, its file and size.
  std::vector<char*> objects;
  std::vector<int> fds;
  std::size_t object_bytes = 0, region_bytes = 0;

  std::uint64_t roll(std::uint64_t n) { return n ? rng() % n : 0; }
  // config::turn_held: a worker's step holds its message thread's turn.
  // One at a time, and no turn of any process runs
  // in the step's preemption windows meanwhile: a turn of another process
  // there would take two turn locks in one order here and the other order
  // elsewhere (ThreadSanitizer reports the inversion, though one thread
  // cannot deadlock).
  bool held_turn = false;
  bool any_step(sim_worker* except);
  void worker_step(sim_worker& s);
  bool leaf_update(sim_worker& s, std::uint64_t id);
};

world* current = nullptr;

// config::boards: leaf `id` publishes id under key id % 4 (board::publish).
void publish_on_board(process& p, std::uint64_t id) {
  world& wd = *p.wd;
  std::uint64_t key = id % 4;
  std::uint64_t stamp = (++p.lamport << 16) | static_cast<std::uint64_t>(p.rank);
  p.board_store(key, stamp, id);
  auto& want = wd.board_want[key];
  if (stamp > want.first) want = {stamp, id};
  ++wd.board_writes;
  p.net->workers().board_published(sim_board_id, key, stamp, std::string(reinterpret_cast<const char*>(&id), sizeof id));
}

bool world::messages_in_flight() const {
  for (const auto& to : arrived)
    if (!to.empty()) return true;
  for (const auto& from : flight)
    for (const auto& q : from)
      if (!q.empty()) return true;
  return false;
}

// --- config::tables: the table every leaf adds to ---

constexpr std::uint32_t sim_table_id = 1;
constexpr std::uint32_t update_bytes = 16;  // the leaf's id and what it adds

std::pair<int, std::uint64_t> piece_key(const process& p, const tree_task* t);

// The update type, as table.hpp's apply() registers one: run by the
// owner's worker (its own entries, or what its message thread hands it) or
// by the owner's message thread.
void apply_leaf_updates(detail::table_core& t, const char* records, std::uint32_t count) {
  world& wd = *current;
  for (std::uint32_t k = 0; k < count; ++k) {
    const char* rec = records + static_cast<std::size_t>(k) * (sizeof(std::int64_t) + update_bytes);
    std::int64_t pos;
    std::uint64_t leaf, add;
    std::memcpy(&pos, rec, sizeof pos);
    std::memcpy(&leaf, rec + 8, sizeof leaf);
    std::memcpy(&add, rec + 16, sizeof add);
    if (!t.owns(pos))
      throw sim_failure("rank " + std::to_string(t.shape.rank) + " applied the update of leaf " + std::to_string(leaf) +
                        " to position " + std::to_string(pos) + ", which it does not hold");
    if (wd.issued[leaf] == 0)
      throw sim_failure("rank " + std::to_string(t.shape.rank) + " applied an update of leaf " + std::to_string(leaf) +
                        " that was not issued in this root call");
    if (++wd.applied[leaf] > wd.issued[leaf])
      throw sim_failure("the update of leaf " + std::to_string(leaf) + " was applied twice (rank " +
                        std::to_string(t.shape.rank) + ")");
    std::uint64_t v;
    std::memcpy(&v, t.local(pos), sizeof v);
    v += add;
    std::memcpy(t.local(pos), &v, sizeof v);
  }
}
const std::uint64_t leaf_op = detail::register_table_op("tascell::sim::leaf_update", &apply_leaf_updates, update_bytes);

void hand_batch(sim_worker& s, int owner) {
  sim_worker::destination& d = s.to[static_cast<std::size_t>(owner)];
  // One run (net/table_protocol.hpp): table id, count, update type, update
  // size; then the records.
  std::string b(4 + 4 + 8 + 4, '\0');
  std::memcpy(b.data(), &sim_table_id, 4);
  std::memcpy(b.data() + 4, &d.count, 4);
  std::memcpy(b.data() + 8, &leaf_op, 8);
  std::memcpy(b.data() + 16, &update_bytes, 4);
  b += d.buf;
  s.p->net->tables().hand(owner, std::move(b), d.count);
  d.buf.clear();
  d.count = 0;
  d.sent = true;
}

// update_sender.cpp's settle_updates, in steps: hands what it holds, sends
// the fences, and does `then` once every process it sent to has answered.
void settle(sim_worker& s, std::function<void()> then) {
  std::vector<int> dests;
  for (std::size_t r = 0; r < s.to.size(); ++r) {
    if (s.to[r].count > 0) hand_batch(s, static_cast<int>(r));
    if (s.to[r].sent) dests.push_back(static_cast<int>(r));
    s.to[r].sent = false;
  }
  if (dests.empty()) {
    s.unsettled.clear();
    return then();
  }
  s.fence_done->store(false, std::memory_order_relaxed);
  s.p->net->tables().fence(dests, s.fence_done.get());
  s.settling = true;
  s.then = std::move(then);
}

// A leaf's update (table.hpp's apply()); false when its entry's sub-block
// is locked by another worker of its process (preempted inside): the leaf
// waits, as apply() spins.
bool world::leaf_update(sim_worker& s, std::uint64_t id) {
  process& p = *s.p;
  detail::table_core& t = *p.table;
  std::int64_t pos = t.shape.to_pos(static_cast<std::int64_t>(leaf_value(id) % static_cast<std::uint64_t>(t.shape.n)));
  int owner = t.shape.owner_of_pos(pos);
  std::uint64_t add = leaf_value(id) >> 20;
  char rec[sizeof(std::int64_t) + update_bytes];
  std::memcpy(rec, &pos, 8);
  std::memcpy(rec + 8, &id, 8);
  std::memcpy(rec + 16, &add, 8);
  std::int64_t sub = owner == p.rank && t.guarded ? t.sub_of(pos) : -1;
  if (sub >= 0 && !t.try_lock_sub(sub)) return false;
  ++issued[id];
  expected_entries[static_cast<std::size_t>(pos)] += add;
  for (std::size_t k = s.stack.size(); k-- > 0;)
    if (s.stack[k]->piece) {
      piece_updates[piece_key(p, s.stack[k]->piece)].push_back(id);
      break;
    }
  if (owner == p.rank) {
    if (sub >= 0 && preempted == 0 && roll(16) < static_cast<std::uint64_t>(c.preempt_claims)) {
      // Preempted holding the lock: the message thread cannot apply what
      // arrives for this sub-block meanwhile (a fence after it waits).
      ++preempted;
      ++locks_preempted;
      std::uint64_t k = roll(120);
      for (std::uint64_t j = 0; j < k; ++j) any_step(stepping);
      --preempted;
    }
    apply_leaf_updates(t, rec, 1);
    if (sub >= 0) t.unlock_sub(sub);
    return true;
  }
  if (s.to.empty()) s.to.resize(ps.size());
  sim_worker::destination& d = s.to[static_cast<std::size_t>(owner)];
  d.buf.append(rec, sizeof rec);
  ++d.count;
  s.unsettled.push_back(id);
  if (d.count >= static_cast<std::uint32_t>(c.batch_updates)) hand_batch(s, owner);
  return true;
}

void link::send(int to, std::string batch) {
  wd->flight[static_cast<std::size_t>(rank)][static_cast<std::size_t>(to)].push_back(std::move(batch));
  ++wd->sent_to[static_cast<std::size_t>(rank)][static_cast<std::size_t>(to)];
  ++wd->batches;
}

bool link::receive(int& from, std::string& batch) {
  auto& q = wd->arrived[static_cast<std::size_t>(rank)];
  if (q.empty()) return false;
  from = q.front().first;
  batch = std::move(q.front().second);
  q.pop_front();
  ++wd->received_from[static_cast<std::size_t>(from)][static_cast<std::size_t>(rank)];
  return true;
}

link::time_point link::now() const { return time_point(std::chrono::microseconds(wd->steps)); }

// --- workers: the runtime's rules for the shared words (request.cpp,
// serve.cpp, join.cpp), one small step at a time ---

bool begin_request(sim_worker& s, worker_face* v, tree_task* wanted) {
  worker_impl* w = s.w;
  if (!v || v == w) return false;
  w->wanted = wanted;
  w->reply.store(detail::no_reply, std::memory_order_relaxed);
  worker_face* expected = nullptr;
  if (!v->requester.compare_exchange_strong(expected, w, std::memory_order_acq_rel, std::memory_order_relaxed))
    return false;
  v->attention.store(1, std::memory_order_release);
  if (v->remote_rank.load(std::memory_order_relaxed) >= 0) s.p->net->workers().wake();
  s.asking = true;
  return true;
}

// A piece by its giver's rank and serial, the same in every process.
std::pair<int, std::uint64_t> piece_key(const process& p, const tree_task* t) {
  return t->from_rank >= 0 ? std::make_pair(t->from_rank, t->from_handle) : std::make_pair(p.rank, t->serial);
}

void start_piece(sim_worker& s, tree_task* t) {
  world& wd = *s.p->wd;
  wd.moved();
  std::pair<int, std::uint64_t> key = piece_key(*s.p, t);
  if (++wd.runs[key] > 1)
    throw sim_failure("piece " + std::to_string(key.second) + " of rank " + std::to_string(key.first) +
                      " started twice");
  if (t->from_rank >= 0) {
    ++wd.remote_pieces;
    s.p->net->tables().arrivals().acquire_applied();
  }
  if (auto it = wd.before_give.find(key); it != wd.before_give.end())
    for (std::uint64_t leaf : it->second)
      if (wd.applied[leaf] == 0)
        throw sim_failure("piece " + std::to_string(key.second) + " of rank " + std::to_string(key.first) +
                          " started on rank " + std::to_string(s.p->rank) + " before the update of leaf " +
                          std::to_string(leaf) + ", which its giver issued before giving it, was applied");
  auto f = std::make_unique<frame>();
  f->depth = t->depth;
  f->id = t->id;
  f->next = t->lo;
  f->end = t->hi;
  f->piece = t;
  s.stack.push_back(std::move(f));
  // run_task: a stop that came while the piece waited for this worker (its
  // attention served in the request's spin) is seen at its first poll.
  if (t->stop.load(std::memory_order_acquire)) s.w->attention.store(1, std::memory_order_release);
  // run_task: an idle worker's own point is now this piece's.
  if (s.nested == 0) s.w->offer_depth.store(t->tree_depth, std::memory_order_relaxed);
  ++s.nested;
  s.w->depth = s.nested;
  s.w->busy.store(true, std::memory_order_relaxed);
  s.w->hungry.store(false, std::memory_order_relaxed);
}

// give.cpp's offer: what this worker offers another process after a give
// that is not a steal-back (worker_face::offer_depth, read by
// choose_giver): the shallowest frame with work left.
void store_offer(sim_worker& s) {
  std::int32_t d = INT32_MAX;
  for (const auto& f : s.stack)
    if (f->next < f->end) d = std::min(d, f->depth);
  s.w->offer_depth.store(d, std::memory_order_relaxed);
}

// give.cpp's rule: the oldest point with work; for a steal-back, only the
// points of the piece the thief waits for (above its boundary, below the
// next piece's).
tree_task* give(sim_worker& s, worker_face* thief) {
  std::size_t from = 0, to = s.stack.size();
  if (thief->wanted) {
    from = to;
    for (std::size_t k = 0; k < s.stack.size(); ++k)
      if (s.stack[k]->piece == thief->wanted) from = k;
    for (std::size_t k = from + 1; k < s.stack.size(); ++k)
      if (s.stack[k]->piece) {
        to = k;
        break;
      }
  }
  for (std::size_t k = from; k < to; ++k) {
    frame& f = *s.stack[k];
    if (f.next >= f.end) continue;
    std::int64_t mid = f.next + (f.end - f.next) / 2;
    auto* t = new tree_task;
    t->kind = &tree_kind;
    t->lo = mid;
    t->hi = f.end;
    t->depth = f.depth;
    t->id = f.id;
    t->victim = s.w;
    t->origin = &f.aux;
    t->thief.store(thief, std::memory_order_relaxed);
    t->tree_depth = f.depth;
    t->serial = detail::next_task_serial();
    f.end = mid;
    f.given.push_back(t);
    ++f.pending;
    if (!thief->wanted) store_offer(s);
    return t;
  }
  if (!thief->wanted) store_offer(s);
  return nullptr;
}

// serve.cpp's stop_point: nothing more starts, every piece not done is told
// to stop (a proxy's message thread sends STOP on).
void stop_frame(sim_worker& s, frame& f, tree_task* spare = nullptr) {
  f.next = f.end;
  if (f.stopped) return;
  f.stopped = true;
  for (tree_task* t : f.given) {
    if (t == spare || t->done.load(std::memory_order_acquire)) continue;
    t->stop.store(true, std::memory_order_release);
    if (auto* thief = static_cast<worker_face*>(t->thief.load(std::memory_order_acquire))) {
      thief->attention.store(1, std::memory_order_release);
      if (int to = thief->remote_rank.load(std::memory_order_relaxed); to >= 0) {
        world::stop_chase ch;
        ch.giver = s.p->rank;
        ch.thief = to;
        ch.told = s.p->wd->steps;
        s.p->wd->stop_told.emplace(piece_key(*s.p, t), ch);
        s.p->net->workers().wake();
      }
    }
  }
}

// The owner's running part above frame k ends (serve.cpp's stop_target):
// its newer frames up to the newest piece's boundary. A piece running nested
// above (at a join) finishes first: the walk stops at its boundary.
void abort_above(sim_worker& s, std::size_t k) {
  for (std::size_t j = k + 1; j < s.stack.size() && !s.stack[j]->piece; ++j) s.stack[j]->aborted = true;
}

// serve.cpp's propagate_cancel: a cancelled point that is a piece's own
// cancels the @dowork the piece came from (in its process).
void propagate_cancel(sim_worker& s, frame& f) {
  tree_task* t = f.piece;
  if (!t) return;
  if (t->from_rank >= 0) {
    if (!t->cancel_up.exchange(true, std::memory_order_acq_rel)) {
      ++s.p->wd->remote_cancels;
      s.p->net->workers().piece_cancelled(t);
    }
    return;
  }
  t->cancel_up.store(true, std::memory_order_release);
  detail::alarm_victim(t);  // propagate_cancel's, the runtime's own
}

// Frame k is cancelled by its piece t (or by its own iteration: t null):
// nothing more starts there, its other pieces stop, newer frames end.
void cancel_frame(sim_worker& s, std::size_t k, tree_task* t) {
  frame& f = *s.stack[k];
  if (f.stopped) return;
  f.cancelled = true;
  stop_frame(s, f, t);
  abort_above(s, k);
  propagate_cancel(s, f);
}

// At a poll: a piece of a frame that ended with an exception makes that
// frame pass it on and every newer frame end (process_alarms); a piece
// this worker runs that was told to stop ends, with every newer frame
// (stop_target). True when something must unwind: requests are refused.
// As stop_target walks from the newest frame and stops at the newest
// piece's boundary, only frames of the newest piece count: an outer piece
// stopped while a nested one runs above it unwinds once the nested piece
// returns, and meanwhile its frames may still give. A frame stopped and
// waiting at its join (stop_frame done) unwinds nothing more.
bool take_stops(sim_worker& s) {
  bool unwinding = false;
  std::size_t newest_piece = 0;
  for (std::size_t k = 0; k < s.stack.size(); ++k)
    if (s.stack[k]->piece) newest_piece = k;
  for (std::size_t k = 0; k < s.stack.size(); ++k) {
    frame& f = *s.stack[k];
    bool from_here = false;
    if (f.aux.alarm.exchange(false, std::memory_order_acq_rel))
      for (tree_task* t : f.given) {
        if (t->merged) continue;
        if (t->done.load(std::memory_order_acquire) && t->error && !f.error) {
          f.error = t->error;
          from_here = true;
        } else if (t->cancel_up.load(std::memory_order_acquire) && !f.stopped) {
          // While the piece still runs in another process: CANCEL_UP came
          // (not the flag of its RESULT, which the join reads).
          auto* thief = static_cast<worker_face*>(t->thief.load(std::memory_order_acquire));
          if (!t->done.load(std::memory_order_acquire) && thief &&
              thief->remote_rank.load(std::memory_order_relaxed) >= 0)
            ++s.p->wd->remote_cancels_taken;
          cancel_frame(s, k, t);
        }
      }
    if (f.piece && f.piece->stop.load(std::memory_order_acquire) && !f.aborted) {
      f.aborted = true;
      from_here = true;
      world& wd = *s.p->wd;
      if (auto it = wd.stop_told.find(piece_key(*s.p, f.piece)); f.piece->from_rank >= 0 && it != wd.stop_told.end())
        wd.stop_delivery_max = std::max(wd.stop_delivery_max, wd.steps - it->second.told);
    }
    if (from_here) abort_above(s, k);
    bool at_join = k + 1 == s.stack.size() && f.stopped;
    if (k >= newest_piece && !at_join) unwinding = unwinding || f.error || f.aborted;
  }
  return unwinding;
}

// serve.cpp's answer_request, once the piece may leave: a piece for a
// posted request goes to the thief's mailbox.
void answer(sim_worker& s, worker_face* r, tree_task* t) {
  bool proxy = r->remote_rank.load(std::memory_order_acquire) >= 0;
  int mailed_to = t && proxy ? s.p->net->workers().mail_piece(r, t) : -1;
  if (detail::release_request(s.w, r, t ? static_cast<task*>(t) : detail::refused) && proxy) {
    if (mailed_to >= 0) s.p->net->workers().mail_sent(mailed_to);
    else s.p->net->workers().wake();
  }
}

// serve.cpp's serve_or_unwind. A request is refused only when something
// must unwind and this poll may unwind it (may_unwind): in the request spin
// and in a drain (a frame that ended with an exception or a stop, waiting
// for its pieces) the real code polls with may_unwind false and still gives
// from the frames with work, older ones included (as it does inside
// cancelled()).
void serve(sim_worker& s, bool may_unwind) {
  worker_impl* w = s.w;
  w->attention.exchange(0, std::memory_order_acq_rel);
  bool unwinding = take_stops(s);
  // serve_table_inbound: with one worker a process, what its message thread handed it.
  if (s.p->table && s.p->net->tables().inbound_ready()) s.p->net->tables().serve_inbound();
  worker_face* r = w->requester.load(std::memory_order_acquire);
  if (!r) return;
  tree_task* t = unwinding && may_unwind ? nullptr : give(s, r);
  if (t && std::any_of(s.stack.begin(), s.stack.end(), [](const auto& f) { return f->error || f->aborted; }))
    ++s.p->wd->gives_while_stopping;
  if (t && s.p->table) {
    // give.cpp: work given away comes after the updates issued so far.
    s.p->wd->before_give[piece_key(*s.p, t)] = s.unsettled;
    return settle(s, [&s, r, t] { answer(s, r, t); });
  }
  answer(s, r, t);
}

void end_piece(sim_worker& s, tree_task* t, std::uint64_t result, std::exception_ptr error, bool completed) {
  t->result = result;
  t->completed = completed;
  t->error = error;
  --s.nested;
  s.w->depth = s.nested;
  s.w->busy.store(!s.stack.empty(), std::memory_order_relaxed);
  if (t->from_rank >= 0) {
    s.p->net->workers().piece_finished(t, s.w, s.nested == 0);  // the network owns it from here
    return;
  }
  detail::piece_done(t);  // run_task's end, the runtime's own
}

void finish_frame(sim_worker& s) {
  s.p->wd->moved();
  std::unique_ptr<frame> f = std::move(s.stack.back());
  s.stack.pop_back();
  for (tree_task* t : f->given) delete t;
  bool completed = !f->error && !f->aborted;
  if (f->piece && f->piece->from_rank >= 0 && f->piece->stop.load(std::memory_order_acquire)) ++s.p->wd->remote_stops;
  if (f->piece && f->piece->from_rank >= 0 && !f->aborted) {
    // Stopping early: a piece its giver told to stop ends unstopped only if
    // it finished before the stop could reach it.
    world& wd = *s.p->wd;
    auto it = wd.stop_told.find(piece_key(*s.p, f->piece));
    if (it != wd.stop_told.end() && it->second.phase == 2)
      throw sim_failure("piece " + std::to_string(f->piece->from_handle) + " of rank " +
                        std::to_string(f->piece->from_rank) + " ran on to its end on rank " + std::to_string(s.p->rank) +
                        " unstopped, " + std::to_string(wd.steps - it->second.told) +
                        " steps after its giver told it to stop and after this process received what the giver "
                        "sent in its next two turns: the stop was lost");
  }
  if (f->piece) {
    // request.cpp: the piece is finished once its updates are applied.
    if (s.p->table)
      return settle(s, [&s, t = f->piece, acc = f->acc, error = f->error, completed] { end_piece(s, t, acc, error, completed); });
    end_piece(s, f->piece, f->acc, f->error, completed);
  } else if (!s.stack.empty()) {
    frame& parent = *s.stack.back();
    if (f->error && !parent.error) parent.error = f->error;
    else if (completed) parent.acc = combine(s.p->wd->c, parent.acc, f->acc);
  } else {  // the root task (rank 0): it ends once its updates are applied
    auto end_root = [&s, acc = f->acc, error = f->error] {
      s.w->busy.store(false, std::memory_order_relaxed);
      s.p->done = true;
      s.p->outcome = std::to_string(acc);
      if (error) {
        try {
          std::rethrow_exception(error);
        } catch (const std::exception& e) {
          s.p->outcome = std::string("error: ") + e.what();
        }
      }
    };
    if (s.p->table) return settle(s, end_root);
    end_root();
  }
}

void seek(sim_worker& s) {
  process& p = *s.p;
  int k = p.workers();
  if (k > 1 && !s.tried_local) {
    s.tried_local = true;
    int v = static_cast<int>(p.wd->roll(static_cast<std::uint64_t>(k - 1)));
    if (v >= s.index) ++v;
    if (begin_request(s, p.worker(v), nullptr)) return;
  }
  s.tried_local = false;
  if (task* t = p.net->workers().take_work(s.w, true)) start_piece(s, static_cast<tree_task*>(t));
}

void help(sim_worker& s, frame& f) {
  // join.cpp's help: results of pieces given to processes of this machine
  // first, then a steal-back (a request for any work first when the thief
  // is another process of this machine).
  s.p->net->workers().take_results();
  s.help_other = !s.help_other;
  if (!s.help_other) {
    // The newest piece given first (join.cpp walks a->given, newest first).
    for (auto it = f.given.rbegin(); it != f.given.rend(); ++it) {
      tree_task* t = *it;
      if (t->merged || t->done.load(std::memory_order_acquire)) continue;
      auto* thief = static_cast<worker_face*>(t->thief.load(std::memory_order_acquire));
      process& p = *s.p;
      if (thief && thief->remote_rank.load(std::memory_order_relaxed) >= 0 && p.net->workers().shares_requests() &&
          s.nested < 3) {
        if (p.net->workers().expecting_work()) return;
        if (task* u = p.net->workers().take_work(s.w, true)) return start_piece(s, static_cast<tree_task*>(u));
        if (p.net->workers().expecting_work()) return;
      }
      bool remote = thief && thief->remote_rank.load(std::memory_order_relaxed) >= 0;
      if (remote && p.wd->steps < s.next_remote_back) return;
      if (begin_request(s, thief, t)) {
        s.asking_back = true;
        s.asking_remote = remote;
        if (remote) ++p.wd->remote_steal_backs;
        return;
      }
      break;
    }
    return;
  }
  // join.cpp's help: a local victim first and, when it refuses, work from
  // another process (every other turn here, as in seek).
  bool may_nest = s.nested < 3;
  process& p = *s.p;
  if (may_nest && p.workers() > 1 && !s.tried_local) {
    s.tried_local = true;
    int v = static_cast<int>(p.wd->roll(static_cast<std::uint64_t>(p.workers() - 1)));
    if (v >= s.index) ++v;
    if (begin_request(s, p.worker(v), nullptr)) return;
  }
  s.tried_local = false;
  if (task* t = p.net->workers().take_work(s.w, may_nest)) start_piece(s, static_cast<tree_task*>(t));
}

void world::worker_step(sim_worker& s) {
  worker_impl* w = s.w;
  // config::turn_held: for this step the message thread is in a turn (not
  // nested: see held_turn). The
  // worker's try_take_turn then runs on the thread that holds the lock:
  // glibc's trylock of a normal mutex fails then as for any other thread
  // (the standard leaves it undefined; TSan reports nothing for it).
  struct turn_hold {
    std::unique_lock<std::mutex> lock;
    world* wd = nullptr;
    ~turn_hold() {
      if (lock.owns_lock()) wd->held_turn = false;
    }
  } hold;
  if (!held_turn && roll(16) < static_cast<std::uint64_t>(c.turn_held)) {
    hold.wd = this;
    hold.lock = std::unique_lock<std::mutex>(s.p->net->turn_lock_for_testing(), std::try_to_lock);
    held_turn = hold.lock.owns_lock();
  }
  sim_worker* outer = stepping;
  stepping = &s;
  if (s.settling) {
    // settle_updates' wait: it applies what its message thread hands it.
    if (s.p->net->tables().inbound_ready()) s.p->net->tables().serve_inbound();
    if (s.fence_done->load(std::memory_order_acquire)) {
      s.settling = false;
      s.unsettled.clear();
      std::function<void()> then = std::move(s.then);
      then();
    }
  } else if (w->attention.load(std::memory_order_relaxed)) {
    bool draining = !s.stack.empty() && s.stack.back()->stopped &&
                    (s.stack.back()->error || s.stack.back()->aborted);
    serve(s, !s.asking && !draining);
  } else if (s.asking) {
    task* t = w->reply.load(std::memory_order_acquire);
    if (t != detail::no_reply) {
      s.asking = false;
      if (s.asking_back && t != detail::refused) s.remote_back_refusals = 0;
      if (s.asking_remote && t == detail::refused) {
        unsigned k = std::min(s.remote_back_refusals++, 6u);
        s.next_remote_back = steps + (20u << k);
      }
      s.asking_back = s.asking_remote = false;
      if (t != detail::refused) start_piece(s, static_cast<tree_task*>(t));
    }
  } else if (s.stack.empty()) {
    if (!s.p->done) seek(s);
  } else {
    frame& f = *s.stack.back();
    if (f.error || f.aborted) stop_frame(s, f);
    if (f.next < f.end) {
      std::int64_t i = f.next;
      std::uint64_t id = child_id(f.id, c.branch, i);
      process& p = *s.p;
      bool pruned = c.incumbents && best_below[id] <= p.best;
      if (c.tables && f.depth + 1 == c.depth && !pruned && !leaf_update(s, id)) {
        stepping = outer;
        return;  // its entry's sub-block is locked: this leaf again next step
      }
      ++f.next;
      moved();
      if (c.boards && !pruned && f.depth + 1 == c.depth && id % 5 == 0) publish_on_board(*s.p, id);
      if (pruned) {
        // pruned: nothing below can improve the incumbent
      } else if (f.depth + 1 == c.depth && c.incumbents) {
        std::uint64_t v = leaf_score(id);
        f.acc = std::max(f.acc, v);
        if (v > p.best) {
          p.best = v;
          p.net->workers().incumbent_improved(1, std::string(reinterpret_cast<const char*>(&v), sizeof v));
        }
      } else if (f.depth + 1 == c.depth && c.cancels) {
        if (id == thrower) {
          f.acc = 1;  // found
          cancel_frame(s, s.stack.size() - 1, nullptr);
        }
      } else if (f.depth + 1 == c.depth) {
        f.acc += leaf_value(id);
        if (c.throws && id == thrower) f.error = std::make_exception_ptr(std::runtime_error("leaf " + std::to_string(id)));
      } else {
        auto child = std::make_unique<frame>();
        child->depth = f.depth + 1;
        child->id = id;
        child->end = c.branch;
        s.stack.push_back(std::move(child));
      }
    } else {
      for (tree_task* t : f.given) {
        if (t->merged || !t->done.load(std::memory_order_acquire)) continue;
        if (auto it = piece_updates.find({s.p->rank, t->serial}); it != piece_updates.end())
          for (std::uint64_t leaf : it->second)
            if (applied[leaf] == 0)
              throw sim_failure("piece " + std::to_string(t->serial) + " of rank " + std::to_string(s.p->rank) +
                                " was seen done at its join before the update of leaf " + std::to_string(leaf) +
                                ", issued in it, was applied");
        if (t->error && !f.error) f.error = t->error;
        if (t->completed) f.acc = combine(c, f.acc, t->result);
        t->merged = true;
        moved();
        --f.pending;
        if (t->cancel_up.load(std::memory_order_acquire) && !f.stopped) cancel_frame(s, s.stack.size() - 1, t);
      }
      if (f.error || f.aborted) stop_frame(s, f);
      if (!f.joining) {
        f.joining = true;
        s.remote_back_refusals = 0;
      }
      if (f.pending > 0) {
        help(s, f);
      } else {
        // join.cpp's wait_scope: when a join ends the worker computes again,
        // no longer hungry (help may have said it was).
        if (!f.given.empty()) s.w->hungry.store(false, std::memory_order_relaxed);
        finish_frame(s);
      }
    }
  }
  stepping = outer;
}

// One step of anything but `except`: a worker, a message thread's turn, or
// the delivery of the oldest batch from one process to another.
bool world::any_step(sim_worker* except) {
  std::size_t n = ps.size();
  std::vector<std::pair<int, int>> choices;  // (kind, index): 0 worker, 1 turn, 2 delivery
  for (std::size_t r = 0; r < n; ++r) {
    for (std::size_t i = 0; i < ps[r]->workers_.size(); ++i)
      if (&ps[r]->workers_[i] != except) choices.push_back({0, static_cast<int>(r * 64 + i)});
    if (!held_turn) choices.push_back({1, static_cast<int>(r)});
    for (std::size_t to = 0; to < n; ++to)
      if (!flight[r][to].empty()) choices.push_back({2, static_cast<int>(r * 64 + to)});
  }
  ++steps;
  auto [kind, x] = choices[roll(choices.size())];
  if (kind == 0) {
    worker_step(ps[static_cast<std::size_t>(x / 64)]->workers_[static_cast<std::size_t>(x % 64)]);
  } else if (kind == 1) {
    std::uint64_t began = steps;
    ps[static_cast<std::size_t>(x)]->net->turn();
    turn_ended(x, began);
  } else {
    auto from = static_cast<std::size_t>(x / 64), to = static_cast<std::size_t>(x % 64);
    arrived[to].push_back({static_cast<int>(from), std::move(flight[from][to].front())});
    flight[from][to].pop_front();
  }
  return true;
}

// A worker claiming an armed request is preempted between looking and
// claiming: other steps run meanwhile (not nested).
void claim_window() {
  world& wd = *current;
  if (wd.preempted > 0 || wd.roll(16) >= static_cast<std::uint64_t>(wd.c.preempt_claims)) return;
  ++wd.preempted;
  std::uint64_t k = wd.roll(120);
  for (std::uint64_t i = 0; i < k; ++i) wd.any_step(wd.stepping);
  --wd.preempted;
}

void make_processes(world& wd) {
  const config& c = wd.c;
  std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  wd.object_bytes = net::shared_layout::object_bytes(c.processes, c.workers);
  wd.region_bytes = (sizeof(worker_impl) + page - 1) / page * page;
  for (int r = 0; r < c.processes; ++r) {
    auto p = std::make_unique<process>();
    p->wd = &wd;
    p->rank = r;
    p->ln.wd = &wd;
    p->ln.rank = r;
    int fd = -1;
    if (c.shared) {
      fd = memfd_create("tascell-sim", 0);
      if (fd < 0 || ftruncate(fd, static_cast<off_t>(wd.object_bytes)) != 0) throw std::runtime_error("memfd");
      void* o = mmap(nullptr, wd.object_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (o == MAP_FAILED) throw std::runtime_error("mmap");
      wd.objects.push_back(static_cast<char*>(o));
      wd.fds.push_back(fd);
    }
    p->workers_.resize(static_cast<std::size_t>(c.workers));
    for (int i = 0; i < c.workers; ++i) {
      void* region = mmap(nullptr, wd.region_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (region == MAP_FAILED) throw std::runtime_error("mmap");
      if (c.shared &&
          mmap(region, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
               static_cast<off_t>(net::shared_layout::worker_offset(c.processes, i))) != region)
        throw std::runtime_error("mmap of a worker's first page");
      p->regions.push_back(region);
      sim_worker& s = p->workers_[static_cast<std::size_t>(i)];
      s.p = p.get();
      s.index = i;
      s.w = new (region) worker_impl;
      s.w->id = i;
    }
    wd.ps.push_back(std::move(p));
  }
  for (auto& p : wd.ps) {
    detail::settings cfg;
    cfg.workers = c.workers;
    cfg.seed = c.seed * 64 + static_cast<std::uint64_t>(p->rank) + 1;
    cfg.watchdog_s = 0;
    if (c.incumbents) {
      cfg.incumbent = detail::spread::lifeline;
      cfg.incumbent_param = 1;
    }
    p->net = std::make_unique<net::network>(*p, cfg, p->ln, p->rank, c.processes);
    if (c.shared) p->net->share_requests_for_testing(wd.objects);
    if (c.tables) {
      // make_table's layout, but this process's own table, not in the
      // registry (which several processes here share): the same id everywhere.
      auto t = std::make_shared<detail::table_core>();
      t->id = sim_table_id;
      t->name = "sim";
      detail::lay_out_table(*t,
                            detail::table_shape(c.table_entries, c.hashed ? tascell::spread::hashed : tascell::spread::block,
                                                c.processes, p->rank),
                            sizeof(std::uint64_t), alignof(std::uint64_t), c.workers > 1);
      p->table = t;
      p->net->tables().find_tables_with(
          [t](std::uint32_t id) { return id == t->id ? t : std::shared_ptr<detail::table_core>(); });
    }
    p->net->attach();
  }
  if (c.tables) wd.expected_entries.assign(static_cast<std::size_t>(c.table_entries), 0);
}

void destroy(world& wd) {
  for (auto& p : wd.ps) p->net.reset();
  for (auto& p : wd.ps) {
    for (auto& s : p->workers_) {
      while (!s.stack.empty()) {
        for (tree_task* t : s.stack.back()->given) delete t;
        s.stack.pop_back();
      }
      s.w->~worker_impl();
    }
    for (void* r : p->regions) munmap(r, wd.region_bytes);
  }
  for (char* o : wd.objects) munmap(o, wd.object_bytes);
  for (int fd : wd.fds) close(fd);
}

void dump(world& wd) {
  for (auto& p : wd.ps) p->net->describe_all();
}

}  // namespace

outcome run(const config& c) {
  world wd;
  wd.c = c;
  wd.rng.seed(c.seed);
  wd.expected = sequential(0, 0, c, wd.best_below);
  for (int d = 0; d < c.depth; ++d)  // a leaf on a path the seed chooses
    wd.thrower = child_id(wd.thrower, c.branch, static_cast<std::int64_t>((c.seed >> d) % static_cast<std::uint64_t>(c.branch)));
  std::size_t n = static_cast<std::size_t>(c.processes);
  wd.flight.assign(n, std::vector<std::deque<std::string>>(n));
  wd.arrived.assign(n, {});
  wd.sent_to.assign(n, std::vector<std::uint64_t>(n));
  wd.received_from.assign(n, std::vector<std::uint64_t>(n));
  outcome out;
  current = &wd;
  detail::claim_window_for_testing = c.preempt_claims > 0 ? &claim_window : nullptr;
  try {
    make_processes(wd);
    for (int call = 0; call < c.root_calls && out.ok; ++call) {
      // Each process begins the call (its program calls root(): the
      // incumbent is reset first) at a step of its own; rank 0 at once.
      std::vector<std::uint64_t> begin_at;
      std::uint64_t call_start = wd.steps;
      wd.moved();
      for (auto& p : wd.ps) {
        p->done = p->ended_local = p->over = false;
        p->begun = false;
        begin_at.push_back(p->rank == 0 ? 0 : wd.roll(static_cast<std::uint64_t>(c.late_begin) + 1));
      }
      // config::tables: each process's program writes its own entries
      // before it calls root(), in plain C++; the call's updates add to
      // what it wrote (an update applied before the write is lost).
      auto written = [&](std::int64_t pos) { return (static_cast<std::uint64_t>(call) + 1) << 40 | static_cast<std::uint64_t>(pos); };
      if (c.tables)
        for (std::int64_t pos = 0; pos < c.table_entries; ++pos)
          wd.expected_entries[static_cast<std::size_t>(pos)] = written(pos);
      auto begin_due = [&] {
        for (auto& p : wd.ps)
          if (!p->begun && wd.steps - call_start >= begin_at[static_cast<std::size_t>(p->rank)]) {
            if (p->table) {
              detail::table_core& t = *p->table;
              for (std::int64_t pos = t.first; pos < t.first + t.local_n; ++pos) {
                std::uint64_t v = written(pos);
                std::memcpy(t.local(pos), &v, sizeof v);
              }
            }
            p->begun = true;
            p->best = 0;
            p->outcome.clear();
            for (auto& s : p->workers_) s.w->hungry.store(false, std::memory_order_relaxed);
            p->net->roots().begin();
            if (p->table) p->net->tables().worker_in(true);
          }
      };
      begin_due();
      {
        sim_worker& root = wd.ps[0]->workers_[0];
        auto f = std::make_unique<frame>();
        f->end = c.branch;
        root.stack.push_back(std::move(f));
        root.w->offer_depth.store(0, std::memory_order_relaxed);
        root.w->busy.store(true, std::memory_order_relaxed);
      }
      for (;;) {
        wd.any_step(nullptr);
        begin_due();
        bool all_over = true;
        for (auto& p : wd.ps) {
          if (p->done && !p->ended_local) {
            bool idle = true;
            for (auto& s : p->workers_) idle = idle && s.stack.empty() && !s.asking && !s.settling;
            if (idle) {
              p->ended_local = true;
              p->net->roots().local_end(p->rank == 0 ? p->outcome : std::string());
              // runtime.cpp: once this process's workers are done.
              if (p->table) p->net->tables().worker_in(false);
            }
          }
          if (p->ended_local && !p->over) {
            std::string got;
            if (p->net->roots().over(got)) {
              p->over = true;
              if (p->rank != 0) p->outcome = got;
            }
          }
          all_over = all_over && p->over;
        }
        if (all_over) break;
        wd.quiet_max = std::max(wd.quiet_max, wd.steps - wd.last_moved);
        // A hang: nothing has moved for hang_steps steps (messages may still
        // go back and forth: idle processes keep asking each other).
        if (wd.steps - wd.last_moved > c.hang_steps) {
          dump(wd);
          throw sim_failure("a hang in root call " + std::to_string(call + 1) + ": for " +
                            std::to_string(c.hang_steps) + " steps no piece or iteration moved (" +
                            (wd.messages_in_flight() ? "messages still in flight" : "no message in flight") +
                            "); every process's state is above");
        }
        if (wd.steps > c.max_steps) {
          dump(wd);
          throw sim_failure("no end after " + std::to_string(wd.steps) + " steps (root call " +
                            std::to_string(call + 1) + "), though pieces kept moving; every process's state is above");
        }
      }
      std::string want = c.throws    ? "error: leaf " + std::to_string(wd.thrower)
                         : c.cancels ? std::string("1")
                                     : std::to_string(wd.expected);
      for (auto& p : wd.ps) {
        if (p->outcome != want)
          throw sim_failure("root call " + std::to_string(call + 1) + ": rank " + std::to_string(p->rank) +
                            " has " + p->outcome + ", the sequential program " + want);
        if (c.incumbents && p->best != wd.expected)
          throw sim_failure("root call " + std::to_string(call + 1) + ": rank " + std::to_string(p->rank) +
                            "'s incumbent is " + std::to_string(p->best) + " at the end, the best leaf " + want);
        // Every process's board holds the newest write of each key.
        if (c.boards && p->board != wd.board_want) {
          std::string what;
          for (auto& [key, e] : wd.board_want) {
            auto it = p->board.find(key);
            if (it == p->board.end() || it->second != e) {
              what = "key " + std::to_string(key) + " holds " +
                     (it == p->board.end() ? std::string("nothing") : std::to_string(it->second.second)) +
                     ", the newest write " + std::to_string(e.second);
              break;
            }
          }
          if (what.empty()) what = "a key nobody wrote";
          throw sim_failure("root call " + std::to_string(call + 1) + ": rank " + std::to_string(p->rank) +
                            "'s board at the end: " + what);
        }
      }
      if (c.tables) {
        // Every update issued in the call is applied at its end, once, and
        // every entry is what the updates issued for it add up to.
        for (auto [leaf, n] : wd.issued)
          if (wd.applied[leaf] != n)
            throw sim_failure("root call " + std::to_string(call + 1) + " ended before the update of leaf " +
                              std::to_string(leaf) + " was applied");
        for (auto& p : wd.ps) {
          detail::table_core& t = *p->table;
          for (std::int64_t pos = t.first; pos < t.first + t.local_n; ++pos) {
            std::uint64_t v;
            std::memcpy(&v, t.local(pos), sizeof v);
            if (v != wd.expected_entries[static_cast<std::size_t>(pos)])
              throw sim_failure("root call " + std::to_string(call + 1) + ": rank " + std::to_string(p->rank) +
                                "'s entry at position " + std::to_string(pos) + " is " + std::to_string(v) +
                                ", the updates issued for it add up to " +
                                std::to_string(wd.expected_entries[static_cast<std::size_t>(pos)]));
          }
        }
        wd.issued.clear();
        wd.applied.clear();
        wd.piece_updates.clear();
        wd.before_give.clear();
      }
    }
  } catch (const sim_failure& e) {
    out.ok = false;
    out.failure = e.what();
  }
  detail::claim_window_for_testing = nullptr;
  current = nullptr;
  out.steps = wd.steps;
  out.remote_pieces = wd.remote_pieces;
  out.batches = wd.batches;
  out.remote_stops = wd.remote_stops;
  out.remote_cancels = wd.remote_cancels;
  out.remote_cancels_taken = wd.remote_cancels_taken;
  out.gives_while_stopping = wd.gives_while_stopping;
  out.remote_steal_backs = wd.remote_steal_backs;
  out.locks_preempted = wd.locks_preempted;
  out.quiet_max = wd.quiet_max;
  out.stop_delivery_max = wd.stop_delivery_max;
  out.board_writes = wd.board_writes;
  for (auto& p : wd.ps)
    if (p->net) {
      out.table_updates += static_cast<std::uint64_t>(p->net->tables().sent().updates.load());
      out.update_batches += static_cast<std::uint64_t>(p->net->tables().sent().batches.load());
      out.fences_deferred += static_cast<std::uint64_t>(p->net->tables().arrivals().fences_deferred());
      out.held_for_call += static_cast<std::uint64_t>(p->net->tables().arrivals().held().held_for_call());
      net::network::counts c = p->net->figures();
      out.mailed += static_cast<std::uint64_t>(c.pieces_mailed);
      out.results_mailed += static_cast<std::uint64_t>(c.results_mailed);
      out.results_here += static_cast<std::uint64_t>(c.results_taken_by_workers);
      out.early_incumbents += c.incumbents_held_early;
      out.early_improved += c.incumbents_held_improved;
    }
  destroy(wd);
  return out;
}

}  // namespace tascell::sim
