#include <tascell/translated.hpp>
#line 1 "wind.tcpp"
// @wind inside a loop, with a copied board.
// tascellc: --eager (the eager lowering; golden/lazy_loops.tcpp has the lazy one)
bool ok(const int* a, int k, int i);

      long place(tascell::ctx, int, int, int *); static inline long place__tascell_body([[maybe_unused]] tascell::ctx _tc, int n, int k, int* a) {
  if (k == n) return 1;
  long s = 0;
                                      
  tascell::dowork_for(_tc, tascell::range::canonical(0, n, 1, tascell::cmp::lt), tascell::copy(a, 0, n), tascell::in(k), tascell::reduce<tascell::op::plus>(s), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, std::int64_t _ti, int *a, const int &k, long &s, const int &n) { if (_ti != static_cast<int>(_ti)) __builtin_unreachable(); [[maybe_unused]] int i = static_cast<int>(_ti); 
    if (ok(a, k, i))
      tascell::wind(_tc, [&, a, i, k] { a[k] = i; }, [&, a, k] { a[k] = -1; }, [&]([[maybe_unused]] tascell::ctx _tc) {  s += place(_tc, n, k + 1, a); }); });
  return s;
} long place(tascell::ctx _tc, int _tp0, int _tp1, int *_tp2) { return place__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1), static_cast<decltype(_tp2)&&>(_tp2)); }

// A comma inside a string literal does not split @wind's arguments.
void note(const char* what, int* a);
      void noted(tascell::ctx, int *); static inline void noted__tascell_body([[maybe_unused]] tascell::ctx _tc, int* a) {
  tascell::wind(_tc, [&, a] { note("enter, then", a); }, [&, a] { note("leave, now", a); }, [&]([[maybe_unused]] tascell::ctx _tc) {  place(_tc, 1, 0, a); });
} void noted(tascell::ctx _tc, int *_tp0) { return noted__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }

// Which variables before and after keep by value: scalars nothing changes
// while the @wind runs. `depth` is changed by the other @wind's before and
// after, `n` in the statement, `c` has its address taken, `w` is a
// reference and `t` an array: all five stay by reference. `k` is changed
// before the @wind only, and `p` is only read: both by value.
void mark(int* t, int k, int c);
      long kept(tascell::ctx, int *, int, int, long &); static inline long kept__tascell_body([[maybe_unused]] tascell::ctx _tc, int* p, int k, int n, long& w) {
  int depth = 0, c = 0, t[4] = {};
  int* q = &c;
  while (p[k]) ++k;
  tascell::wind(_tc, [&] { ++depth; }, [&] { --depth; }, [&]([[maybe_unused]] tascell::ctx _tc) {  {
    tascell::wind(_tc, [&, k] { mark(t, k + depth, c); }, [&, p, k] { (p[k] = n + c, w = 0); }, [&]([[maybe_unused]] tascell::ctx _tc) {  {
      n += 1;
      *q = 2;
    } });
  } });
  return depth + n;
} long kept(tascell::ctx _tc, int *_tp0, int _tp1, int _tp2, long &_tp3) { return kept__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1), static_cast<decltype(_tp2)&&>(_tp2), static_cast<decltype(_tp3)&&>(_tp3)); }

// Names inside a string or a comment are not uses. `(m) = 1` changes m
// through parentheses: m stays by reference. `*r = 0` changes what r
// points to, not r (a unary *: no operand before it), and `a` is only
// read: both are copied.
      void literals(tascell::ctx, int *, int, int *); static inline void literals__tascell_body([[maybe_unused]] tascell::ctx _tc, int* r, int m, int* a) {
  tascell::wind(_tc, [&, a] { note("m, r", a) /* m */; }, [&, a, r] { (*r = 0, (m) = 1, note("r", a)); }, [&]([[maybe_unused]] tascell::ctx _tc) {  place(_tc, 1, 0, r); });
} void literals(tascell::ctx _tc, int *_tp0, int _tp1, int *_tp2) { return literals__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1), static_cast<decltype(_tp2)&&>(_tp2)); }
