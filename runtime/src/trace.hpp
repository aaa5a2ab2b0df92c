// Tracing (TASCELL_TRACE=path): what each worker did, for Perfetto.
//
// Each worker appends records to its own vector, on slow paths only (a
// change of activity, a hand-over, a request), so the fast path is
// untouched and tracing off costs one predictable branch on those slow
// paths. At exit the records of every worker of the process are written in
// the Chrome trace event format: a track per worker with spans of work,
// waiting at a join and idle search; instants for requests and refusals;
// flow arrows from the victim's hand-over to the thief's start of a piece.
// With several processes each writes `path.<rank>`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tascell::detail {

struct worker_impl;

enum class trace_type : std::uint8_t { span, give, start, request, refused };

struct trace_record {
  trace_type type;
  std::uint8_t what;   // span: the activity (work, idle, wait)
  std::int64_t t0_ns;  // steady clock
  std::int64_t t1_ns;  // span: its end
  std::uint64_t id;    // give/start: the piece's serial; request/refused: the victim's id
};

std::int64_t trace_now();
// Writes the records of these workers to path (Chrome trace JSON).
// Returns an error text, or empty.
std::string write_trace(const std::string& path, int rank, const std::vector<worker_impl*>& workers);

}  // namespace tascell::detail
