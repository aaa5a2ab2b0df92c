#include <tascell/tascell.hpp>
#line 1 "linkage.tcpp"
// How @task definitions are emitted: an internal inline body behind the
// external function (so GCC may unroll recursion), also for static
// functions; left as they are with default arguments.
      static long down(tascell::ctx, int); inline static long down__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  if (n <= 0) return 0;
  long a = 0, b = 0;
          tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { a = down(_tc, n - 1); }, 
    tascell::part(tascell::out(b), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, long& b, const int& n) { b = down(_tc, n - 2); })
  );
  return a + b + 1;
} static long down(tascell::ctx _tc, int _tp0) { return down__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }

      long with_default([[maybe_unused]] tascell::ctx _tc, int n, int step = 1) { return n <= 0 ? 0 : with_default(_tc, n - step, step) + down(_tc, n); }

long use() { return tascell::root([&](tascell::ctx _tc) { return with_default(_tc, 5); }); }
