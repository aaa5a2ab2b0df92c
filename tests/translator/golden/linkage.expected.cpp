#include <tascell/translated.hpp>
#line 1 "linkage.tcpp"
// How @task definitions are emitted: an internal inline body behind the
// external function (so GCC may unroll recursion), also for static
// functions; left as they are with default arguments.
      static long down(tascell::ctx, int); static long down__tascell_resume(tascell::ctx, tascell::translated::lazy_records&); inline static long down__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  if (n <= 0) return 0;
  long a = 0, b = 0;
          { 
    a = down__tascell_body(_tc, n - 1); if (int _tlz = tascell::translated::lazy_check(_tc)) [[unlikely]] { tascell::translated::lazy_save(_tc, (_tlz == 1 ? 0 + 1 : 0 + 2), n, a, b); return {}; }
    b = down__tascell_body(_tc, n - 2); if (int _tlz = static_cast<int>(tascell::translated::lazy_unwound(_tc))) [[unlikely]] { tascell::translated::lazy_save(_tc, (_tlz == 1 ? 0 + 3 : 0 + 4), n, a, b); return {}; }
  }
  return a + b + 1;
} static long down(tascell::ctx _tc, int _tp0) { long _tr = down__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); if (tascell::translated::lazy_unwound(_tc)) [[unlikely]] return tascell::translated::lazy_bottom(_tc, &down__tascell_resume); return _tr; }
static long down__tascell_resume([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] tascell::translated::lazy_records& _trec) {
switch (tascell::translated::lazy_site(_trec) >> 16) {
case 0: { int n{}; long a{}; long b{}; [[maybe_unused]] const int _tsite = tascell::translated::lazy_restore(_trec, n, a, b) & 0xffff; auto _tgo = [&](std::int64_t _tk, tascell::translated::resume_first _tfirst) { tascell::translated::dowork_resume(_tc, _tk, _tfirst, 
#line 7 "linkage.tcpp"

    [&]([[maybe_unused]] tascell::ctx _tc) { a = down(_tc, n - 1); }, 
    tascell::part(tascell::out(b), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, long &b, const int &n) { b = down(_tc, n - 2); })
  ); };
switch (_tsite) {
case 1: _tgo(0, [&]([[maybe_unused]] tascell::ctx _tc) {
#line 8 "linkage.tcpp"
a = down__tascell_resume(_tc, _trec);
}); break;
case 3: _tgo(1, [&]([[maybe_unused]] tascell::ctx _tc) {
#line 9 "linkage.tcpp"
b = down__tascell_resume(_tc, _trec);
}); break;
default: if (_tsite % 2 != 0) tascell::translated::lazy_bad_site(0 + _tsite); _tgo(_tsite / 2, nullptr); break;
}
#line 10 "linkage.tcpp"

  return a + b + 1;

}
default: tascell::translated::lazy_bad_site(tascell::translated::lazy_site(_trec));
}
__builtin_unreachable();
}
#line 12 "linkage.tcpp"


      long with_default([[maybe_unused]] tascell::ctx _tc, int n, int step = 1) { return n <= 0 ? 0 : with_default(_tc, n - step, step) + down(_tc, n); }

long use() { return tascell::root([&](tascell::ctx _tc) { return with_default(_tc, 5); }); }
