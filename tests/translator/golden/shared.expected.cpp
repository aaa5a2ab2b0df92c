#include <tascell/translated.hpp>
#line 1 "shared.tcpp"
// @shared incumbents, improve, cancel and cancelled.
#include <climits>

             tascell::incumbent<tascell::op::min, long> best = LONG_MAX;
             tascell::incumbent<tascell::op::max, double> top = 0.0;

      void search(tascell::ctx, int, long); static inline void search__tascell_body([[maybe_unused]] tascell::ctx _tc, int n, long cost) {
  if (cost >= best.get()) return;
  if (n == 0) {
    tascell::improve(best, cost);
    tascell::improve(top, 1.5);
    return;
  }
          tascell::dowork_for(_tc, tascell::range::canonical(1, 3, 1, tascell::cmp::le), tascell::in(n), tascell::in(cost), []([[maybe_unused]] tascell::ctx _tc, std::int64_t _ti, const int &n, const long &cost) { if (_ti != static_cast<int>(_ti)) __builtin_unreachable(); [[maybe_unused]] int i = static_cast<int>(_ti);  {
    if (tascell::cancelled(_tc)) return  ;
    search(_tc, n - 1, cost + i);
    if (cost + i == 4) tascell::cancel(_tc);
  } });
} void search(tascell::ctx _tc, int _tp0, long _tp1) { return search__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1)); }
