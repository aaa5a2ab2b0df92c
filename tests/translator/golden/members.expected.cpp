#include <tascell/translated.hpp>
#line 1 "members.tcpp"
// Member @task functions: *this captured like a variable by pieces that may
// run elsewhere (a copy when read, copied in and back when one part writes).
#include <vector>

struct Grid {
  std::vector<long> cells;
  long scale = 2;
  long updates = 0;

        long sum([[maybe_unused]] tascell::ctx _tc, int lo, int hi) const;  // defined out of class
        long scaled([[maybe_unused]] tascell::ctx _tc, int n) const {       // in class; a loop body reading members
    long s = 0;
                           
    tascell::dowork_for(_tc, tascell::range::canonical(0, n, 1, tascell::cmp::lt), tascell::in(*this), tascell::reduce<tascell::op::plus>(s), [](tascell::iterations _tblk, const std::remove_cvref_t<decltype(*this)>& _tself, long &s) { [[maybe_unused]] const auto* const _tth = __builtin_addressof(_tself); for (int i = static_cast<int>(_tblk.first); i < _tblk.end; ++i)  s += _tth->cells[i] * _tth->scale; });
    return s;
  }
        void touch([[maybe_unused]] tascell::ctx _tc, int k);               // non-const: a part writes members
        long nested([[maybe_unused]] tascell::ctx _tc, int n) const {       // a @dowork inside a piece
    long a = 0, b = 0;
            tascell::dowork(_tc, 
      [&]([[maybe_unused]] tascell::ctx _tc) { a = sum(_tc, 0, n); }, 
      tascell::part(tascell::in(*this), tascell::in(n), tascell::in(b), tascell::out(b), []([[maybe_unused]] tascell::ctx _tc, const std::remove_cvref_t<decltype(*this)>& _tself, const int &n, const long &_tin_b, long &b) { [[maybe_unused]] const auto* const _tth = __builtin_addressof(_tself); if (__builtin_addressof(b) != __builtin_addressof(_tin_b)) b = _tin_b; {
        long c = 0, d = 0;
                tascell::dowork(_tc, 
          [&]([[maybe_unused]] tascell::ctx _tc) { c = _tth->scale; }, 
          tascell::part(tascell::in(*_tth), tascell::out(d), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, const std::remove_cvref_t<decltype(*this)>& _tself, long &d, const int &n) { [[maybe_unused]] const auto* const _tth = __builtin_addressof(_tself); d = [&, _tth] { return _tth->scaled(_tc, n); }() + [=, _tth = _tth] { return _tth->scale; }(); })
        );
        b = c + d;
      } })
    );
    return a + b;
  }
};

      long Grid::sum([[maybe_unused]] tascell::ctx _tc, int lo, int hi) const {
  if (hi - lo < 2) return lo < hi ? cells[lo] : 0;
  int mid = (lo + hi) / 2;
  long a = 0, b = 0;
          tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { a = sum(_tc, lo, mid); }, 
    tascell::part(tascell::in(*this), tascell::out(b), tascell::in(mid), tascell::in(hi), []([[maybe_unused]] tascell::ctx _tc, const std::remove_cvref_t<decltype(*this)>& _tself, long &b, const int &mid, const int &hi) { [[maybe_unused]] const auto* const _tth = __builtin_addressof(_tself); b = _tth->sum(_tc, mid, hi); })
  );
  return a + b;
}

      void Grid::touch([[maybe_unused]] tascell::ctx _tc, int k) {
  long extra = 0;
          tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { extra = k; }, 
    tascell::part(tascell::in(*this), tascell::out(*this), tascell::in(k), []([[maybe_unused]] tascell::ctx _tc, const std::remove_cvref_t<decltype(*this)>& _tself_in, std::remove_cvref_t<decltype(*this)>& _tself, const int &k) { if (__builtin_addressof(_tself) != __builtin_addressof(_tself_in)) _tself = _tself_in; [[maybe_unused]] auto* const _tth = __builtin_addressof(_tself); {
      _tth->scale += k;
      ++_tth->updates;
    } })
  );
  updates += extra;
}

      long through(tascell::ctx, const Grid &, const Grid *, int); static inline long through__tascell_body([[maybe_unused]] tascell::ctx _tc, const Grid& g, const Grid* p, int n) {
  long a = 0, b = 0;
                    tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { a = g.sum(_tc, 0, n); }, 
    tascell::part(tascell::out(b), tascell::shared(p), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, long &b, const Grid *p, const int &n) { b = p->scaled(_tc, n); })
  );
  return a + b;
} long through(tascell::ctx _tc, const Grid &_tp0, const Grid *_tp1, int _tp2) { return through__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1), static_cast<decltype(_tp2)&&>(_tp2)); }

long root_calls(Grid& g) {
  tascell::root([&](tascell::ctx _tc) { return g.touch(_tc, 1); });
  return tascell::root([&](tascell::ctx _tc) { return g.sum(_tc, 0, 4); }) + tascell::root([&](tascell::ctx _tc) { return through(_tc, g, &g, 4); });
}
