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
//
// With several processes (mpirun) a root call is collective: every process
// makes it; process 0 runs the root task while the others work for it; the
// result (or the exception) is sent to every process, so R must be
// copyable between processes (wire.hpp).
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "tascell/chain.hpp"
#include "tascell/wire.hpp"

namespace tascell {

// A bad TASCELL_* setting; the message names the variable, the value and
// what is allowed.
struct config_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace detail {
struct root_call {
  void (*fn)(ctx, void*);  // runs the root task
  void* env;
  // With several processes: the result as bytes (rank 0) and back (the
  // others); nullptr when the result cannot travel.
  void (*pack)(void* env, out_archive& a);
  void (*unpack)(void* env, in_archive& a);
};
// Runs the root task; rethrows its exception.
void run_root(const root_call& call);
}  // namespace detail

template <class F, class... A>
auto root(F&& f, A&&... args) {
  using R = std::invoke_result_t<F, ctx, A...>;
  struct env_t {
    F& f;
    std::tuple<A&...> args;
    std::conditional_t<std::is_void_v<R>, char, std::optional<R>> result;
  } env{f, {args...}, {}};
  detail::root_call call{
      [](ctx c, void* p) {
        auto& e = *static_cast<env_t*>(p);
        if constexpr (std::is_void_v<R>) {
          std::apply([&](A&... a) { std::invoke(e.f, c, a...); }, e.args);
        } else {
          e.result.emplace(std::apply([&](A&... a) { return std::invoke(e.f, c, a...); }, e.args));
        }
      },
      &env, nullptr, nullptr};
  if constexpr (std::is_void_v<R>) {
    call.pack = [](void*, out_archive&) {};
    call.unpack = [](void*, in_archive&) {};
  } else if constexpr (detail::portable_v<R> && std::is_default_constructible_v<R>) {
    call.pack = [](void* p, out_archive& a) { detail::save_value(a, *static_cast<env_t*>(p)->result); };
    call.unpack = [](void* p, in_archive& a) {
      auto& e = *static_cast<env_t*>(p);
      e.result.emplace();
      detail::load_value(a, *e.result);
    };
  }
  detail::run_root(call);
  if constexpr (!std::is_void_v<R>) return std::move(*env.result);
}

// The number of workers of this process (starts the runtime if needed).
int workers();
// This process's rank and the number of processes (1 without mpirun);
// is_root(): rank 0. These start the runtime (and MPI) if needed.
int rank();
int processes();
inline bool is_root() { return rank() == 0; }

}  // namespace tascell
