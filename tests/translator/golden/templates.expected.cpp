#include <tascell/translated.hpp>
#line 1 "templates.tcpp"
// @task function templates: calls that depend on a template parameter are
// found through their candidates; they are emitted once, as written.
#include <vector>

template <class T>
      T total([[maybe_unused]] tascell::ctx _tc, const std::vector<T>& v, int lo, int hi) {
  if (hi - lo < 2) return lo < hi ? v[lo] : T{};
  int mid = (lo + hi) / 2;
  T a{}, b{};
          tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { a = total(_tc, v, lo, mid); }, 
    tascell::part(tascell::out(b), tascell::read(v), tascell::in(mid), tascell::in(hi), []([[maybe_unused]] tascell::ctx _tc, T &b, const std::vector<T> &v, const int &mid, const int &hi) { b = total(_tc, v, mid, hi); })
  );
  return a + b;
}

template <class T>
      T dot([[maybe_unused]] tascell::ctx _tc, const std::vector<T>& x, const std::vector<T>& y) {
  T s{};
                         
  tascell::dowork_for(_tc, tascell::range::canonical(0, static_cast<int>(x.size()), 1, tascell::cmp::lt), tascell::reduce<tascell::op::plus>(s), tascell::read(x), tascell::read(y), [](tascell::iterations _tblk, T &s, const std::vector<T> &x, const std::vector<T> &y) { for (int i = static_cast<int>(_tblk.first); i < _tblk.end; ++i)  s += x[i] * y[i]; });
  return s + total(_tc, x, 0, static_cast<int>(x.size()));
}

double both(const std::vector<int>& vi, const std::vector<double>& vd) {
  return tascell::root([&](tascell::ctx _tc) { return total(_tc, vi, 0, 3); }) + tascell::root([&](tascell::ctx _tc) { return dot(_tc, vd, vd); });
}
