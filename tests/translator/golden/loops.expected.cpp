#include <tascell/translated.hpp>
#line 1 "loops.tcpp"
// @dowork for: reductions, copy/copyout/shared, continue, steps and
// downward loops.
// tascellc: --eager (the eager lowering; golden/lazy_loops.tcpp has the lazy one)
      long sum(tascell::ctx, int, const long *); static inline long sum__tascell_body([[maybe_unused]] tascell::ctx _tc, int n, const long* v) {
  long s = 0, m = 0;
                                                     
  tascell::dowork_for(_tc, tascell::range::canonical(0, n, 1, tascell::cmp::lt), tascell::shared(v), tascell::reduce<tascell::op::plus>(s), tascell::reduce<tascell::op::max>(m), [](tascell::iterations _tblk, const long *v, long &s, long &m) { for (int i = static_cast<int>(_tblk.first); i < _tblk.end; ++i)  {
    if (v[i] < 0) continue;
    s += v[i];
    m = v[i] > m ? v[i] : m;
  } });
  return s + m;
} long sum(tascell::ctx _tc, int _tp0, const long *_tp1) { return sum__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1)); }

      void squares(tascell::ctx, int, int *); static inline void squares__tascell_body([[maybe_unused]] tascell::ctx _tc, int n, int* out) {
                           
  tascell::dowork_for(_tc, tascell::range::canonical(n - 1, 0, -(2), tascell::cmp::ge), tascell::copyout(out, 0, n), [](tascell::iterations _tblk, int *out) { for (int i = static_cast<int>(_tblk.first); i > _tblk.end; i -= 2) 
    out[i] = i * i; });
} void squares(tascell::ctx _tc, int _tp0, int *_tp1) { return squares__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1)); }

      long count(tascell::ctx, long, long); static inline long count__tascell_body([[maybe_unused]] tascell::ctx _tc, long lo, long hi) {
  long c = 0;
                          tascell::dowork_for(_tc, tascell::range::canonical(lo, hi, (3), tascell::cmp::le), tascell::reduce<tascell::op::plus>(c), [](tascell::iterations _tblk, long &c) { for (long i = static_cast<long>(_tblk.first); i < _tblk.end; i += 3)  c += 1; });
  return c;
} long count(tascell::ctx _tc, long _tp0, long _tp1) { return count__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1)); }
