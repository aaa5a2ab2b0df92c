// The records of lazy frames (tascell/lazy.hpp). Serving at a lazy poll is in
// serve.cpp.
#include "tascell/lazy.hpp"

#include <cstdio>
#include <cstdlib>
#include <utility>

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

lazy_records lazy_take(ctx c) {
  worker_impl* w = impl(c);
  w->lazy_unwinding = false;
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
