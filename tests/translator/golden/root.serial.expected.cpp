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
#line 1 "root.tcpp"
// Prototypes, void tasks, and root calls from ordinary code.
      void work(int n);
      int twice(int n) { return 2 * n; }

      void work(int n) {
  int a = 0;
          {
    a = twice(n);
    work(n - 1);
  }
  (void)a;
}

int run(int n) {
  work(n);
  return twice(n) + 1;
}
