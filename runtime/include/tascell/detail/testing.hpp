// Hooks for the runtime's own tests. Not for programs.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tascell::detail {

// Sends `bytes` to process `rank` as if they were a batch of messages (to
// test that a malformed message ends the run with a clear message).
void send_raw_for_testing(int rank, std::string bytes);

// The CPU each worker of this process is pinned to (worker i: element i),
// or empty when it does not pin (TASCELL_PIN=0, or not enough CPUs for the
// processes of the run on this machine). Starts the runtime.
std::vector<int> pinned_cpus_for_testing();
// Turns steal-back at joins off (and on again), so that tests of
// TASCELL_WAIT=suspend see joins suspend in one process too.
void steal_back_for_testing(bool on);
// Waits this long between reading the thief of a piece in another process
// and asking it to give back (0: no wait), so that a test can make the
// piece's result arrive in between (a race seen once in ~300 runs).
void steal_back_delay_for_testing(int microseconds);
// An idle worker that finds every worker of its process idle and a request
// armed for it waits this long before it claims the request (0: no wait),
// so that a test can make the message thread take the request back, ask
// and be answered, and arm the next one in between (the lost piece of the
// rare hang: decisions.md, "The lost piece").
void claim_delay_for_testing(int microseconds);
// Distributed tables (table.hpp): with settling off, a worker hands its
// updates over but never waits for them to be applied (the end of a piece,
// a give), so work that follows may run before they arrive; the message
// thread of the receiving process holds every batch of updates this long
// before applying it (and a fence behind it). Together
// they show that a test of completion at the join sees updates in flight.
void settle_updates_for_testing(bool on);
void delay_updates_for_testing(int microseconds);
// This process among those of the run on its machine: {local rank, local size}.
std::pair<int, int> local_rank_for_testing();

}  // namespace tascell::detail
