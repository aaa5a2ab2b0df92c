// The header of headers.tcpp: a @task prototype, a @task function defined
// here, and ordinary code calling them.
#ifndef TASCELL_GOLDEN_HEADERS_HPP
#define TASCELL_GOLDEN_HEADERS_HPP

@task long leaves(int depth);

@task inline long nodes(int depth) {
  if (depth == 0) return 1;
  long a = 0, b = 0;
  @dowork {
    a = nodes(depth - 1);
    b = nodes(depth - 1);
  }
  return 1 + a + b;
}

inline long tree(int depth) { return nodes(depth) + leaves(depth); }

#endif
