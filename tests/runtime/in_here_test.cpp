// in_here(x) (in_here.hpp): in(x) of a type that holds an address. In one
// process the piece sees the value itself; between processes it travels
// only through its type's serialize, and without one its work stays in its
// process. Its bytes never travel.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>

#include <tascell/tascell.hpp>

namespace {

using tascell::ctx;
using tascell::detail::traits_of;

// What the translator marks: a pointer member, nothing to say what it means.
struct bare {
  const long* p;
  long n;
};

// The same with a serialize that sends what the pointer stands for here:
// only the length (the receiver's p is its own business).
struct described {
  const long* p = nullptr;
  long n = 0;
  template <class A>
  void serialize(A& a) {
    a(n);
  }
};

static_assert(std::is_trivially_copyable_v<bare> && std::is_trivially_copyable_v<described>);
// in() would send bare's bytes: in_here keeps its work here.
static_assert(!traits_of<tascell::in_t<bare>>::local_only);
static_assert(traits_of<tascell::in_here_t<bare>>::local_only);
static_assert(!traits_of<tascell::in_here_t<described>>::local_only);
// As cheap as in() at the spawn point.
static_assert(std::is_same_v<traits_of<tascell::in_here_t<bare>>::ref, bare>);

TEST(InHere, TravelsOnlyThroughItsSerialize) {
  long data[3] = {1, 2, 3};
  described d{data, 3};
  using tr = traits_of<tascell::in_here_t<described>>;
  tr::stored here{};
  tr::put(tr::make_ref(tascell::in_here(d)), here);
  EXPECT_EQ(here.p, data);  // in one process: the value itself
  std::ostringstream os;
  {
    tascell::out_archive a(os);
    tr::pack_in(a, here);
  }
  EXPECT_EQ(os.str().size(), sizeof(long));  // the length, not the pointer
  tr::stored there{};
  std::istringstream is(os.str());
  {
    tascell::in_archive a(is);
    tr::unpack_in(a, there);
  }
  EXPECT_EQ(there.n, 3);
  EXPECT_EQ(there.p, nullptr);  // not the sender's address
}

TEST(InHere, ALambdaCapturingByReferenceStaysHere) {
  long x = 1;
  auto f = [&x] { return x; };
  static_assert(std::is_trivially_copyable_v<decltype(f)>);
  static_assert(traits_of<tascell::in_here_t<decltype(f)>>::local_only);
  auto clause = tascell::in_here(f);
  EXPECT_EQ(traits_of<decltype(clause)>::param(clause)(), 1);
}

TEST(InHere, TheValueItselfInOneProcess) {
  long data[2] = {5, 6};
  bare b{data, 2};
  auto clause = tascell::in_here(b);
  EXPECT_EQ(&traits_of<decltype(clause)>::param(clause), &b);
}

long sum_bare(ctx c, bare b) {
  if (b.n <= 16) {
    long s = 0;
    for (long i = 0; i < b.n; ++i) s += b.p[i];
    return s;
  }
  bare left{b.p, b.n / 2}, right{b.p + b.n / 2, b.n - b.n / 2};
  long x = 0, y = 0;
  tascell::dowork(c, [&](ctx c) { x = sum_bare(c, left); },
                  tascell::part(tascell::in_here(right), tascell::out(y),
                                [](ctx c, const bare& r, long& y) { y = sum_bare(c, r); }));
  return x + y;
}

TEST(InHere, PiecesInOneProcess) {
  std::vector<long> v(100000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<long>(i % 97);
  long want = 0;
  for (long x : v) want += x;
  EXPECT_EQ(tascell::root(sum_bare, bare{v.data(), static_cast<long>(v.size())}), want);
}

}  // namespace
