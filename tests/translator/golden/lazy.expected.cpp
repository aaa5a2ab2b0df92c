#include <tascell/translated.hpp>
#line 1 "lazy.tcpp"
// Which @task functions are lazy (docs/language.md, "Lazy spawn points"):
// `fib` is; each of the others keeps its eager spawn point, for the reason
// its comment gives.
#include <utility>

      long fib(tascell::ctx, int); static long fib__tascell_resume(tascell::ctx, tascell::translated::lazy_records&); static inline long fib__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  if (n < 2) return n;
  long a = 0, b = 0;
          { 
    a = fib__tascell_body(_tc, n - 1); if (int _tlz = tascell::translated::lazy_check(_tc)) [[unlikely]] { tascell::translated::lazy_save(_tc, (_tlz == 1 ? 0 + 1 : 0 + 2), n, a, b); return {}; }
    b = fib__tascell_body(_tc, n - 2); if (int _tlz = static_cast<int>(tascell::translated::lazy_unwound(_tc))) [[unlikely]] { tascell::translated::lazy_save(_tc, (_tlz == 1 ? 0 + 3 : 0 + 4), n, a, b); return {}; }
  }
  return a + b;
} long fib(tascell::ctx _tc, int _tp0) { long _tr = fib__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); if (tascell::translated::lazy_unwound(_tc)) [[unlikely]] return tascell::translated::lazy_bottom(_tc, &fib__tascell_resume); return _tr; }
static long fib__tascell_resume([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] tascell::translated::lazy_records& _trec) {
switch (tascell::translated::lazy_site(_trec) >> 16) {
case 0: { int n{}; long a{}; long b{}; [[maybe_unused]] const int _tsite = tascell::translated::lazy_restore(_trec, n, a, b) & 0xffff; auto _tgo = [&](std::int64_t _tk, tascell::translated::resume_first _tfirst) { tascell::translated::dowork_resume(_tc, _tk, _tfirst, 
#line 9 "lazy.tcpp"

    [&]([[maybe_unused]] tascell::ctx _tc) { a = fib(_tc, n - 1); }, 
    tascell::part(tascell::out(b), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, long &b, const int &n) { b = fib(_tc, n - 2); })
  ); };
switch (_tsite) {
case 1: _tgo(0, [&]([[maybe_unused]] tascell::ctx _tc) {
#line 10 "lazy.tcpp"
a = fib__tascell_resume(_tc, _trec);
}); break;
case 3: _tgo(1, [&]([[maybe_unused]] tascell::ctx _tc) {
#line 11 "lazy.tcpp"
b = fib__tascell_resume(_tc, _trec);
}); break;
default: if (_tsite % 2 != 0) tascell::translated::lazy_bad_site(0 + _tsite); _tgo(_tsite / 2, nullptr); break;
}
#line 12 "lazy.tcpp"

  return a + b;

}
default: tascell::translated::lazy_bad_site(tascell::translated::lazy_site(_trec));
}
__builtin_unreachable();
}
#line 14 "lazy.tcpp"


// The address of a saved variable is taken: a rebuilt frame would not be
// where the pointer points.
      long address_taken(tascell::ctx, int); static inline long address_taken__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  if (n < 2) return n;
  long a = 0, b = 0;
  long* p = &a;
          tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { a = address_taken(_tc, n - 1); }, 
    tascell::part(tascell::out(b), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, long &b, const int &n) { b = address_taken(_tc, n - 2); })
  );
  return *p + b;
} long address_taken(tascell::ctx _tc, int _tp0) { return address_taken__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }

// priority() decides how work is made available: a lazy @dowork has none.
      long prioritised(tascell::ctx, int); static inline long prioritised__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  if (n < 2) return n;
  long a = 0, b = 0;
                      tascell::dowork(_tc, tascell::priority([&] { return static_cast<std::int64_t>(n); }), 
    [&]([[maybe_unused]] tascell::ctx _tc) { a = prioritised(_tc, n - 1); }, 
    tascell::part(tascell::out(b), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, long &b, const int &n) { b = prioritised(_tc, n - 2); })
  );
  return a + b;
} long prioritised(tascell::ctx _tc, int _tp0) { return prioritised__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }

// Its callee may cancel the @dowork it runs under, which a lazy @dowork,
// having no point, could not stop.
      long stopper(tascell::ctx, int); static inline long stopper__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  if (n > 30) tascell::cancel(_tc);
  return n;
} long stopper(tascell::ctx _tc, int _tp0) { return stopper__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }
      long cancels(tascell::ctx, int); static inline long cancels__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  long a = 0, b = 0;
          tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { a = stopper(_tc, n); }, 
    tascell::part(tascell::out(b), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, long &b, const int &n) { b = stopper(_tc, n + 1); })
  );
  return a + b;
} long cancels(tascell::ctx _tc, int _tp0) { return cancels__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }

// A variable in scope at the @dowork is not a scalar.
      long pairs(tascell::ctx, int); static inline long pairs__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  if (n < 2) return n;
  std::pair<long, long> r{0, 0};
  long a = 0, b = 0;
          tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { a = pairs(_tc, n - 1); }, 
    tascell::part(tascell::out(b), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, long &b, const int &n) { b = pairs(_tc, n - 2); })
  );
  r.first = a;
  return r.first + b;
} long pairs(tascell::ctx _tc, int _tp0) { return pairs__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }

// A part that is more than a call.
      long more(tascell::ctx, int); static inline long more__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  if (n < 2) return n;
  long a = 0, b = 0;
          tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { a = more(_tc, n - 1) + 1; }, 
    tascell::part(tascell::out(b), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, long &b, const int &n) { b = more(_tc, n - 2); })
  );
  return a + b;
} long more(tascell::ctx _tc, int _tp0) { return more__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }

// Lazy too: call statements of lazy functions are resume points, also
// before the callee's definition (its prototype declares its fast body and
// resume function), and a function may have several @dowork statements.
      void halve([[maybe_unused]] tascell::ctx _tc, double* a, long n); static inline void halve__tascell_body(tascell::ctx, double *, long); static void halve__tascell_resume(tascell::ctx, tascell::translated::lazy_records&); 
      void both(tascell::ctx, double *, long); static void both__tascell_resume(tascell::ctx, tascell::translated::lazy_records&); static inline void both__tascell_body([[maybe_unused]] tascell::ctx _tc, double* a, long n) {
  halve__tascell_body(_tc, a, n / 2); if (tascell::translated::lazy_unwound(_tc)) [[unlikely]] { tascell::translated::lazy_save(_tc, 0 + 1, a, n); return; }
  halve__tascell_body(_tc, a + n / 2, n - n / 2); if (tascell::translated::lazy_unwound(_tc)) [[unlikely]] { tascell::translated::lazy_save(_tc, 65536 + 1, a, n); return; }
} void both(tascell::ctx _tc, double *_tp0, long _tp1) { both__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1)); if (tascell::translated::lazy_unwound(_tc)) [[unlikely]] tascell::translated::lazy_bottom(_tc, &both__tascell_resume); }
static void both__tascell_resume([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] tascell::translated::lazy_records& _trec) {
switch (tascell::translated::lazy_site(_trec) >> 16) {
case 0: { double *a{}; long n{}; [[maybe_unused]] const int _tsite = tascell::translated::lazy_restore(_trec, a, n) & 0xffff;
#line 84 "lazy.tcpp"
halve__tascell_resume(_tc, _trec);

#line 84 "lazy.tcpp"

  halve(_tc, a + n / 2, n - n / 2);

return;
}
case 1: { double *a{}; long n{}; [[maybe_unused]] const int _tsite = tascell::translated::lazy_restore(_trec, a, n) & 0xffff;
#line 85 "lazy.tcpp"
halve__tascell_resume(_tc, _trec);

#line 85 "lazy.tcpp"


return;
}
default: tascell::translated::lazy_bad_site(tascell::translated::lazy_site(_trec));
}
__builtin_unreachable();
}
#line 86 "lazy.tcpp"

      void halve(tascell::ctx, double *, long); static void halve__tascell_resume(tascell::ctx, tascell::translated::lazy_records&); static inline void halve__tascell_body([[maybe_unused]] tascell::ctx _tc, double* a, long n) {
  if (n == 1) {
    a[0] *= 0.5;
    return;
  }
  const long h = n / 2;
                    { 
    halve__tascell_body(_tc, a, h); if (int _tlz = tascell::translated::lazy_check(_tc)) [[unlikely]] { tascell::translated::lazy_save(_tc, (_tlz == 1 ? 0 + 1 : 0 + 2), a, n, h); return; }
    halve__tascell_body(_tc, a + h, n - h); if (int _tlz = static_cast<int>(tascell::translated::lazy_unwound(_tc))) [[unlikely]] { tascell::translated::lazy_save(_tc, (_tlz == 1 ? 0 + 3 : 0 + 4), a, n, h); return; }
  }
                    { 
    halve__tascell_body(_tc, a, h); if (int _tlz = tascell::translated::lazy_check(_tc)) [[unlikely]] { tascell::translated::lazy_save(_tc, (_tlz == 1 ? 65536 + 1 : 65536 + 2), a, n, h); return; }
    halve__tascell_body(_tc, a + h, n - h); if (int _tlz = static_cast<int>(tascell::translated::lazy_unwound(_tc))) [[unlikely]] { tascell::translated::lazy_save(_tc, (_tlz == 1 ? 65536 + 3 : 65536 + 4), a, n, h); return; }
  }
} void halve(tascell::ctx _tc, double *_tp0, long _tp1) { halve__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1)); if (tascell::translated::lazy_unwound(_tc)) [[unlikely]] tascell::translated::lazy_bottom(_tc, &halve__tascell_resume); }
static void halve__tascell_resume([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] tascell::translated::lazy_records& _trec) {
switch (tascell::translated::lazy_site(_trec) >> 16) {
case 0: { double *a{}; long n{}; long h{}; [[maybe_unused]] const int _tsite = tascell::translated::lazy_restore(_trec, a, n, h) & 0xffff; auto _tgo = [&](std::int64_t _tk, tascell::translated::resume_first _tfirst) { tascell::translated::dowork_resume(_tc, _tk, _tfirst, 
#line 93 "lazy.tcpp"

    [&]([[maybe_unused]] tascell::ctx _tc) { halve(_tc, a, h); }, 
    tascell::part(tascell::shared(a), tascell::in(h), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, double *a, const long &h, const long &n) { halve(_tc, a + h, n - h); })
  ); };
switch (_tsite) {
case 1: _tgo(0, [&]([[maybe_unused]] tascell::ctx _tc) {
#line 94 "lazy.tcpp"
halve__tascell_resume(_tc, _trec);
}); break;
case 3: _tgo(1, [&]([[maybe_unused]] tascell::ctx _tc) {
#line 95 "lazy.tcpp"
halve__tascell_resume(_tc, _trec);
}); break;
default: if (_tsite % 2 != 0) tascell::translated::lazy_bad_site(0 + _tsite); _tgo(_tsite / 2, nullptr); break;
}
#line 96 "lazy.tcpp"

                    tascell::dowork(_tc, 
    [&]([[maybe_unused]] tascell::ctx _tc) { halve(_tc, a, h); }, 
    tascell::part(tascell::shared(a), tascell::in(h), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, double *a, const long &h, const long &n) { halve(_tc, a + h, n - h); })
  );

return;
}
case 1: { double *a{}; long n{}; long h{}; [[maybe_unused]] const int _tsite = tascell::translated::lazy_restore(_trec, a, n, h) & 0xffff; auto _tgo = [&](std::int64_t _tk, tascell::translated::resume_first _tfirst) { tascell::translated::dowork_resume(_tc, _tk, _tfirst, 
#line 97 "lazy.tcpp"

    [&]([[maybe_unused]] tascell::ctx _tc) { halve(_tc, a, h); }, 
    tascell::part(tascell::shared(a), tascell::in(h), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, double *a, const long &h, const long &n) { halve(_tc, a + h, n - h); })
  ); };
switch (_tsite) {
case 1: _tgo(0, [&]([[maybe_unused]] tascell::ctx _tc) {
#line 98 "lazy.tcpp"
halve__tascell_resume(_tc, _trec);
}); break;
case 3: _tgo(1, [&]([[maybe_unused]] tascell::ctx _tc) {
#line 99 "lazy.tcpp"
halve__tascell_resume(_tc, _trec);
}); break;
default: if (_tsite % 2 != 0) tascell::translated::lazy_bad_site(65536 + _tsite); _tgo(_tsite / 2, nullptr); break;
}
#line 100 "lazy.tcpp"


return;
}
default: tascell::translated::lazy_bad_site(tascell::translated::lazy_site(_trec));
}
__builtin_unreachable();
}
#line 101 "lazy.tcpp"


// Lazy too: if() is evaluated where the @dowork starts; when it is false
// the @dowork gives nothing away.
      long cut(tascell::ctx, int); static long cut__tascell_resume(tascell::ctx, tascell::translated::lazy_records&); static inline long cut__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  if (n < 2) return n;
  long a = 0, b = 0;
                     { const bool _tw0 = static_cast<bool>(n > 20); 
    a = cut__tascell_body(_tc, n - 1); if (int _tlz = _tw0 ? tascell::translated::lazy_check(_tc) : static_cast<int>(tascell::translated::lazy_unwound(_tc))) [[unlikely]] { tascell::translated::lazy_save(_tc, (_tlz == 1 ? 0 + 1 : 0 + 2), n, a, b); return {}; }
    b = cut__tascell_body(_tc, n - 2); if (int _tlz = static_cast<int>(tascell::translated::lazy_unwound(_tc))) [[unlikely]] { tascell::translated::lazy_save(_tc, (_tlz == 1 ? 0 + 3 : 0 + 4), n, a, b); return {}; }
  }
  return a + b;
} long cut(tascell::ctx _tc, int _tp0) { long _tr = cut__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); if (tascell::translated::lazy_unwound(_tc)) [[unlikely]] return tascell::translated::lazy_bottom(_tc, &cut__tascell_resume); return _tr; }
static long cut__tascell_resume([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] tascell::translated::lazy_records& _trec) {
switch (tascell::translated::lazy_site(_trec) >> 16) {
case 0: { int n{}; long a{}; long b{}; [[maybe_unused]] const int _tsite = tascell::translated::lazy_restore(_trec, n, a, b) & 0xffff; auto _tgo = [&](std::int64_t _tk, tascell::translated::resume_first _tfirst) { tascell::translated::dowork_resume(_tc, _tk, _tfirst, 
#line 108 "lazy.tcpp"
tascell::when(static_cast<bool>(n > 20)), 
    [&]([[maybe_unused]] tascell::ctx _tc) { a = cut(_tc, n - 1); }, 
    tascell::part(tascell::out(b), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, long &b, const int &n) { b = cut(_tc, n - 2); })
  ); };
switch (_tsite) {
case 1: _tgo(0, [&]([[maybe_unused]] tascell::ctx _tc) {
#line 109 "lazy.tcpp"
a = cut__tascell_resume(_tc, _trec);
}); break;
case 3: _tgo(1, [&]([[maybe_unused]] tascell::ctx _tc) {
#line 110 "lazy.tcpp"
b = cut__tascell_resume(_tc, _trec);
}); break;
default: if (_tsite % 2 != 0) tascell::translated::lazy_bad_site(0 + _tsite); _tgo(_tsite / 2, nullptr); break;
}
#line 111 "lazy.tcpp"

  return a + b;

}
default: tascell::translated::lazy_bad_site(tascell::translated::lazy_site(_trec));
}
__builtin_unreachable();
}
#line 113 "lazy.tcpp"

