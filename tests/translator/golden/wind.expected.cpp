#include <tascell/tascell.hpp>
#line 1 "wind.tcpp"
// @wind inside a loop, with a copied board.
bool ok(const int* a, int k, int i);

      long place([[maybe_unused]] tascell::ctx _tc, int n, int k, int* a) {
  if (k == n) return 1;
  long s = 0;
                                      
  tascell::dowork_for(_tc, tascell::range::canonical(0, n, 1, tascell::cmp::lt), tascell::copy(a, 0, n), tascell::in(k), tascell::reduce<tascell::op::plus>(s), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, std::int64_t _ti, int * a, const int& k, long& s, const int& n) { [[maybe_unused]] int i = static_cast<int>(_ti); 
    if (ok(a, k, i))
      tascell::wind(_tc, [&] { a[k] = i; }, [&] {  a[k] = -1; }, [&]([[maybe_unused]] tascell::ctx _tc) {  s += place(_tc, n, k + 1, a); }); });
  return s;
}
