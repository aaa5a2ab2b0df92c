// Problem parameters for Grav(n): the total gravitational force on one point
// from (2n+1)^3 unit masses at the integer points of [-n, n]^3 (G = 1; a mass
// that coincides with the point is skipped). Shared by every variant (seq,
// omp, tbb, tascell). Keep this header free of any parallel library.
//
// The printed answer is |F| in millionths (rounded); every variant checks its
// force vector against the sequential sum, computed in-process, with a
// relative error below 1e-9 (the variants add in different orders).
#pragma once

#include <cmath>
#include <cstdio>
#include <optional>

namespace grav_config {

inline constexpr long default_n = 250;
inline constexpr long min_n = 1;
inline constexpr long max_n = 2000;

struct vec3 {
  double x, y, z;
};

// The point: off the grid and off centre, so the force is far from zero.
inline vec3 point(long n) {
  return {0.5 * static_cast<double>(n) + 0.3, 0.25 * static_cast<double>(n) + 0.2, 0.1};
}

// The pull of the masses (i, j, -n..n) (one column of the grid) on p, added
// to f. The innermost loop of every variant.
inline void add_column(long i, long j, long n, const vec3& p, double& fx, double& fy, double& fz) {
  double dx = static_cast<double>(i) - p.x, dy = static_cast<double>(j) - p.y;
  for (long k = -n; k <= n; ++k) {
    double dz = static_cast<double>(k) - p.z;
    double r2 = dx * dx + dy * dy + dz * dz;
    if (r2 == 0) continue;  // the point itself
    double f = 1.0 / (r2 * std::sqrt(r2));
    fx += f * dx;
    fy += f * dy;
    fz += f * dz;
  }
}

// The sequential sum (grav-seq's loops), for the check.
inline vec3 force_serial(long n) {
  vec3 p = point(n);
  double fx = 0, fy = 0, fz = 0;
  for (long i = -n; i <= n; ++i)
    for (long j = -n; j <= n; ++j) add_column(i, j, n, p, fx, fy, fz);
  return {fx, fy, fz};
}

inline double norm(const vec3& v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }

// The printed answer: |F| in millionths.
inline long as_result(const vec3& f) { return std::lround(norm(f) * 1e6); }

// f against the sequential sum: relative error (Euclidean) below 1e-9.
inline bool check(const char* prog, const vec3& f, const vec3& ref) {
  vec3 d{f.x - ref.x, f.y - ref.y, f.z - ref.z};
  double rel = norm(d) / norm(ref);
  if (rel < 1e-9) return true;
  std::fprintf(stderr, "%s: force (%.17g, %.17g, %.17g) is off the sequential sum (%.17g, %.17g, %.17g): relative error %g\n",
               prog, f.x, f.y, f.z, ref.x, ref.y, ref.z, rel);
  return false;
}

struct KnownAnswer {
  long n;
  long answer;
};

// Known answers (as_result of the sequential sum, computed with grav-seq),
// checked by the programs and read by bench/run_matrix.py.
inline constexpr KnownAnswer known_answers[] = {
    {10, 26848477},
    {20, 54508675},
    {40, 102069654},
    {100, 244812493},
    {200, 482739806},
    {250, 597663356},
    {300, 720671119},
};

inline constexpr std::optional<long> known_answer(long n) {
  for (const auto& k : known_answers)
    if (k.n == n) return k.answer;
  return std::nullopt;
}

}  // namespace grav_config
