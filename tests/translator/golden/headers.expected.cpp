#include <tascell/translated.hpp>
#line 1 "headers.tcpp"
// A header with @task prototypes and definitions: its translation is
// written under --header-dir, and the #include names it.
#include <cstdio>

#include "@HEADER_DIR@/headers.hpp"

      long leaves(tascell::ctx, int); static long leaves__tascell_resume(tascell::ctx, tascell::translated::lazy_records&); static inline long leaves__tascell_body([[maybe_unused]] tascell::ctx _tc, int depth) {
  if (depth == 0) return 1;
  long a = 0, b = 0;
          { 
    a = leaves__tascell_body(_tc, depth - 1); if (int _tlz = tascell::translated::lazy_check(_tc)) [[unlikely]] { tascell::translated::lazy_save(_tc, (_tlz == 1 ? 0 + 1 : 0 + 2), depth, a, b); return {}; }
    b = leaves__tascell_body(_tc, depth - 1); if (int _tlz = static_cast<int>(tascell::translated::lazy_unwound(_tc))) [[unlikely]] { tascell::translated::lazy_save(_tc, (_tlz == 1 ? 0 + 3 : 0 + 4), depth, a, b); return {}; }
  }
  return a + b;
} long leaves(tascell::ctx _tc, int _tp0) { long _tr = leaves__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); if (tascell::translated::lazy_unwound(_tc)) [[unlikely]] return tascell::translated::lazy_bottom(_tc, &leaves__tascell_resume); return _tr; }
static long leaves__tascell_resume([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] tascell::translated::lazy_records& _trec) {
switch (tascell::translated::lazy_site(_trec) >> 16) {
case 0: { int depth{}; long a{}; long b{}; [[maybe_unused]] const int _tsite = tascell::translated::lazy_restore(_trec, depth, a, b) & 0xffff; auto _tgo = [&](std::int64_t _tk, tascell::translated::resume_first _tfirst) { tascell::translated::dowork_resume(_tc, _tk, _tfirst, 
#line 10 "headers.tcpp"

    [&]([[maybe_unused]] tascell::ctx _tc) { a = leaves(_tc, depth - 1); }, 
    tascell::part(tascell::out(b), tascell::in(depth), []([[maybe_unused]] tascell::ctx _tc, long &b, const int &depth) { b = leaves(_tc, depth - 1); })
  ); };
switch (_tsite) {
case 1: _tgo(0, [&]([[maybe_unused]] tascell::ctx _tc) {
#line 11 "headers.tcpp"
a = leaves__tascell_resume(_tc, _trec);
}); break;
case 3: _tgo(1, [&]([[maybe_unused]] tascell::ctx _tc) {
#line 12 "headers.tcpp"
b = leaves__tascell_resume(_tc, _trec);
}); break;
default: if (_tsite % 2 != 0) tascell::translated::lazy_bad_site(0 + _tsite); _tgo(_tsite / 2, nullptr); break;
}
#line 13 "headers.tcpp"

  return a + b;

}
default: tascell::translated::lazy_bad_site(tascell::translated::lazy_site(_trec));
}
__builtin_unreachable();
}
#line 15 "headers.tcpp"


int main() { std::printf("%ld %ld\n", tree(10), tascell::root([&](tascell::ctx _tc) { return nodes(_tc, 3); })); }
