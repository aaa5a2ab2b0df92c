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
#line 1 "linkage.tcpp"
// How @task definitions are emitted: an internal inline body behind the
// external function (so GCC may unroll recursion), also for static
// functions; left as they are with default arguments.
      static long down(int n) {
  if (n <= 0) return 0;
  long a = 0, b = 0;
          {
    a = down(n - 1);
    b = down(n - 2);
  }
  return a + b + 1;
}

      long with_default(int n, int step = 1) { return n <= 0 ? 0 : with_default(n - step, step) + down(n); }

long use() { return with_default(5); }
