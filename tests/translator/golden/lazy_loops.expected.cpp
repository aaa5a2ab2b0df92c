#include <tascell/translated.hpp>
#line 1 "lazy_loops.tcpp"
// Lazy @dowork for loops (docs/language.md, "Lazy spawn points"): `search`
// is lazy, with resume points under a nested loop, an if and a @wind, and
// a reference in scope; `paint` is lazy with a void call statement under a
// while loop; `count` is lazy under an if() cutoff; `breaks` is lazy with
// break and continue in the loop around its resume point. Each of the
// others keeps its eager spawn point, for the reason its comment gives.
inline const int weights[8] = {1, 2, 1, 2, 1, 2, 1, 2};

      long search(tascell::ctx, int *, int, int); static long search__tascell_resume(tascell::ctx, tascell::translated::lazy_records&); static inline long search__tascell_body([[maybe_unused]] tascell::ctx _tc, int* used, int n, int k) {
  if (k == n) return 1;
  long s = 0;
                                         
  { const tascell::range _tr = tascell::range::canonical(0, n, 1, tascell::cmp::lt); const std::int64_t _trf = _tr.first, _trn = _tr.count, _trs = _tr.step; std::int64_t _tk = 0; if (tascell::translated::lazy_poll(_tc)) [[unlikely]] { tascell::translated::lazy_save_tuple(_tc, 0, std::tuple(used, n, k, s, _trf, _trn, _trs, _tk)); return {}; } for (; _tk < _trn; ++_tk) { [[maybe_unused]] int v = static_cast<int>(_trf + _tk * _trs); {
    if (used[v]) continue;
    const int& w = weights[v];
    for (int r = 0; r < w; ++r) {
      if (r + k > n) continue;
      if (tascell::translated::lazy_wind(_tc, [&, used, v] { used[v] = 1; }, [&, used, v] { used[v] = 0; }, [&]([[maybe_unused]] tascell::ctx _tc) -> bool {  {
        { s += search__tascell_body(_tc, used, n, k + 1); if (int _tlz = tascell::translated::lazy_check(_tc)) [[unlikely]] { tascell::translated::lazy_save_tuple(_tc, (_tlz == 1 ? 0 + 1 : 0 + 2), std::tuple(used, n, k, s, _trf, _trn, _trs, _tk, __builtin_addressof(w), r)); return true; } }
      } return false; })) [[unlikely]] { return {}; }
    }
  } } }
  return s;
} long search(tascell::ctx _tc, int *_tp0, int _tp1, int _tp2) { long _tr = search__tascell_body(tascell::translated::lazy_enter(_tc), static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1), static_cast<decltype(_tp2)&&>(_tp2)); if (tascell::translated::lazy_unwound(_tc)) [[unlikely]] return tascell::translated::lazy_bottom(_tc, &search__tascell_resume); return _tr; }
static long search__tascell_resume([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] tascell::translated::lazy_records& _trec) {
switch (tascell::translated::lazy_site(_trec) >> 16) {
case 0: { int *used{}; int n{}; int k{}; long s{}; std::int64_t _trf{}, _trn{}, _trs{}, _tk{}; const int _tsite = tascell::translated::lazy_site(_trec) & 0xffff; auto _tgo = [&](tascell::translated::resume_first _tfirst) { tascell::translated::dowork_for_resume(_tc, _tk, _tfirst, 
#line 13 "lazy_loops.tcpp"
tascell::range::of_count(_trf, _trn, _trs), tascell::copy(used, 0, n), tascell::in(k), tascell::in(n), tascell::reduce<tascell::op::plus>(s), []([[maybe_unused]] tascell::ctx _tc, std::int64_t _ti, int *used, const int &k, const int &n, long &s) { if (_ti != static_cast<int>(_ti)) __builtin_unreachable(); [[maybe_unused]] int v = static_cast<int>(_ti);  {
    if (used[v]) return  ;
    const int& w = weights[v];
    for (int r = 0; r < w; ++r) {
      if (r + k > n) continue;
      tascell::wind(_tc, [&, used, v] { used[v] = 1; }, [&, used, v] { used[v] = 0; }, [&]([[maybe_unused]] tascell::ctx _tc) {  {
        s += search(_tc, used, n, k + 1);
      } });
    }
  } }); };
switch (_tsite) {
case 0: tascell::translated::lazy_restore(_trec, used, n, k, s, _trf, _trn, _trs, _tk); _tgo(nullptr); break;
case 1: { const int *_tref_w{}; int r{}; tascell::translated::lazy_restore(_trec, used, n, k, s, _trf, _trn, _trs, _tk, _tref_w, r); const int &w = *_tref_w; [[maybe_unused]] int v = static_cast<int>(_trf + _tk * _trs); _tgo([&]([[maybe_unused]] tascell::ctx _tc) { do { { { int _tb1 = 0; for (; _tb1 < 1; ++_tb1) { { tascell::wind(_tc, [&, used, v] { used[v] = 1; }, [&, used, v] { used[v] = 0; }, [&]([[maybe_unused]] tascell::ctx _tc) { { 
#line 19 "lazy_loops.tcpp"
s += search__tascell_resume(_tc, _trec);

#line 19 "lazy_loops.tcpp"

      
} });
#line 20 "lazy_loops.tcpp"

    
} } if (_tb1 == 1) for (++r; r < w; ++r) 
#line 16 "lazy_loops.tcpp"
{
      if (r + k > n) continue;
      tascell::wind(_tc, [&, used, v] { used[v] = 1; }, [&, used, v] { used[v] = 0; }, [&]([[maybe_unused]] tascell::ctx _tc) {  {
        s += search(_tc, used, n, k + 1);
      } });
    } }
#line 21 "lazy_loops.tcpp"

  
} } while (0); }); break; }
case 2: { const int *_tref_w{}; int r{}; tascell::translated::lazy_restore(_trec, used, n, k, s, _trf, _trn, _trs, _tk, _tref_w, r); const int &w = *_tref_w; [[maybe_unused]] int v = static_cast<int>(_trf + _tk * _trs); _tgo([&]([[maybe_unused]] tascell::ctx _tc) { do { { { int _tb1 = 0; for (; _tb1 < 1; ++_tb1) { { tascell::wind(_tc, [&, used, v] { used[v] = 1; }, [&, used, v] { used[v] = 0; }, [&]([[maybe_unused]] tascell::ctx _tc) { { 
#line 19 "lazy_loops.tcpp"

      
} });
#line 20 "lazy_loops.tcpp"

    
} } if (_tb1 == 1) for (++r; r < w; ++r) 
#line 16 "lazy_loops.tcpp"
{
      if (r + k > n) continue;
      tascell::wind(_tc, [&, used, v] { used[v] = 1; }, [&, used, v] { used[v] = 0; }, [&]([[maybe_unused]] tascell::ctx _tc) {  {
        s += search(_tc, used, n, k + 1);
      } });
    } }
#line 21 "lazy_loops.tcpp"

  
} } while (0); }); break; }
default: tascell::translated::lazy_bad_site(0 + _tsite);
}
#line 22 "lazy_loops.tcpp"

  return s;

}
default: tascell::translated::lazy_bad_site(tascell::translated::lazy_site(_trec));
}
__builtin_unreachable();
}
#line 24 "lazy_loops.tcpp"


      void paint(tascell::ctx, long *, long); static void paint__tascell_resume(tascell::ctx, tascell::translated::lazy_records&); static inline void paint__tascell_body([[maybe_unused]] tascell::ctx _tc, long* a, long n) {
  if (n == 1) {
    a[0] += 1;
    return;
  }
                   
  { const tascell::range _tr = tascell::range::canonical(n, 0, -(n / 2), tascell::cmp::gt); const std::int64_t _trf = _tr.first, _trn = _tr.count, _trs = _tr.step; std::int64_t _tk = 0; if (tascell::translated::lazy_poll(_tc)) [[unlikely]] { tascell::translated::lazy_save_tuple(_tc, 0, std::tuple(a, n, _trf, _trn, _trs, _tk)); return; } for (; _tk < _trn; ++_tk) { [[maybe_unused]] long q = static_cast<long>(_trf + _tk * _trs); {
    long j = 0;
    while (j < 1) {
      { paint__tascell_body(_tc, a + (q - 1) / 2 * 0, n / 2); if (int _tlz = tascell::translated::lazy_check(_tc)) [[unlikely]] { tascell::translated::lazy_save_tuple(_tc, (_tlz == 1 ? 0 + 1 : 0 + 2), std::tuple(a, n, _trf, _trn, _trs, _tk, j)); return; } }
      ++j;
    }
  } } }
} void paint(tascell::ctx _tc, long *_tp0, long _tp1) { paint__tascell_body(tascell::translated::lazy_enter(_tc), static_cast<decltype(_tp0)&&>(_tp0), static_cast<decltype(_tp1)&&>(_tp1)); if (tascell::translated::lazy_unwound(_tc)) [[unlikely]] tascell::translated::lazy_bottom(_tc, &paint__tascell_resume); }
static void paint__tascell_resume([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] tascell::translated::lazy_records& _trec) {
switch (tascell::translated::lazy_site(_trec) >> 16) {
case 0: { long *a{}; long n{}; std::int64_t _trf{}, _trn{}, _trs{}, _tk{}; const int _tsite = tascell::translated::lazy_site(_trec) & 0xffff; auto _tgo = [&](tascell::translated::resume_first _tfirst) { tascell::translated::dowork_for_resume(_tc, _tk, _tfirst, 
#line 32 "lazy_loops.tcpp"
tascell::range::of_count(_trf, _trn, _trs), tascell::shared(a), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, std::int64_t _ti, long *a, const long &n) { [[maybe_unused]] long q = static_cast<long>(_ti);  {
    long j = 0;
    while (j < 1) {
      paint(_tc, a + (q - 1) / 2 * 0, n / 2);
      ++j;
    }
  } }); };
switch (_tsite) {
case 0: tascell::translated::lazy_restore(_trec, a, n, _trf, _trn, _trs, _tk); _tgo(nullptr); break;
case 1: { long j{}; tascell::translated::lazy_restore(_trec, a, n, _trf, _trn, _trs, _tk, j); [[maybe_unused]] long q = static_cast<long>(_trf + _tk * _trs); _tgo([&]([[maybe_unused]] tascell::ctx _tc) { do { { { int _tb1 = 0; for (; _tb1 < 1; ++_tb1) { { 
#line 35 "lazy_loops.tcpp"
paint__tascell_resume(_tc, _trec);

#line 35 "lazy_loops.tcpp"

      ++j;
    
} } if (_tb1 == 1) while (j < 1) 
#line 34 "lazy_loops.tcpp"
{
      paint(_tc, a + (q - 1) / 2 * 0, n / 2);
      ++j;
    } }
#line 37 "lazy_loops.tcpp"

  
} } while (0); }); break; }
case 2: { long j{}; tascell::translated::lazy_restore(_trec, a, n, _trf, _trn, _trs, _tk, j); [[maybe_unused]] long q = static_cast<long>(_trf + _tk * _trs); _tgo([&]([[maybe_unused]] tascell::ctx _tc) { do { { { int _tb1 = 0; for (; _tb1 < 1; ++_tb1) { { 
#line 35 "lazy_loops.tcpp"

      ++j;
    
} } if (_tb1 == 1) while (j < 1) 
#line 34 "lazy_loops.tcpp"
{
      paint(_tc, a + (q - 1) / 2 * 0, n / 2);
      ++j;
    } }
#line 37 "lazy_loops.tcpp"

  
} } while (0); }); break; }
default: tascell::translated::lazy_bad_site(0 + _tsite);
}
#line 38 "lazy_loops.tcpp"


return;
}
default: tascell::translated::lazy_bad_site(tascell::translated::lazy_site(_trec));
}
__builtin_unreachable();
}
#line 39 "lazy_loops.tcpp"


// A cutoff: if() is read once where the loop starts; below the cutoff the
// loop neither polls nor starts an unwinding, and after each call looks
// only whether the callee unwinds.
      long count(tascell::ctx, int); static long count__tascell_resume(tascell::ctx, tascell::translated::lazy_records&); static inline long count__tascell_body([[maybe_unused]] tascell::ctx _tc, int d) {
  if (d == 0) return 1;
  long s = 0;
                                   
  { const bool _tw0 = static_cast<bool>(d > 4); const tascell::range _tr = tascell::range::canonical(0, 2, 1, tascell::cmp::lt); const std::int64_t _trf = _tr.first, _trn = _tr.count, _trs = _tr.step; std::int64_t _tk = 0; if (_tw0 && tascell::translated::lazy_poll(_tc)) [[unlikely]] { tascell::translated::lazy_save_tuple(_tc, 0, std::tuple(d, s, _trf, _trn, _trs, _tk)); return {}; } for (; _tk < _trn; ++_tk) { [[maybe_unused]] int i = static_cast<int>(_trf + _tk * _trs); {
    long t = 0;
    { t = count__tascell_body(_tc, d - 1); if (int _tlz = _tw0 ? tascell::translated::lazy_check(_tc) : static_cast<int>(tascell::translated::lazy_unwound(_tc))) [[unlikely]] { tascell::translated::lazy_save_tuple(_tc, (_tlz == 1 ? 0 + 1 : 0 + 2), std::tuple(d, s, _trf, _trn, _trs, _tk, t)); return {}; } }
    s += t;
  } } }
  return s;
} long count(tascell::ctx _tc, int _tp0) { long _tr = count__tascell_body(tascell::translated::lazy_enter(_tc), static_cast<decltype(_tp0)&&>(_tp0)); if (tascell::translated::lazy_unwound(_tc)) [[unlikely]] return tascell::translated::lazy_bottom(_tc, &count__tascell_resume); return _tr; }
static long count__tascell_resume([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] tascell::translated::lazy_records& _trec) {
switch (tascell::translated::lazy_site(_trec) >> 16) {
case 0: { int d{}; long s{}; std::int64_t _trf{}, _trn{}, _trs{}, _tk{}; const int _tsite = tascell::translated::lazy_site(_trec) & 0xffff; auto _tgo = [&](tascell::translated::resume_first _tfirst) { tascell::translated::dowork_for_resume(_tc, _tk, _tfirst, 
#line 48 "lazy_loops.tcpp"
tascell::when(static_cast<bool>(d > 4)), tascell::range::of_count(_trf, _trn, _trs), tascell::in(d), tascell::reduce<tascell::op::plus>(s), []([[maybe_unused]] tascell::ctx _tc, std::int64_t _ti, const int &d, long &s) { if (_ti != static_cast<int>(_ti)) __builtin_unreachable(); [[maybe_unused]] int i = static_cast<int>(_ti);  {
    long t = 0;
    t = count(_tc, d - 1);
    s += t;
  } }); };
switch (_tsite) {
case 0: tascell::translated::lazy_restore(_trec, d, s, _trf, _trn, _trs, _tk); _tgo(nullptr); break;
case 1: { long t{}; tascell::translated::lazy_restore(_trec, d, s, _trf, _trn, _trs, _tk, t); [[maybe_unused]] int i = static_cast<int>(_trf + _tk * _trs); _tgo([&]([[maybe_unused]] tascell::ctx _tc) { do { { 
#line 50 "lazy_loops.tcpp"
t = count__tascell_resume(_tc, _trec);

#line 50 "lazy_loops.tcpp"

    s += t;
  
} } while (0); }); break; }
case 2: { long t{}; tascell::translated::lazy_restore(_trec, d, s, _trf, _trn, _trs, _tk, t); [[maybe_unused]] int i = static_cast<int>(_trf + _tk * _trs); _tgo([&]([[maybe_unused]] tascell::ctx _tc) { do { { 
#line 50 "lazy_loops.tcpp"

    s += t;
  
} } while (0); }); break; }
default: tascell::translated::lazy_bad_site(0 + _tsite);
}
#line 52 "lazy_loops.tcpp"

  return s;

}
default: tascell::translated::lazy_bad_site(tascell::translated::lazy_site(_trec));
}
__builtin_unreachable();
}
#line 54 "lazy_loops.tcpp"


// A loop around the resume point left by break, before the point and
// after it: lazy, the rest of a resumed iteration runs in a loop of one
// turn, which its break leaves for good and its continue runs on from.
      long breaks(tascell::ctx, int); static long breaks__tascell_resume(tascell::ctx, tascell::translated::lazy_records&); static inline long breaks__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  if (n == 0) return 1;
  long s = 0;
                         
  { const tascell::range _tr = tascell::range::canonical(0, n, 1, tascell::cmp::lt); const std::int64_t _trf = _tr.first, _trn = _tr.count, _trs = _tr.step; std::int64_t _tk = 0; if (tascell::translated::lazy_poll(_tc)) [[unlikely]] { tascell::translated::lazy_save_tuple(_tc, 0, std::tuple(n, s, _trf, _trn, _trs, _tk)); return {}; } for (; _tk < _trn; ++_tk) { [[maybe_unused]] int i = static_cast<int>(_trf + _tk * _trs); {
    for (int j = 0; j < 3; ++j) {
      if (j > i) break;
      { s += breaks__tascell_body(_tc, n - 1); if (int _tlz = tascell::translated::lazy_check(_tc)) [[unlikely]] { tascell::translated::lazy_save_tuple(_tc, (_tlz == 1 ? 0 + 1 : 0 + 2), std::tuple(n, s, _trf, _trn, _trs, _tk, j)); return {}; } }
      if (s % 7 == 3) continue;
      if (j == 1) break;
    }
  } } }
  return s;
} long breaks(tascell::ctx _tc, int _tp0) { long _tr = breaks__tascell_body(tascell::translated::lazy_enter(_tc), static_cast<decltype(_tp0)&&>(_tp0)); if (tascell::translated::lazy_unwound(_tc)) [[unlikely]] return tascell::translated::lazy_bottom(_tc, &breaks__tascell_resume); return _tr; }
static long breaks__tascell_resume([[maybe_unused]] tascell::ctx _tc, [[maybe_unused]] tascell::translated::lazy_records& _trec) {
switch (tascell::translated::lazy_site(_trec) >> 16) {
case 0: { int n{}; long s{}; std::int64_t _trf{}, _trn{}, _trs{}, _tk{}; const int _tsite = tascell::translated::lazy_site(_trec) & 0xffff; auto _tgo = [&](tascell::translated::resume_first _tfirst) { tascell::translated::dowork_for_resume(_tc, _tk, _tfirst, 
#line 63 "lazy_loops.tcpp"
tascell::range::of_count(_trf, _trn, _trs), tascell::reduce<tascell::op::plus>(s), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, std::int64_t _ti, long &s, const int &n) { if (_ti != static_cast<int>(_ti)) __builtin_unreachable(); [[maybe_unused]] int i = static_cast<int>(_ti);  {
    for (int j = 0; j < 3; ++j) {
      if (j > i) break;
      s += breaks(_tc, n - 1);
      if (s % 7 == 3) continue;
      if (j == 1) break;
    }
  } }); };
switch (_tsite) {
case 0: tascell::translated::lazy_restore(_trec, n, s, _trf, _trn, _trs, _tk); _tgo(nullptr); break;
case 1: { int j{}; tascell::translated::lazy_restore(_trec, n, s, _trf, _trn, _trs, _tk, j); [[maybe_unused]] int i = static_cast<int>(_trf + _tk * _trs); _tgo([&]([[maybe_unused]] tascell::ctx _tc) { do { { { int _tb1 = 0; for (; _tb1 < 1; ++_tb1) { { 
#line 66 "lazy_loops.tcpp"
s += breaks__tascell_resume(_tc, _trec);

#line 66 "lazy_loops.tcpp"

      if (s % 7 == 3) continue;
      if (j == 1) break;
    
} } if (_tb1 == 1) for (++j; j < 3; ++j) 
#line 64 "lazy_loops.tcpp"
{
      if (j > i) break;
      s += breaks(_tc, n - 1);
      if (s % 7 == 3) continue;
      if (j == 1) break;
    } }
#line 69 "lazy_loops.tcpp"

  
} } while (0); }); break; }
case 2: { int j{}; tascell::translated::lazy_restore(_trec, n, s, _trf, _trn, _trs, _tk, j); [[maybe_unused]] int i = static_cast<int>(_trf + _tk * _trs); _tgo([&]([[maybe_unused]] tascell::ctx _tc) { do { { { int _tb1 = 0; for (; _tb1 < 1; ++_tb1) { { 
#line 66 "lazy_loops.tcpp"

      if (s % 7 == 3) continue;
      if (j == 1) break;
    
} } if (_tb1 == 1) for (++j; j < 3; ++j) 
#line 64 "lazy_loops.tcpp"
{
      if (j > i) break;
      s += breaks(_tc, n - 1);
      if (s % 7 == 3) continue;
      if (j == 1) break;
    } }
#line 69 "lazy_loops.tcpp"

  
} } while (0); }); break; }
default: tascell::translated::lazy_bad_site(0 + _tsite);
}
#line 70 "lazy_loops.tcpp"

  return s;

}
default: tascell::translated::lazy_bad_site(tascell::translated::lazy_site(_trec));
}
__builtin_unreachable();
}
#line 72 "lazy_loops.tcpp"


// An array is in scope at the resume point: it is no scalar.
      long arrays(tascell::ctx, int); static inline long arrays__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  if (n == 0) return 1;
  long s = 0;
                         
  tascell::dowork_for(_tc, tascell::range::canonical(0, n, 1, tascell::cmp::lt), tascell::in(n), tascell::reduce<tascell::op::plus>(s), []([[maybe_unused]] tascell::ctx _tc, std::int64_t _ti, const int &n, long &s) { if (_ti != static_cast<int>(_ti)) __builtin_unreachable(); [[maybe_unused]] int i = static_cast<int>(_ti);  {
    int t[2] = {i, n};
    s += arrays(_tc, t[1] - 1);
  } });
  return s;
} long arrays(tascell::ctx _tc, int _tp0) { return arrays__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }

// A reference to a local object: a rebuilt frame's reference would point
// into the frame that was unwound.
      long local_ref(tascell::ctx, int); static inline long local_ref__tascell_body([[maybe_unused]] tascell::ctx _tc, int n) {
  if (n == 0) return 1;
  long s = 0;
                         
  tascell::dowork_for(_tc, tascell::range::canonical(0, n, 1, tascell::cmp::lt), tascell::reduce<tascell::op::plus>(s), tascell::in(n), []([[maybe_unused]] tascell::ctx _tc, std::int64_t _ti, long &s, const int &n) { if (_ti != static_cast<int>(_ti)) __builtin_unreachable(); [[maybe_unused]] int i = static_cast<int>(_ti);  {
    const int& m = i;
    s += local_ref(_tc, n - 1 + m * 0);
  } });
  return s;
} long local_ref(tascell::ctx _tc, int _tp0) { return local_ref__tascell_body(_tc, static_cast<decltype(_tp0)&&>(_tp0)); }
