// Lazy @dowork statements: spawn points that cost nothing until a request
// comes (Tascell's LW-SC route), for the @task functions the translator can
// compile so (docs/language.md "lazy spawn points").
//
// Such a function has two versions besides its external entry:
//
//   body    the fast version. Its @dowork writes no point: it runs the
//           parts as plain calls and after each call checks `attention`
//           (one load, as a poll); a @dowork for checks after each call
//           of a resume point and polls where its loop starts (where each
//           iteration starts when its body has no resume point). Its
//           @wind statements around resume points write no node either
//           (lazy_wind).
//   resume  rebuilds one frame of the body from a record and goes on with
//           an ordinary (eager) @dowork for what is left of it.
//
// Winds without nodes: a request is served by giving from the oldest point
// with work after undoing the winds above it (give.cpp), which needs their
// nodes. A wind of a lazy frame is undone instead by the frame's unwinding
// (its `after` runs as the frame returns), so no point below lazy frames
// may be given from while they run: when a file's lazy functions have such
// winds, their entries (the bottoms) push a lazy mark, and give() takes no
// point below one. A request at a lazy poll then unwinds the frames to the
// mark's bottom, and the rebuilt (eager) frames serve it from the oldest
// point; eager code called from a lazy frame gives only from its own
// points.
//
// When a request reaches a lazy poll and no eager point of the worker has
// work, the frames unwind: every lazy frame, from the poll down, saves its
// variables and the place it was at into a record (lazy_save) and returns.
// The function's external entry, the bottom, sees `lazy_unwinding`, takes
// the records, and calls the resume version of its own frame, the oldest.
// That frame pushes an eager point for its parts not started and polls:
// the request, still pending, is served from that point, the oldest work
// of the stack. It then calls the resume of the frame above it for the part
// it was in, and so on up to the frame that polled. The rebuilt frames stay
// eager until they return; new calls are lazy again.
//
// Places (sites): resume point j of a function (a @dowork or a call
// statement of another lazy function, lower_lazy.cpp) in the high bits
// (j << 16), and in a @dowork of N parts, 2k is "before part k" (its parts
// k.. not started; 2N: all done), 2k+1 is "in part k" (its callee is
// unwinding); in a call statement, 1.
#pragma once

#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tascell/chain.hpp"
#include "tascell/detail/macros.hpp"
#include "tascell/poll.hpp"
#include "tascell/wind.hpp"

namespace tascell::detail {

// The frames saved by one unwinding, the youngest first: the bottom owns
// them while the frames are rebuilt, oldest first (from the back).
struct lazy_records {
  std::vector<unsigned char> bytes;
};

// Slow paths, in the runtime library.
// A lazy poll found `attention` set: serves it like a poll and returns true
// when the frames must unwind instead: a request that no eager point can
// serve (the lazy frames below may have work; if none has, the request is
// refused once they are rebuilt, at the next poll).
TASCELL_NOINLINE bool lazy_serve(ctx c);
// After a part's call found `attention` set: 1 when the callee is unwinding
// (the caller saves "in part k"), 2 when this frame starts an unwinding (it
// saves "before part k+1"), 0 to go on.
TASCELL_NOINLINE int lazy_after(ctx c);
// Room for one record of `bytes` at the top of the worker's records.
TASCELL_NOINLINE unsigned char* lazy_push(ctx c, std::size_t bytes);
// The bottom: ends the unwinding and hands its records over.
TASCELL_NOINLINE lazy_records lazy_take(ctx c);
[[noreturn]] TASCELL_COLD void lazy_corrupt(std::size_t want, std::size_t have);
// A resume function met a site it has no case for.
[[noreturn]] TASCELL_COLD void lazy_bad_site(int site);

// The bottom of lazy frames whose winds write no node (see the top).
inline constexpr node_kind lazy_mark_kind{node_type::lazy_mark, sizeof(std::uintptr_t), nullptr, nullptr,
                                          nullptr, false, "lazy frames", nullptr, nullptr, nullptr};
// Pushes a lazy mark; the frames above it run under the returned ctx.
TASCELL_INLINE ctx lazy_enter(ctx c) {
  const std::uintptr_t word = kind_word(&lazy_mark_kind, c);
  std::memcpy(free_of(c), &word, sizeof word);
  return after(free_of(c) + sizeof word);
}

// A @wind around a resume point of a lazy body: before(), body(c), then
// after() (also when body throws). No node: the frame's unwinding runs
// after() on its way out, and a lazy mark keeps give() from points older
// than the frame (see the top).
template <class B, class A, class F>
TASCELL_INLINE decltype(auto) lazy_wind(ctx c, B&& before, A&& after, F&& body) {
  before();
  run_after<std::remove_reference_t<A>> guard{after};
  return body(c);
}

// The fast path's checks: one relaxed load and a predictable branch.
TASCELL_INLINE bool lazy_poll(ctx c) {
  return worker_of(c)->attention.load(std::memory_order_relaxed) != 0 && lazy_serve(c);
}
TASCELL_INLINE int lazy_check(ctx c) {
  return worker_of(c)->attention.load(std::memory_order_relaxed) != 0 ? lazy_after(c) : 0;
}
TASCELL_INLINE bool lazy_unwound(ctx c) { return worker_of(c)->lazy_unwinding; }

struct lazy_trailer {
  std::uint32_t site;
  std::uint32_t size;  // bytes of the values before the trailer
};

// Saves a frame's variables (trivially copyable, the translator checks) and
// its site. By value: an address taken here would keep the variables in
// memory on the fast path too.
template <class... T>
TASCELL_NOINLINE void lazy_save(ctx c, int site, T... v) {
  static_assert((true && ... && std::is_trivially_copyable_v<T>), "a lazy frame saves only trivially copyable values");
  constexpr std::size_t size = (std::size_t{0} + ... + sizeof(T));
  unsigned char* p = lazy_push(c, size + sizeof(lazy_trailer));
  ((std::memcpy(p, &v, sizeof(T)), p += sizeof(T)), ...);
  const lazy_trailer t{static_cast<std::uint32_t>(site), static_cast<std::uint32_t>(size)};
  std::memcpy(p, &t, sizeof t);
}

// The same for a frame of many values, given as one tuple (the translator
// uses it past four values): the tuple is built on the way out, where
// arguments past the registers would make the compiler keep a frame
// pointer, and a register less, on the fast path of the whole function.
template <class... T>
TASCELL_NOINLINE void lazy_save_tuple(ctx c, int site, std::tuple<T...> v) {
  std::apply([&](const T&... x) { lazy_save(c, site, x...); }, v);
}

// The trailer of the oldest frame left in r.
inline lazy_trailer lazy_oldest(const lazy_records& r) {
  lazy_trailer t{};
  if (r.bytes.size() < sizeof t) lazy_corrupt(sizeof t, r.bytes.size());
  std::memcpy(&t, r.bytes.data() + r.bytes.size() - sizeof t, sizeof t);
  return t;
}

// The site of the oldest frame left in r (its resume function's case).
inline int lazy_site(const lazy_records& r) { return static_cast<int>(lazy_oldest(r).site); }

// Restores the oldest frame left in r into v...; returns its site.
template <class... T>
int lazy_restore(lazy_records& r, T&... v) {
  constexpr std::size_t size = (std::size_t{0} + ... + sizeof(T));
  const lazy_trailer t = lazy_oldest(r);
  if (t.size != size || r.bytes.size() < sizeof t + size) lazy_corrupt(size, t.size);
  const unsigned char* p = r.bytes.data() + r.bytes.size() - sizeof t - size;
  ((std::memcpy(&v, p, sizeof(T)), p += sizeof(T)), ...);
  r.bytes.resize(r.bytes.size() - sizeof t - size);
  return static_cast<int>(t.site);
}

// The external entry of a lazy function, after its body returned unwinding.
template <class R>
TASCELL_NOINLINE R lazy_bottom(ctx c, R (*resume)(ctx, lazy_records&)) {
  lazy_records r = lazy_take(c);
  return resume(c, r);
}

}  // namespace tascell::detail
