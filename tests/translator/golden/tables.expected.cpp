#include <tascell/translated.hpp>
#line 1 "tables.tcpp"
// A loop over a table's indices: the range stays, the body receives the
// index and the tables it uses (in() clauses: handles, not entries).
#include <cstdint>
struct add {
  std::int64_t by;
  void operator()(std::int64_t& e) const { e += by; }
};
      long spread_out(tascell::ctx, tascell::table<std::int64_t>, tascell::table<std::int64_t>, int); static inline long spread_out__tascell_body([[maybe_unused]] tascell::ctx _tc, tascell::table<std::int64_t> t, tascell::table<std::int64_t> u, int k) {
  long seen = 0;
                            
  tascell::dowork_for(_tc, t.indices(), tascell::in(t), tascell::in(k), tascell::in(u), tascell::reduce<tascell::op::plus>(seen), [](std::int64_t _ti, const tascell::table<std::int64_t> &t, const int &k, const tascell::table<std::int64_t> &u, long &seen) TASCELL_LAMBDA_INLINE { [[maybe_unused]] long i = static_cast<long>(_ti);  {
    if (t[i] != k) return  ;
    u.apply((i + 1) % u.size(), add{t[i]});
    ++seen;
  } });
  return seen;
} long spread_out(tascell::ctx _tc, tascell::table<std::int64_t> _tp0, tascell::table<std::int64_t> _tp1, int _tp2) { return spread_out__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1), static_cast<decltype(_tp2)&&>(_tp2)); }
