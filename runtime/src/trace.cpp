// The Chrome trace event format writer (trace.hpp).
#include "trace.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>

namespace tascell::detail {

std::int64_t trace_now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

namespace {

const char* span_name(std::uint8_t a) {
  switch (static_cast<activity>(a)) {
    case activity::work: return "work";
    case activity::idle: return "idle";
    case activity::wait: return "wait";
    case activity::steal_back: return "steal back";
    case activity::give: return "give";
    case activity::messages: return "messages";
    case activity::asleep: return "asleep";
  }
  return "?";
}

// A worker, or another process (-1-rank), as the args of an event.
void put_party(std::FILE* f, const char* key, std::int32_t who) {
  if (who >= 0) std::fprintf(f, "\"%s\":%d", key, who);
  else std::fprintf(f, "\"%s_rank\":%d", key, -1 - who);
}

}  // namespace

std::string write_trace(const std::string& path, int rank, int processes, const trace_clock& clock,
                        const std::vector<trace_track>& tracks) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return "tascell: cannot write the trace TASCELL_TRACE=" + path + ": " + std::strerror(errno);
  std::int64_t origin = clock.origin_ns;
  if (!clock.aligned) {  // one process: times from its first record
    origin = INT64_MAX;
    for (const trace_track& k : tracks)
      for (const trace_record& r : k.buffer->records) origin = std::min(origin, r.t0_ns);
  }
  auto us = [&](std::int64_t ns) { return static_cast<double>(ns - origin) / 1000.0; };
  char host[256] = "?";
  gethostname(host, sizeof host - 1);
  std::fprintf(f,
               "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"rank\":%d,\"processes\":%d,\"host\":\"%s\","
               "\"clock\":\"%s\",\"clock_offset_ns\":%lld,\"clock_error_ns\":%lld},\"traceEvents\":[\n",
               rank, processes, host, clock.aligned ? "aligned to rank 0" : "this process",
               static_cast<long long>(clock.offset_ns), static_cast<long long>(clock.error_ns));
  std::fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":\"rank %d (%s)\"}}",
               rank, rank, host);
  std::fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"args\":{\"sort_index\":%d}}",
               rank, rank);
  for (const trace_track& k : tracks) {
    int tid = k.tid;
    std::fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"%s\"}}",
                 rank, tid, k.name.c_str());
    if (k.buffer->dropped)  // Perfetto shows this as the track's argument
      std::fprintf(f,
                   ",\n{\"ph\":\"M\",\"name\":\"thread_dropped\",\"pid\":%d,\"tid\":%d,\"args\":{\"records_"
                   "dropped\":%lld}}",
                   rank, tid, static_cast<long long>(k.buffer->dropped));
    std::fprintf(f,
                 ",\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%d,\"tid\":%d,\"args\":{\"sort_index\":%d}}",
                 rank, tid, tid);
    auto instant = [&](const trace_record& r, const char* name) {
      std::fprintf(f, ",\n{\"ph\":\"i\",\"s\":\"t\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f,\"args\":{",
                   name, rank, tid, us(r.t0_ns));
    };
    for (const trace_record& r : k.buffer->records) {
      switch (r.type) {
        case trace_type::span:
          if (r.t1_ns <= r.t0_ns) break;
          std::fprintf(f, ",\n{\"ph\":\"X\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f}",
                       span_name(r.what), rank, tid, us(r.t0_ns), us(r.t1_ns) - us(r.t0_ns));
          break;
        case trace_type::give:
          std::fprintf(f,
                       ",\n{\"ph\":\"s\",\"name\":\"piece\",\"cat\":\"steal\",\"id\":%llu,\"pid\":%d,\"tid\":%d,"
                       "\"ts\":%.3f,\"args\":{",
                       static_cast<unsigned long long>(r.id), rank, tid, us(r.t0_ns));
          put_party(f, "to", r.a);
          std::fprintf(f, ",\"depth\":%lld,\"size\":%lld}}", static_cast<long long>(r.b),
                       static_cast<long long>(r.c));
          break;
        case trace_type::start:
          std::fprintf(f,
                       ",\n{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"piece\",\"cat\":\"steal\",\"id\":%llu,\"pid\":%d,"
                       "\"tid\":%d,\"ts\":%.3f,\"args\":{",
                       static_cast<unsigned long long>(r.id), rank, tid, us(r.t0_ns));
          put_party(f, "from", r.a);
          if (r.b >= 0) std::fprintf(f, ",\"latency_us\":%.3f", static_cast<double>(r.b) / 1000.0);
          std::fprintf(f, "}}");
          break;
        case trace_type::request:
        case trace_type::refused:
          instant(r, r.type == trace_type::request ? "request" : "refused");
          std::fprintf(f, "\"victim\":%d%s}}", r.a, r.b ? ",\"steal_back\":true" : "");
          break;
        case trace_type::incumbent:
          instant(r, "incumbent");
          std::fprintf(f, "\"incumbent\":%llu", static_cast<unsigned long long>(r.id));
          if (r.b) {
            double v;
            std::memcpy(&v, &r.c, sizeof v);
            std::fprintf(f, ",\"value\":%.17g", v);
          }
          std::fprintf(f, "}}");
          break;
        case trace_type::cancel:
          instant(r, "cancel");
          std::fprintf(f, "}}");
          break;
        case trace_type::stop:
          instant(r, "stop");
          std::fprintf(f, "\"pieces\":%lld}}", static_cast<long long>(r.b));
          break;
        case trace_type::suspend:
          instant(r, "suspend");
          std::fprintf(f, "\"fiber\":%d,\"at\":\"%s\"}}", r.a,
                       r.b == 0 ? "join" : r.b == 1 ? "poll" : "idle");
          break;
        case trace_type::resume:
          instant(r, "resume");
          std::fprintf(f, "\"fiber\":%d}}", r.a);
          break;
        case trace_type::unwind:
          instant(r, "unwind");
          std::fprintf(f, "}}");
          break;
        case trace_type::rebuild:
          instant(r, "rebuild");
          std::fprintf(f, "\"frames\":%lld}}", static_cast<long long>(r.b));
          break;
        case trace_type::send:
        case trace_type::recv:
          instant(r, r.type == trace_type::send ? "send" : "recv");
          std::fprintf(f, "\"%s\":%d,\"messages\":%lld,\"bytes\":%lld}}", r.type == trace_type::send ? "to" : "from",
                       r.a, static_cast<long long>(r.b), static_cast<long long>(r.c));
          break;
        case trace_type::ask:
          instant(r, "ask");
          std::fprintf(f, "\"to\":%d%s}}", r.a, r.b ? ",\"shared\":true" : "");
          break;
        case trace_type::denied:
          instant(r, "denied");
          std::fprintf(f, "\"by\":%d}}", r.a);
          break;
        case trace_type::arrived:
          instant(r, "work arrived");
          std::fprintf(f, "\"from\":%d,\"piece\":%llu}}", r.a, static_cast<unsigned long long>(r.id));
          break;
        case trace_type::improved:
          instant(r, "incumbent arrived");
          std::fprintf(f, "\"from\":%d,\"incumbent\":%llu}}", r.a, static_cast<unsigned long long>(r.id));
          break;
      }
    }
  }
  std::fprintf(f, "\n]}\n");
  if (std::fclose(f) != 0) return "tascell: cannot write the trace TASCELL_TRACE=" + path + ": " + std::strerror(errno);
  return {};
}

}  // namespace tascell::detail
