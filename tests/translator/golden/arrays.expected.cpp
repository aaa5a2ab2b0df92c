#include <tascell/translated.hpp>
#line 1 "arrays.tcpp"
// C arrays of known size captured by value: read by a later part or a loop
// body (a copy), written by one part (a copy, copied back).
      long arrays(tascell::ctx, int); static inline long arrays__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  int a[8];
  for (int i = 0; i < 8; ++i) a[i] = i * n;
  const double m[2][3] = {{1, 2, 3}, {4, 5, 6}};
  long first = 0, rest = 0;
  int out[4] = {};
          tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { first = a[0]; }, 
    tascell::part(tascell::copy(a, 0, 8), tascell::in(rest), tascell::out(rest), tascell::copy(reinterpret_cast<const double *>(m), 0, 6), []([[maybe_unused]] tascell::ctx _tc, const int *_tarr_a, const long &_tin_rest, long &rest, const double *_tarr_m) { const auto& a = *reinterpret_cast<const int (*)[8]>(_tarr_a); if (__builtin_addressof(rest) != __builtin_addressof(_tin_rest)) rest = _tin_rest; const auto& m = *reinterpret_cast<const double (*)[2][3]>(_tarr_m); {
      for (int x : a) rest += x;
      rest += static_cast<long>(m[1][2]) + static_cast<long>(sizeof(a));
    } }), 
    tascell::part(tascell::copyout(out, 0, 4), []([[maybe_unused]] tascell::ctx _tc, int *_tarr_out) { auto& out = *reinterpret_cast<int (*)[4]>(_tarr_out); for (int i = 0; i < 4; ++i) out[i] = i; })
  );
  long s = 0;
                         
  tascell::dowork_for(_tc, tascell::range::canonical(0, 8, 1, tascell::cmp::lt), tascell::reduce<tascell::op::plus>(s), tascell::copy(a, 0, 8), tascell::copy(reinterpret_cast<const double *>(m), 0, 6), tascell::copy(out, 0, 4), [](tascell::iterations _tblk, long &s, const int *_tarr_a, const double *_tarr_m, const int *_tarr_out) { const auto& a = *reinterpret_cast<const int (*)[8]>(_tarr_a); const auto& m = *reinterpret_cast<const double (*)[2][3]>(_tarr_m); const auto& out = *reinterpret_cast<const int (*)[4]>(_tarr_out); for (int i = static_cast<int>(_tblk.first); i < _tblk.end; ++i)  s += a[i] + static_cast<long>(m[i % 2][i % 3]) + out[i % 4]; });
  return first + rest + s;
} long arrays(tascell::ctx _tc, int _tp0) { return arrays__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }
