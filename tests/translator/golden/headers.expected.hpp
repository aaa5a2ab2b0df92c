#include <tascell/translated.hpp>
#line 1 "headers.hpp"
// The header of headers.tcpp: a @task prototype, a @task function defined
// here, and ordinary code calling them.
#ifndef TASCELL_GOLDEN_HEADERS_HPP
#define TASCELL_GOLDEN_HEADERS_HPP

      long leaves([[maybe_unused]] tascell::ctx _tc, int depth);

      inline long nodes([[maybe_unused]] tascell::ctx _tc, int depth) {
  if (depth == 0) return 1;
  long a = 0, b = 0;
          tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { a = nodes(_tc, depth - 1); }, 
    tascell::part(tascell::out(b), tascell::in(depth), []([[maybe_unused]] tascell::ctx _tc, long &b, const int &depth) { b = nodes(_tc, depth - 1); })
  );
  return 1 + a + b;
}

inline long tree(int depth) { return tascell::root([&](tascell::ctx _tc) { return nodes(_tc, depth); }) + tascell::root([&](tascell::ctx _tc) { return leaves(_tc, depth); }); }

#endif
