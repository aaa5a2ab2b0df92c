#include <tascell/tascell.hpp>
#line 1 "wind.tcpp"
// @wind inside a loop, with a copied board.
bool ok(const int* a, int k, int i);

      long place(tascell::ctx, int, int, int *); static inline long place__tascell_body([[maybe_unused]] tascell::ctx _tc, int n, int k, int* a) {
  if (k == n) return 1;
  long s = 0;
                                      
  tascell::dowork_for(_tc, tascell::range::canonical(0, n, 1, tascell::cmp::lt), tascell::copy(a, 0, n), tascell::in(k), tascell::reduce<tascell::op::plus>(s), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, std::int64_t _ti, int * a, const int& k, long& s, const int& n) { [[maybe_unused]] int i = static_cast<int>(_ti); 
    if (ok(a, k, i))
      tascell::wind(_tc, [&] { a[k] = i; }, [&] { a[k] = -1; }, [&]([[maybe_unused]] tascell::ctx _tc) {  s += place(_tc, n, k + 1, a); }); });
  return s;
} long place(tascell::ctx _tc, int _tp0, int _tp1, int *_tp2) { return place__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1), static_cast<decltype(_tp2)&&>(_tp2)); }

// A comma inside a string literal does not split @wind's arguments.
void note(const char* what, int* a);
      void noted(tascell::ctx, int *); static inline void noted__tascell_body([[maybe_unused]] tascell::ctx _tc, int* a) {
  tascell::wind(_tc, [&] { note("enter, then", a); }, [&] { note("leave, now", a); }, [&]([[maybe_unused]] tascell::ctx _tc) {  place(_tc, 1, 0, a); });
} void noted(tascell::ctx _tc, int *_tp0) { return noted__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }
