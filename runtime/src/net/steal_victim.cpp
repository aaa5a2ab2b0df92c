// This process as a victim (steal_victim.hpp).
#include "steal_victim.hpp"

#include <istream>
#include <utility>

#include "byte_streams.hpp"
#include "giver.hpp"
#include "victim_mail.hpp"
#include "registry.hpp"
#include "tascell/detail/entry.hpp"
#include "tascell/wire.hpp"

namespace tascell::detail::net {

void steal_victim::answer(proxy& p, task* t) {
  worker_face* req = p.w->requester.load(std::memory_order_acquire);
  if (t != refused) t->thief.store(req, std::memory_order_seq_cst);
  p.w->requester.store(nullptr, std::memory_order_release);
  req->reply.store(t, std::memory_order_release);
}

bool steal_victim::answer_back(std::uint64_t seq, task* t) {
  auto it = backs_.find(seq);
  if (it == backs_.end()) return false;
  proxy* p = it->second;
  backs_.erase(it);
  p->back_seq = 0;
  answer(*p, t);
  if (!p->given) pool_.give_back(p);
  return true;
}

void steal_victim::adopt_posted() {
  claims_seen_ = c_.shared.adopt([&](int thief, int k, std::uint64_t seq, int victim) {
    if (victim < 0 || victim >= c_.process.workers())
      c_.fatal("malformed request from rank " + std::to_string(thief) + " through shared memory: worker " +
            std::to_string(victim) + " of " + std::to_string(c_.process.workers()));
    proxy* p = pool_.adopt(thief, k);
    p->seq = seq;
    p->victim = c_.process.worker(victim);
    // Not answered yet: the worker may be napping at a join.
    if (p->w->reply.load(std::memory_order_acquire) == no_reply) {
      posted_local_ = true;
      c_.process.wake_workers();
    }
  });
}

void steal_victim::on_request(int from, std::uint64_t seq, bool wanted, task* target) {
  auto refuse_now = [&] { c_.refuse(from, seq); };
  if (!c_.root.open() || c_.process.root_done()) return refuse_now();
  if (wanted) {
    if (!target) return refuse_now();  // finished meanwhile
    target->waited_for.store(true, std::memory_order_relaxed);  // its result rings (received_pieces::send_result)
  }
  proxy* p = pool_.take();
  p->from = from;
  p->seq = seq;
  p->wanted = target;
  p->w->remote_rank.store(from, std::memory_order_relaxed);
  if (!ask_local(*p)) {
    pool_.give_back(p);
    refuse_now();
  }
}

bool steal_victim::ask_local(proxy& p) {
  auto tried = [&](worker_face* v) {
    for (worker_face* x : p.tried)
      if (x == v) return true;
    return false;
  };
  auto post = [&](worker_face* v) {
    if (!v || tried(v)) return false;
    p.w->wanted = p.wanted;
    p.w->reply.store(no_reply, std::memory_order_relaxed);
    worker_face* expected = nullptr;
    if (!v->requester.compare_exchange_strong(expected, p.w, std::memory_order_acq_rel,
                                              std::memory_order_relaxed))
      return false;
    p.victim = v;
    posted_local_ = true;
    v->attention.store(1, std::memory_order_release);
    c_.process.wake_workers();  // it may be napping at a join
    return true;
  };
  if (p.wanted) return post(static_cast<worker_face*>(p.wanted->thief.load(std::memory_order_seq_cst)));
  int n = c_.process.workers();
  int start = static_cast<int>(c_.rng % static_cast<std::uint64_t>(n));
  if (c_.cfg.remote_giver == giver_choice::largest) {
    // The largest piece on offer here, so that one round trip keeps the
    // asking process busy longest (giver.hpp).
    int i = choose_giver(
        n, static_cast<std::uint64_t>(start), true, [&](int k) { return c_.process.worker(k); },
        [&](worker_face* v) { return v->busy.load(std::memory_order_relaxed) && !tried(v); });
    if (i >= 0 && post(c_.process.worker(i))) return true;
  }
  for (int k = 0; k < n; ++k) {
    worker_face* v = c_.process.worker((start + k) % n);
    if (v->busy.load(std::memory_order_relaxed) && post(v)) return true;
  }
  return false;
}

void steal_victim::send_work(proxy& p, task* t) {
  std::uint64_t handle = t->serial;
  p.given = t;
  p.handle = handle;
  given_[handle] = &p;
  c_.loads[static_cast<std::size_t>(p.from)] = 1;  // it has work now
  if (t->mailed) {  // the worker put it into the thief's mailbox
    c_.log.note(protocol_log::step::mailed, p.seq, handle, p.from);
    return;
  }
  // Packed straight into the batch (a piece of megabytes is copied once);
  // a type that cannot be sent ends the run before the batch leaves.
  try {
    writer w(c_.out.begin(p.from, msg::work));
    steal_context::count_sent(pieces_out_, write_work(w, p.seq, t));
  } catch (const std::exception& e) {
    c_.fatal(std::string("cannot send the inputs of a piece of ") + t->kind->site + ": " + e.what());
  }
}

bool steal_victim::tend_proxies() {
  bool any = false;
  std::vector<proxy*> list = pool_.in_use();
  for (proxy* p : list) {
    if (p->victim) {
      // Waiting for the local worker's answer.
      task* t = p->w->reply.load(std::memory_order_acquire);
      if (t == no_reply) {
        if (c_.process.root_done()) {
          // The workers are leaving the root call: withdraw the request
          // unless the victim has answered it. A victim that is answering
          // it at this moment finds it withdrawn and sends nothing
          // (release_request).
          worker_face* expected = p->w;
          if (p->victim->requester.compare_exchange_strong(expected, nullptr,
                                                           std::memory_order_acq_rel)) {
            p->victim = nullptr;
            c_.refuse(p->from, p->seq);
            pool_.give_back(p);
            any = true;
          }
        }
        continue;
      }
      any = true;
      p->tried.push_back(p->victim);
      p->victim = nullptr;
      if (t != refused) {
        send_work(*p, t);
        continue;
      }
      if (!p->wanted && !c_.process.root_done() && ask_local(*p)) continue;
      c_.refuse(p->from, p->seq);
      pool_.give_back(p);
      continue;
    }
    if (!p->given) continue;
    // A local worker waiting for this piece asks to steal back from it.
    worker_face* req = p->w->requester.load(std::memory_order_acquire);
    if (req && !p->back_seq) {
      any = true;
      if (req->wanted != p->given || c_.process.root_done()) {
        answer(*p, refused);
      } else {
        p->back_seq = c_.next_seq++;
        backs_[p->back_seq] = p;
        writer w(c_.out.begin(p->from, msg::request));
        w.put(c_.root.number());
        w.put(p->back_seq);
        w.put(p->handle);
      }
    }
    // The victim asked the piece to stop.
    if (!p->stop_sent && p->given->stop.load(std::memory_order_acquire)) {
      any = true;
      p->stop_sent = true;
      writer w(c_.out.begin(p->from, msg::stop));
      w.put(p->handle);
    }
  }
  // A claim on a proxy that carries no piece is stale: refuse it. Spare
  // proxies' pieces came back. Standing proxies never have one: a worker
  // waiting at a join read its piece's thief (a proxy) just before the
  // piece's result came back; the proxy became spare and from there went to
  // stand for a thief on this machine (proxy_pool::make takes the newest spare),
  // and the worker's claim came after. Left for the proxy's next adoption
  // to answer, the worker would wait until then (mpi.late_steal_back makes
  // such claims: 1-4 per run; decisions.md, "Stale steal-back claims on
  // standing proxies").
  pool_.for_each_idle([&](proxy& p) {
    if (p.w->requester.load(std::memory_order_acquire)) {
      answer(p, refused);
      any = true;
    }
  });
  return any;
}

proxy* steal_victim::given_proxy(int from, std::uint64_t handle) {
  auto it = given_.find(handle);
  if (it == given_.end()) {
    collect_mailed();
    it = given_.find(handle);
  }
  return it != given_.end() && it->second->from == from ? it->second : nullptr;
}

void steal_victim::collect_mailed() {
  // The mailbox's piece was handed to its proxy before the thief could see
  // it (mail_piece, then the reply, then mail_sent): a message of the thief
  // about it finds the reply set here.
  adopt_posted();
  std::vector<proxy*> list = pool_.in_use();
  for (proxy* p : list) {
    if (!p->victim) continue;
    task* t = p->w->reply.load(std::memory_order_acquire);
    if (t == no_reply || t == refused || !t->mailed) continue;
    p->tried.push_back(p->victim);
    p->victim = nullptr;
    send_work(*p, t);
  }
}

void steal_victim::on_result(int from, reader& r) {
  auto handle = r.get<std::uint64_t>("a piece handle");
  auto flags = r.get<std::uint8_t>("the result flags");
  std::string_view outputs = r.bytes("the outputs");
  std::string_view error = r.bytes("the exception");
  proxy* p = given_proxy(from, handle);
  if (!p) throw malformed_message("a result for a piece this process did not give it");
  task* t = p->given;
  {
    view_source bytes(outputs);
    std::istream is(&bytes);
    in_archive a(is);
    t->kind->wire->unpack_result(t, a);
  }
  t->completed = (flags & 1) != 0;
  if (flags & 2) t->cancel_up.store(true, std::memory_order_release);
  if (flags & 4) {
    try {
      t->error = unpack_exception(error, from);
    } catch (const std::exception& e) {
      t->error = std::make_exception_ptr(std::runtime_error(e.what()));
    }
  }
  given_.erase(handle);
  p->given = nullptr;
  c_.process.piece_done(t);  // as a local thief ends one (run_task)
  if (!p->back_seq) pool_.give_back(p);
}

void steal_victim::on_cancel_up(int from, std::uint64_t handle) {
  proxy* p = given_proxy(from, handle);
  if (!p) return;  // its result came meanwhile
  task* t = p->given;
  t->cancel_up.store(true, std::memory_order_release);
  c_.process.alarm_victim(t);
}

void steal_victim::adopt_posted_requests() {
  if (!c_.shared.active()) return;
  bool open = c_.loop.attached() && c_.root.open() && !c_.process.root_done();
  c_.shared.set_accepting(open ? c_.root.number() : 0);
  adopt_posted();
}

void steal_victim::root_begun() {
  for (auto [from, seq] : std::exchange(deferred_, {})) on_request(from, seq, false, nullptr);
}


}  // namespace tascell::detail::net
