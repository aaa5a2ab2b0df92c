// The records of lazy frames (tascell/lazy.hpp). Serving at a lazy poll is in
// serve.cpp.
#include "tascell/lazy.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "runtime.hpp"
#include "worker.hpp"

namespace tascell::detail {

unsigned char* lazy_push(ctx c, std::size_t bytes) {
  worker_impl* w = impl(c);
  std::size_t at = w->lazy_bytes.size();
  w->lazy_bytes.resize(at + bytes);
  w->stats.lazy_frames++;
  return w->lazy_bytes.data() + at;
}

namespace {

// The frames saved in bytes: records back to back, each ending with its
// trailer.
std::int64_t frames_in(const std::vector<unsigned char>& bytes) {
  std::int64_t n = 0;
  for (std::size_t end = bytes.size(); end >= sizeof(lazy_trailer); ++n) {
    lazy_trailer t;
    std::memcpy(&t, bytes.data() + end - sizeof t, sizeof t);
    if (t.size + sizeof t > end) lazy_corrupt(t.size + sizeof t, end);
    end -= t.size + sizeof t;
  }
  return n;
}

}  // namespace

lazy_records lazy_take(ctx c) {
  worker_impl* w = impl(c);
  w->lazy_unwinding = false;
  if (w->tracing) [[unlikely]]
    w->note(trace_type::rebuild, 0, 0, frames_in(w->lazy_bytes));
  lazy_records r{std::move(w->lazy_bytes)};
  w->lazy_bytes = {};
  return r;
}

void lazy_corrupt(std::size_t want, std::size_t have) {
  std::fprintf(stderr,
               "tascell: internal error: a lazy frame's record does not match its function "
               "(%zu bytes expected, %zu found); was the program built from one translation?\n",
               want, have);
  std::abort();
}

void lazy_bad_site(int site) {
  std::fprintf(stderr,
               "tascell: internal error: a lazy frame was saved at site %d (resume point %d, place %d), "
               "which its resume function does not know; was the program built from one translation?\n",
               site, site >> 16, site & 0xffff);
  std::abort();
}

}  // namespace tascell::detail
