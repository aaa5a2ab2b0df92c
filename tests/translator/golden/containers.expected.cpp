#include <tascell/translated.hpp>
#line 1 "containers.tcpp"
// Containers, ranges, lambdas and per-iteration writes (docs/language.md).
#include <array>
#include <iostream>
#include <span>
#include <string_view>
#include <vector>

long g[64];
long triple(long v) { return 3 * v; }
void note(long v) { std::cerr << v << "\n"; }   // the library's streams are not the program's globals
struct holder { const long* p; long n; };

      long containers(tascell::ctx, std::vector<long> &, std::span<const long>, int); static inline long containers__tascell_body([[maybe_unused]] tascell::ctx _tc, std::vector<long>& v, std::span<const long> s, int n) {
  long sum = 0;
                            tascell::dowork_for(_tc, tascell::range::canonical(0, n, 1, tascell::cmp::lt), tascell::reduce<tascell::op::plus>(sum), tascell::read(v), [](tascell::iterations _tblk, long &sum, const std::vector<long> &v) { for (int i = static_cast<int>(_tblk.first); i < _tblk.end; ++i)  sum += v[i] + v.at(i); });   // reads of a non-const vector
  std::vector<long> out(n);
          tascell::dowork_for(_tc, tascell::range::canonical(0, n, 1, tascell::cmp::lt), tascell::owned(out, 1, static_cast<std::int64_t>(0), tascell::assigned_only), tascell::read_section(v, 1, {static_cast<std::int64_t>(0)}), [](tascell::iterations _tblk, decltype(tascell::owned(out, 1, 0).base) out, decltype(tascell::read_section(v, 1, {0}).base) v) { for (int i = static_cast<int>(_tblk.first); i < _tblk.end; ++i)  out[i] = v[i] * 2; });                       // a per-iteration write
          tascell::dowork_for(_tc, tascell::range::canonical(0, 32, 1, tascell::cmp::lt), tascell::owned(g, 2, static_cast<std::int64_t>(2 * 0 + 1), tascell::assigned_only), [](tascell::iterations _tblk, decltype(tascell::owned(g, 1, 0).base) g) { for (int i = static_cast<int>(_tblk.first); i < _tblk.end; ++i)  g[2 * i + 1] = i; });                         // of a global, c*i + d
          { auto&& _tro = ( out); tascell::dowork_for(_tc, tascell::range::over(_tro), tascell::owned(_tro, 1, 0), [](std::int64_t _ti, decltype(tascell::owned(_tro, 1, 0).base) _tro) { [[maybe_unused]] auto& x = _tro[_ti];  x += 1; }); }                                            // a range loop writing
  std::vector<long>::iterator it = out.begin();
          tascell::dowork_for(_tc, tascell::range::canonical(0, n, 1, tascell::cmp::lt), tascell::in_here(it), [](tascell::iterations _tblk, const std::vector<long>::iterator &it) { for (int i = static_cast<int>(_tblk.first); i < _tblk.end; ++i)  it[i] -= 1; });                                // through an iterator, its own element
  long t = 0;
                          { auto&& _tro = ( s); tascell::dowork_for(_tc, tascell::range::over(_tro), tascell::in(_tro), tascell::reduce<tascell::op::plus>(t), [](std::int64_t _ti, const std::remove_reference_t<decltype(_tro)>& _tro, long &t) { [[maybe_unused]] long x = std::ranges::begin(_tro)[_ti];  t += x; }); }                               // a span read
  const auto sq = [](long x) { return x * x; };
  long (&fr)(long) = triple;
  holder h{v.data(), n};
  long a = 0, b = 0;
          tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { a = sq(n); }, 
    tascell::part(tascell::in(b), tascell::out(b), tascell::in(&fr), tascell::in(n), tascell::in_here(h), []([[maybe_unused]] tascell::ctx _tc, const long &_tin_b, long &b, long (*const &_tref_fr)(long), const int &n, const holder &h) { if (__builtin_addressof(b) != __builtin_addressof(_tin_b)) b = _tin_b; long (&fr)(long) = *_tref_fr; { b = fr(n) + h.p[0]; if (b < 0) note(b); } })
  );
  return sum + out[0] + t + a + b + g[3];
} long containers(tascell::ctx _tc, std::vector<long> &_tp0, std::span<const long> _tp1, int _tp2) { return containers__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1), static_cast<decltype(_tp2)&&>(_tp2)); }
