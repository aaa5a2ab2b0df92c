#include <tascell/translated.hpp>
#line 1 "root.tcpp"
// Prototypes, void tasks, and root calls from ordinary code.
      void work([[maybe_unused]] tascell::ctx _tc, int n);
      int twice(tascell::ctx, int); static inline int twice__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) { return 2 * n; } int twice(tascell::ctx _tc, int _tp0) { return twice__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }

      void work(tascell::ctx, int); static inline void work__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  int a = 0;
          tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { a = twice(_tc, n); }, 
    tascell::part(tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, const int &n) { work(_tc, n - 1); })
  );
  (void)a;
} void work(tascell::ctx _tc, int _tp0) { return work__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }

int run(int n) {
  tascell::root([&](tascell::ctx _tc) { return work(_tc, n); });
  return tascell::root([&](tascell::ctx _tc) { return twice(_tc, n); }) + 1;
}
