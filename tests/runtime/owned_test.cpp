// owned(a, c, d) (owned.hpp) between processes: a piece carries the values
// of the elements it owns to the thief (its body may read them first),
// except with assigned_only (the body only assigns them), and its result
// brings them back. The other process is simulated with the clause's
// pack/unpack functions.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <tascell/tascell.hpp>

#include "range_travel.hpp"

namespace {

using tascell::detail::iteration_span;
using tascell::detail::traits_of;

template <class C>
std::size_t round_trip(const C& clause, const iteration_span& r, std::vector<double>& seen_by_thief,
                       double write) {
  using tr = traits_of<C>;
  auto here = tascell_test::stored_of(clause);
  std::string sent = tascell_test::pack_range<C>(here, r);
  auto there = tascell_test::unpack_range<C>(sent, r);
  double* p = tr::param(there);
  seen_by_thief.clear();
  for (std::int64_t k = r.lo; k < r.hi; ++k) {
    seen_by_thief.push_back(p[r.value(k)]);
    p[r.value(k)] = write;
  }
  std::ostringstream out;
  {
    tascell::out_archive a(out);
    tr::pack_out_range(a, there, r);
  }
  std::istringstream os(out.str());
  tascell::in_archive a(os);
  tr::unpack_out_range(a, here, r);
  return sent.size();
}

TEST(Owned, AThiefGetsTheValuesUnlessTheBodyOnlyAssignsThem) {
  std::vector<double> v(1000, 2.5);
  iteration_span r{0, 1, 100, 300};
  std::vector<double> seen;
  std::size_t carried = round_trip(tascell::owned(v, 1, 0), r, seen, 7.0);
  EXPECT_EQ(seen, std::vector<double>(200, 2.5));
  EXPECT_GE(carried, 200 * sizeof(double));
  std::size_t assigned = round_trip(tascell::owned(v, 1, 0, tascell::assigned_only), r, seen, 9.0);
  EXPECT_LT(assigned, 64u);  // the clause's numbers only
  for (std::size_t k = 0; k < v.size(); ++k)
    ASSERT_EQ(v[k], k >= 100 && k < 300 ? 9.0 : 2.5) << k;  // the results came back either way
}

}  // namespace
