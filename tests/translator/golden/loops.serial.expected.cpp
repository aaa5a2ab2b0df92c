namespace tascell {
inline void cancel() {}
inline bool cancelled() { return false; }
}
template <class T, class U> inline bool tascell_serial_improve_min(T& best, const U& v) {
  if (v < best) { best = static_cast<T>(v); return true; }
  return false;
}
template <class T, class U> inline bool tascell_serial_improve_max(T& best, const U& v) {
  if (best < v) { best = static_cast<T>(v); return true; }
  return false;
}
#line 1 "loops.tcpp"
// @dowork for: reductions, copy/copyout/shared, continue, steps and
// downward loops.
      long sum(int n, const long* v) {
  long s = 0, m = 0;
                                                     
  for (int i = 0; i < n; ++i) {
    if (v[i] < 0) continue;
    s += v[i];
    m = v[i] > m ? v[i] : m;
  }
  return s + m;
}

      void squares(int n, int* out) {
                           
  for (int i = n - 1; i >= 0; i -= 2)
    out[i] = i * i;
}

      long count(long lo, long hi) {
  long c = 0;
                          for (long i = lo; i <= hi; i += 3) c += 1;
  return c;
}
