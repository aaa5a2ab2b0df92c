// The Chrome trace event format writer (trace.hpp).
#include "trace.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <cerrno>

#include "worker.hpp"

namespace tascell::detail {

std::int64_t trace_now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

namespace {

const char* activity_name(std::uint8_t a) {
  switch (static_cast<activity>(a)) {
    case activity::work: return "work";
    case activity::idle: return "idle";
    case activity::wait: return "wait";
  }
  return "?";
}

}  // namespace

std::string write_trace(const std::string& path, int rank, const std::vector<worker_impl*>& workers) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return "tascell: cannot write the trace TASCELL_TRACE=" + path + ": " + std::strerror(errno);
  // Times in microseconds from the first record, as the format wants.
  std::int64_t origin = INT64_MAX;
  for (worker_impl* w : workers)
    for (const trace_record& r : w->trace) origin = std::min(origin, r.t0_ns);
  auto us = [&](std::int64_t ns) { return static_cast<double>(ns - origin) / 1000.0; };
  std::fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  std::fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":\"rank %d\"}}", rank,
               rank);
  for (worker_impl* w : workers) {
    std::fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"worker %d\"}}",
                 rank, w->id, w->id);
    for (const trace_record& r : w->trace) {
      switch (r.type) {
        case trace_type::span:
          if (r.t1_ns <= r.t0_ns) break;
          std::fprintf(f, ",\n{\"ph\":\"X\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f}",
                       activity_name(r.what), rank, w->id, us(r.t0_ns), us(r.t1_ns) - us(r.t0_ns));
          break;
        case trace_type::give:
          std::fprintf(f, ",\n{\"ph\":\"s\",\"name\":\"piece\",\"cat\":\"steal\",\"id\":%llu,\"pid\":%d,\"tid\":%d,\"ts\":%.3f}",
                       static_cast<unsigned long long>(r.id), rank, w->id, us(r.t0_ns));
          break;
        case trace_type::start:
          std::fprintf(f, ",\n{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"piece\",\"cat\":\"steal\",\"id\":%llu,\"pid\":%d,\"tid\":%d,\"ts\":%.3f}",
                       static_cast<unsigned long long>(r.id), rank, w->id, us(r.t0_ns));
          break;
        case trace_type::request:
        case trace_type::refused:
          std::fprintf(f, ",\n{\"ph\":\"i\",\"s\":\"t\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f,\"args\":{\"victim\":%llu}}",
                       r.type == trace_type::request ? "request" : "refused", rank, w->id, us(r.t0_ns),
                       static_cast<unsigned long long>(r.id));
          break;
      }
    }
  }
  std::fprintf(f, "\n]}\n");
  if (std::fclose(f) != 0) return "tascell: cannot write the trace TASCELL_TRACE=" + path + ": " + std::strerror(errno);
  return {};
}

}  // namespace tascell::detail
