#include <tascell/tascell.hpp>
#line 1 "headers.tcpp"
// A header with @task prototypes and definitions: its translation is
// written under --header-dir, and the #include names it.
#include <cstdio>

#include "@HEADER_DIR@/headers.hpp"

      long leaves(tascell::ctx, int); static inline long leaves__tascell_body([[maybe_unused]] tascell::ctx _tc, int depth) {
  if (depth == 0) return 1;
  long a = 0, b = 0;
          tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { a = leaves(_tc, depth - 1); }, 
    tascell::part(tascell::out(b), tascell::in(depth), []([[maybe_unused]] tascell::ctx _tc, long& b, const int& depth) { b = leaves(_tc, depth - 1); })
  );
  return a + b;
} long leaves(tascell::ctx _tc, int _tp0) { return leaves__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }

int main() { std::printf("%ld %ld\n", tree(10), tascell::root([&](tascell::ctx _tc) { return nodes(_tc, 3); })); }
