// Tracing (TASCELL_TRACE=path): what each worker and the message thread did,
// for Perfetto and tascell-trace.
//
// Each worker appends records to its own vector, on slow paths only (a
// change of activity, a hand-over, a request, an improvement, a cancel), so
// the fast path is untouched and tracing off costs one predictable branch
// on those slow paths. The message thread has a vector of its own. At exit
// the records of the process are written in the Chrome trace event format:
// a track per worker with spans (work, waiting at a join, stealing back,
// idle search, backtracking to give work), instants, and flow arrows from
// the victim's hand-over to the thief's start of a piece. With several
// processes each writes `path.<rank>`, with its times on rank 0's clock
// (measured at start-up, see network::align_clocks), so that the files
// merge into one timeline (`tascell-trace merge`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tascell::detail {

// What a worker is doing (statistics and trace spans: trace_record::what).
// messages/asleep are the message thread's, in its trace only.
enum class activity : std::uint8_t { work, idle, wait, steal_back, give, messages, asleep };

enum class trace_type : std::uint8_t {
  span,       // what: the activity; [t0, t1)
  give,       // id: the piece; a: the thief (worker, or -1-rank); b: depth; c: size
  start,      // id: the piece; a: the victim (worker, or -1-rank); b: request -> start ns, or -1
  request,    // a: the victim worker; b: 1 for a steal-back
  refused,    // a: the victim worker
  incumbent,  // id: the incumbent; c: the value's bits (double), b: 1 if it has a value
  cancel,     // cancel() was called
  stop,       // b: pieces told to stop
  suspend,    // TASCELL_WAIT=suspend: a: the fiber that waits now; b: at a join 0, at a poll 1, idle 2
  resume,     // a: the fiber that runs now
  unwind,     // lazy frames start to unwind for a request (tascell/lazy.hpp)
  rebuild,    // the frames unwound are rebuilt (the request is served next): b: frames
  // The message thread.
  send,       // a: to rank; b: messages; c: bytes
  recv,       // a: from rank; b: messages; c: bytes
  ask,        // a: the rank asked for work; b: 1 if posted through shared memory
  denied,     // a: the rank that had none
  arrived,    // id: the piece; a: from rank (work received)
  improved,   // id: the incumbent; a: from rank
};

struct trace_record {
  trace_type type;
  std::uint8_t what = 0;  // span: the activity (an `activity`)
  std::int32_t a = 0;
  std::int64_t t0_ns = 0;  // steady clock
  std::int64_t t1_ns = 0;  // span: its end
  std::uint64_t id = 0;
  std::int64_t b = 0;
  std::int64_t c = 0;
};

std::int64_t trace_now();

// The records of one track (a worker, or the message thread), at most
// `room` of them (TASCELL_TRACE_RECORDS); the rest are counted, not kept.
struct trace_buffer {
  std::vector<trace_record> records;
  std::size_t room = 0;
  std::int64_t dropped = 0;

  void instant(std::int64_t now, trace_type t, std::uint64_t id, std::int32_t a, std::int64_t b, std::int64_t c) {
    trace_record r{t};
    r.a = a;
    r.t0_ns = r.t1_ns = now;
    r.id = id;
    r.b = b;
    r.c = c;
    keep(r);
  }
  void span(std::uint8_t what, std::int64_t t0, std::int64_t t1) {
    trace_record r{trace_type::span};
    r.what = what;
    r.t0_ns = t0;
    r.t1_ns = t1;
    keep(r);
  }

 private:
  void keep(const trace_record& r) {
    if (records.size() < room) records.push_back(r);
    else ++dropped;
  }
};

// The flow id of a piece made by process `rank` with serial `serial`: the
// same in the victim's and the thief's process.
inline std::uint64_t piece_flow_id(int rank, std::uint64_t serial) {
  return (static_cast<std::uint64_t>(rank) << 40) | serial;
}

// How the records of one process are placed on the common timeline.
struct trace_clock {
  // Local steady-clock time of the trace's zero (with several processes:
  // rank 0's clock reading at start-up, translated to this clock).
  std::int64_t origin_ns = 0;
  bool aligned = false;     // several processes: origin comes from rank 0
  std::int64_t offset_ns = 0;  // rank 0's clock minus this one's
  std::int64_t error_ns = 0;   // half the best round trip of the measurement
};

// One track of the trace: a worker, or the message thread.
struct trace_track {
  int tid;
  std::string name;
  const trace_buffer* buffer;
};

// Writes the tracks to path (Chrome trace JSON). Returns an error text, or
// empty.
std::string write_trace(const std::string& path, int rank, int processes, const trace_clock& clock,
                        const std::vector<trace_track>& tracks);

}  // namespace tascell::detail
