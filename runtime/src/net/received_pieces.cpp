// The pieces of other processes that run in this one (received_pieces.hpp).
#include "received_pieces.hpp"

#include <istream>
#include <ostream>
#include <stdexcept>
#include <string>

#include "byte_streams.hpp"
#include "registry.hpp"
#include "tascell/detail/entry.hpp"
#include "tascell/wire.hpp"

namespace tascell::detail::net {

task* received_pieces::unpack(int from, reader& r, std::uint64_t& seq) {
  seq = r.get<std::uint64_t>("a request number");
  auto kind_id = r.get<std::uint64_t>("a kind of work");
  auto handle = r.get<std::uint64_t>("a piece handle");
  auto lo = r.get<std::int64_t>("a range");
  auto hi = r.get<std::int64_t>("a range");
  auto depth = r.get<std::int32_t>("a depth in the task tree");
  std::string_view inputs = r.bytes("the inputs");
  const node_kind* k = find_kind(kind_id);
  if (!k || !k->wire) throw malformed_message("work of a kind this binary does not have");
  view_source bytes(inputs);
  std::istream is(&bytes);
  task* t = nullptr;
  {
    in_archive a(is);
    t = k->wire->unpack(lo, hi, a);
  }
  t->kind = k;
  t->tree_depth = depth;
  t->from_rank = from;
  t->from_handle = handle;
  t->serial = next_task_serial();
  return t;
}

void received_pieces::record(std::uint64_t seq, task* t) {
  pieces_[{t->from_rank, t->from_handle}] = t;
  c_.log.note(protocol_log::step::work, seq, t->from_handle, t->from_rank);
  if (c_.loop.tracing()) c_.loop.note(trace_type::arrived, piece_flow_id(t->from_rank, t->from_handle), t->from_rank);
}

task* received_pieces::find(int from, std::uint64_t handle) const {
  auto it = pieces_.find({from, handle});
  return it == pieces_.end() ? nullptr : it->second;
}

void received_pieces::on_stop(int from, std::uint64_t handle) {
  task* t = find(from, handle);
  if (!t) return;  // finished meanwhile
  t->stop.store(true, std::memory_order_seq_cst);
  if (auto* thief = static_cast<worker_face*>(t->thief.load(std::memory_order_seq_cst)))
    thief->attention.store(1, std::memory_order_release);
}

std::uint8_t received_pieces::result_flags(const task* t) {
  return static_cast<std::uint8_t>((t->completed ? 1 : 0) | (t->cancel_up.load() ? 2 : 0) | (t->error ? 4 : 0));
}

std::size_t received_pieces::write_result(writer& w, task* t, std::size_t limit) {
  w.put(t->from_handle);
  w.put(result_flags(t));
  std::size_t at = w.open_bytes();
  {
    string_sink sink(w.out(), limit);
    std::ostream os(&sink);
    out_archive a(os);
    t->kind->wire->pack_result(t, a);
  }
  std::size_t outputs = w.close_bytes(at);
  w.bytes(t->error ? pack_exception(t->error) : std::string());
  if (w.out().size() > limit) throw std::length_error("the result does not fit");
  return outputs;
}

void received_pieces::send_result(task* t) {
  pieces_.erase({t->from_rank, t->from_handle});
  // The victim needs a result only at its join: one that nothing waits for
  // yet does not wake its message thread, which takes it at its next turn
  // (a worker at that join steals back first, which rings). A stopped,
  // cancelling or failed piece, and one asked for, ring.
  bool quiet = result_flags(t) == 1 && !t->waited_for.load(std::memory_order_relaxed);
  // Packed straight into the batch; outputs that cannot be sent end the
  // run before the batch leaves.
  try {
    writer w(quiet ? c_.out.begin_quiet(t->from_rank, msg::result) : c_.out.begin(t->from_rank, msg::result));
    steal_context::count_sent(results_out_, write_result(w, t));
  } catch (const std::exception& e) {
    c_.fatal(std::string("cannot send the outputs of a piece of ") + t->kind->site + ": " + e.what());
  }
  delete t;
}

bool received_pieces::mail_result(task* t) {
  // Only a piece that ended normally: a stopped, cancelling or failed one
  // goes by MPI, which rings its victim at once.
  if (!c_.shared.active() || result_flags(t) != 1 || !t->kind->wire || !c_.shared.reaches(t->from_rank)) return false;
  // Packed into this worker's own buffer, and no further than a ring's
  // entry holds: bigger outputs go by MPI, packed by the message thread.
  thread_local std::string body;
  body.clear();
  std::size_t outputs = 0;
  try {
    writer w(body);
    outputs = write_result(w, t, shared_requests::result_capacity);
  } catch (const std::exception&) {
    return false;  // the message thread tries again and says why it cannot
  }
  if (!c_.shared.write_result(t->from_rank, body)) return false;
  steal_context::count_sent(results_out_, outputs);
  results_mailed_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void received_pieces::result_mailed(task* t) {
  pieces_.erase({t->from_rank, t->from_handle});
  delete t;
}

void received_pieces::send_cancel_up(task* t) {
  writer w(c_.out.begin(t->from_rank, msg::cancel_up));
  w.put(t->from_handle);
}

}  // namespace tascell::detail::net
