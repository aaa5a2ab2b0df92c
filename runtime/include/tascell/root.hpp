// Root calls: running a @task function from ordinary code.
//
//   long r = tascell::root(fib, 35);       // fib(ctx, int)
//   tascell::root([&](tascell::ctx c) { ... });
//
// The first root call starts the workers (TASCELL_WORKERS, default: every
// hardware thread); the calling thread is worker 0 for the duration of the
// call and the others sleep between root calls. The result is returned, or
// the exception the root task threw is rethrown here. Root calls are not
// re-entrant: a root call from inside a running task is an error.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "tascell/chain.hpp"

namespace tascell {

// A bad TASCELL_* setting; the message names the variable, the value and
// what is allowed.
struct config_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace detail {
// Runs fn(ctx, env) as the root task; rethrows its exception.
void run_root(void (*fn)(ctx, void*), void* env);
}  // namespace detail

template <class F, class... A>
auto root(F&& f, A&&... args) {
  using R = std::invoke_result_t<F, ctx, A...>;
  struct env_t {
    F& f;
    std::tuple<A&...> args;
    std::conditional_t<std::is_void_v<R>, char, std::optional<R>> result;
  } env{f, {args...}, {}};
  detail::run_root(
      [](ctx c, void* p) {
        auto& e = *static_cast<env_t*>(p);
        if constexpr (std::is_void_v<R>) {
          std::apply([&](A&... a) { std::invoke(e.f, c, a...); }, e.args);
        } else {
          e.result.emplace(std::apply([&](A&... a) { return std::invoke(e.f, c, a...); }, e.args));
        }
      },
      &env);
  if constexpr (!std::is_void_v<R>) return std::move(*env.result);
}

// The number of workers of this process (starts the runtime if needed).
int workers();
// This process's rank and the number of processes (1 process until the MPI
// layer exists); is_root(): rank 0.
int rank();
int processes();
inline bool is_root() { return rank() == 0; }

}  // namespace tascell
