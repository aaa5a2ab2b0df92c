#include <tascell/translated.hpp>
#line 1 "parts.tcpp"
// @dowork { parts }: inputs, outputs, three parts, if and priority clauses.
      long fib(tascell::ctx, int); static long fib__tascell_resume(tascell::ctx, tascell::translated::lazy_records&); static inline long fib__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  if (n < 2) return n;
  long a = 0, b = 0;
          { 
    a = fib__tascell_body(_tc, n - 1); if (int _tlz = tascell::translated::lazy_check(_tc)) [[unlikely]] { tascell::translated::lazy_save(_tc, (_tlz == 1 ? 0 + 1 : 0 + 2), n, a, b); return {}; }
    b = fib__tascell_body(_tc, n - 2); if (int _tlz = static_cast<int>(tascell::translated::lazy_unwound(_tc))) [[unlikely]] { tascell::translated::lazy_save(_tc, (_tlz == 1 ? 0 + 3 : 0 + 4), n, a, b); return {}; }
  }
  return a + b;
} long fib(tascell::ctx _tc, int _tp0) { long _tr = fib__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); if (tascell::translated::lazy_unwound(_tc)) [[unlikely]] return tascell::translated::lazy_bottom(_tc, &fib__tascell_resume); return _tr; }
static long fib__tascell_resume([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] tascell::translated::lazy_records& _trec) {
switch (tascell::translated::lazy_site(_trec) >> 16) {
case 0: { int n{}; long a{}; long b{}; [[maybe_unused]] const int _tsite = tascell::translated::lazy_restore(_trec, n, a, b) & 0xffff; auto _tgo = [&](std::int64_t _tk, tascell::translated::resume_first _tfirst) { tascell::translated::dowork_resume(_tc, _tk, _tfirst, 
#line 5 "parts.tcpp"

    [&]([[maybe_unused]] tascell::ctx _tc) { a = fib(_tc, n - 1); }, 
    tascell::part(tascell::out(b), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, long &b, const int &n) { b = fib(_tc, n - 2); })
  ); };
switch (_tsite) {
case 1: _tgo(0, [&]([[maybe_unused]] tascell::ctx _tc) {
#line 6 "parts.tcpp"
a = fib__tascell_resume(_tc, _trec);
}); break;
case 3: _tgo(1, [&]([[maybe_unused]] tascell::ctx _tc) {
#line 7 "parts.tcpp"
b = fib__tascell_resume(_tc, _trec);
}); break;
default: if (_tsite % 2 != 0) tascell::translated::lazy_bad_site(0 + _tsite); _tgo(_tsite / 2, nullptr); break;
}
#line 8 "parts.tcpp"

  return a + b;

}
default: tascell::translated::lazy_bad_site(tascell::translated::lazy_site(_trec));
}
__builtin_unreachable();
}
#line 10 "parts.tcpp"


      long three(tascell::ctx, int, int); static inline long three__tascell_body([[maybe_unused]] tascell::ctx _tc, int n, int depth) {
  long x = 0, y = 0, z = 0;
                                      tascell::dowork(_tc, tascell::priority([&] { return static_cast<std::int64_t>(-depth); }, static_cast<bool>(n > 10)), tascell::common(tascell::in(n)), 
    [&]([[maybe_unused]] tascell::ctx _tc) { x = fib(_tc, n); }, 
    tascell::part(tascell::out(y), []([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] const int &n, long &y) { y = fib(_tc, n + 1); }), 
    tascell::part(tascell::in(z), tascell::out(z), []([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] const int &n, const long &_tin_z, long &z) { if (__builtin_addressof(z) != __builtin_addressof(_tin_z)) z = _tin_z; {
      long t = fib(_tc, n + 2);
      z = t * 2;
    } })
  );
  return x + y + z;
} long three(tascell::ctx _tc, int _tp0, int _tp1) { return three__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1)); }

// A part that reads what it writes (or writes it only sometimes) gets the
// variable copied in as well as back.
      long bump(tascell::ctx, int); static inline long bump__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  long x = n, y = 0, z = 1;
          tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { y = fib(_tc, n); }, 
    tascell::part(tascell::in(x), tascell::out(x), []([[maybe_unused]] tascell::ctx _tc, const long &_tin_x, long &x) { if (__builtin_addressof(x) != __builtin_addressof(_tin_x)) x = _tin_x; x += 1; }), 
    tascell::part(tascell::in(n), tascell::in(z), tascell::out(z), []([[maybe_unused]] tascell::ctx _tc, const int &n, const long &_tin_z, long &z) { if (__builtin_addressof(z) != __builtin_addressof(_tin_z)) z = _tin_z; if (n > 3) z = fib(_tc, n - 3); })
  );
  return x + y + z;
} long bump(tascell::ctx _tc, int _tp0) { return bump__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }

// Inputs that two or more of the parts after the first read are given once,
// in common(...): here the shared pointer m and the scalars h and ld. The
// copied range idx, read by one part only, stays with that part, and so do
// the outputs.
      void blocks(tascell::ctx, double *, const int *, long, long); static inline void blocks__tascell_body([[maybe_unused]] tascell::ctx _tc, double* m, const int* idx, long h, long ld) {
  double a = 0, b = 0;
                                   tascell::dowork(_tc, tascell::common(tascell::shared(m), tascell::in(h), tascell::in(ld)), 
    [&]([[maybe_unused]] tascell::ctx _tc) { m[0] += 1; }, 
    tascell::part(tascell::out(a), []([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] double *m, [[maybe_unused]] const long &h, [[maybe_unused]] const long &ld, double &a) { a = m[h] * ld; }), 
    tascell::part(tascell::out(b), tascell::copy(idx, 0, 4), []([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] double *m, [[maybe_unused]] const long &h, [[maybe_unused]] const long &ld, double &b, const int *idx) { b = m[h * ld] + idx[1]; }), 
    tascell::part([]([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] double *m, [[maybe_unused]] const long &h, [[maybe_unused]] const long &ld) { m[h * ld + h] *= ld + h; })
  );
  m[1] = a + b;
} void blocks(tascell::ctx _tc, double *_tp0, const int *_tp1, long _tp2, long _tp3) { return blocks__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1), static_cast<decltype(_tp2)&&>(_tp2), static_cast<decltype(_tp3)&&>(_tp3)); }
