// in() of a view (views.hpp): in one process the piece gets the view as it
// is, over the same elements; a piece that goes to another process carries
// the elements and holds a view of the same type over its own copy. Here the
// other process is simulated with the clause's pack_in and unpack_in.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <tascell/tascell.hpp>

namespace {

using tascell::ctx;
using tascell::detail::traits_of;

// The stored values of a piece of `clause` as a thief in another process
// receives them.
template <class C>
typename traits_of<C>::stored travel(const C& clause) {
  using tr = traits_of<C>;
  typename tr::stored here{};
  tr::put(tr::make_ref(clause), here);
  std::ostringstream os;
  {
    tascell::out_archive a(os);
    tr::pack_in(a, here);
  }
  typename tr::stored there{};
  std::istringstream is(os.str());
  {
    tascell::in_archive a(is);
    tr::unpack_in(a, there);
  }
  return there;
}

// No path sends a view as bytes.
static_assert(!tascell::detail::portable_v<std::span<const long>>);
static_assert(!tascell::detail::portable_v<std::span<int, 4>>);
static_assert(!tascell::detail::portable_v<std::string_view>);
static_assert(!tascell::detail::portable_v<std::u16string_view>);
static_assert(!tascell::detail::portable_v<std::array<std::span<int>, 2>>);
static_assert(traits_of<tascell::out_t<std::span<int>>>::local_only);
static_assert(traits_of<tascell::reduce_t<tascell::op::plus, std::string_view>>::local_only);
// in() of a view travels when its elements can, and is as cheap as in() of
// a 16-byte value at the spawn point.
static_assert(!traits_of<tascell::in_t<std::span<const long>>>::local_only);
static_assert(!traits_of<tascell::in_t<std::span<std::string>>>::local_only);
static_assert(!traits_of<tascell::in_t<std::string_view>>::local_only);
static_assert(traits_of<tascell::in_t<std::span<const int* const>>>::local_only);
static_assert(traits_of<tascell::in_t<std::span<const std::string_view>>>::local_only);
static_assert(sizeof(traits_of<tascell::in_t<std::span<const long>>>::ref) == 16);

TEST(Views, SpanTravelsAsItsElements) {
  auto v = std::make_unique<std::vector<long>>(1000);
  std::iota(v->begin(), v->end(), 7);
  std::span<const long> sp(*v);
  using tr = traits_of<tascell::in_t<std::span<const long>>>;
  auto there = travel(tascell::in(sp));
  std::span<const long> got = tr::param(there);
  EXPECT_NE(got.data(), v->data());
  // The piece's own copy: the original may go (AddressSanitizer would see a
  // read of it).
  v.reset();
  ASSERT_EQ(got.size(), 1000u);
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], static_cast<long>(i) + 7);
  // A piece given away again in the thief's process shows the same copy.
  tr::stored next{};
  tr::put(tr::ref_of(there), next);
  EXPECT_EQ(tr::param(next).data(), got.data());
}

TEST(Views, SpanInOneProcessIsTheView) {
  std::vector<long> v(100, 3);
  std::span<const long> sp(v);
  using tr = traits_of<tascell::in_t<std::span<const long>>>;
  tr::stored s{};
  tr::put(tr::make_ref(tascell::in(sp)), s);
  EXPECT_EQ(tr::param(s).data(), v.data());
  EXPECT_EQ(tr::param(s).size(), v.size());
  EXPECT_EQ(s.copy, nullptr);
}

TEST(Views, SpansOfEveryKind) {
  std::vector<long> w{1, 2, 3};
  auto a = travel(tascell::in(std::span<long>(w)));  // not const: the thief writes its own copy
  std::span<long> ga = traits_of<tascell::in_t<std::span<long>>>::param(a);
  ASSERT_NE(ga.data(), w.data());
  ga[0] = 10;
  EXPECT_EQ(w[0], 1);
  EXPECT_EQ(std::vector<long>(ga.begin(), ga.end()), (std::vector<long>{10, 2, 3}));

  std::array<int, 4> f{4, 5, 6, 7};
  auto b = travel(tascell::in(std::span<const int, 4>(f)));
  std::span<const int, 4> gb = traits_of<tascell::in_t<std::span<const int, 4>>>::param(b);
  EXPECT_NE(gb.data(), f.data());
  EXPECT_TRUE(std::equal(gb.begin(), gb.end(), f.begin()));

  std::vector<std::string> s{"one", "a longer string than fits in place", ""};
  auto c = travel(tascell::in(std::span<const std::string>(s)));
  auto gc = traits_of<tascell::in_t<std::span<const std::string>>>::param(c);
  EXPECT_NE(gc.data(), s.data());
  EXPECT_EQ(std::vector<std::string>(gc.begin(), gc.end()), s);

  auto d = travel(tascell::in(std::span<const long>()));
  EXPECT_TRUE(traits_of<tascell::in_t<std::span<const long>>>::param(d).empty());
}

TEST(Views, StaticExtentOfTheWrongLength) {
  std::vector<int> v{1, 2, 3};
  using dyn = traits_of<tascell::in_t<std::span<const int>>>;
  dyn::stored s{};
  dyn::put(std::span<const int>(v), s);
  std::ostringstream os;
  {
    tascell::out_archive a(os);
    dyn::pack_in(a, s);
  }
  using fixed = traits_of<tascell::in_t<std::span<const int, 4>>>;
  fixed::stored t{};
  std::istringstream is(os.str());
  tascell::in_archive a(is);
  EXPECT_THROW(fixed::unpack_in(a, t), cereal::Exception);
}

TEST(Views, StringViewTravelsAsItsCharacters) {
  auto text = std::make_unique<std::string>("the middle of a string, not terminated here");
  std::string_view sv = std::string_view(*text).substr(4, 6);
  using tr = traits_of<tascell::in_t<std::string_view>>;
  auto there = travel(tascell::in(sv));
  std::string_view got = tr::param(there);
  EXPECT_NE(got.data(), sv.data());
  text.reset();
  EXPECT_EQ(got, "middle");

  std::u16string wide = u"wide characters";
  auto w = travel(tascell::in(std::u16string_view(wide)));
  std::u16string_view gw = traits_of<tascell::in_t<std::u16string_view>>::param(w);
  EXPECT_NE(gw.data(), wide.data());
  EXPECT_EQ(gw, wide);

  auto none = travel(tascell::in(std::string_view()));
  EXPECT_TRUE(tr::param(none).empty());
}

// In one process (the runtime, every worker): the pieces see the elements
// themselves, never a copy.
const long* g_begin = nullptr;
const long* g_end = nullptr;
std::atomic<long> g_foreign{0};

long sum_span(ctx c, std::span<const long> s) {
  if (s.size() <= 32) {
    if (s.data() < g_begin || s.data() + s.size() > g_end) ++g_foreign;
    return std::accumulate(s.begin(), s.end(), 0L);
  }
  std::size_t half = s.size() / 2;
  std::span<const long> right = s.subspan(half);
  long a = 0, b = 0;
  tascell::dowork(c, [&](ctx c) { a = sum_span(c, s.first(half)); },
                  tascell::part(tascell::in(right), tascell::out(b),
                                [](ctx c, const std::span<const long>& r, long& b) { b = sum_span(c, r); }));
  return a + b;
}

long count_in(ctx c, std::string_view text, char x) {
  long n = 0;
  tascell::dowork_for(c, tascell::range(0, static_cast<std::int64_t>(text.size())), tascell::in(text),
                      tascell::in(x), tascell::reduce<tascell::op::plus>(n),
                      [](ctx, std::int64_t i, const std::string_view& t, const char& x, long& n) {
                        if (t[static_cast<std::size_t>(i)] == x) ++n;
                      });
  return n;
}

TEST(Views, PiecesInOneProcessSeeTheElements) {
  std::vector<long> v(200000);
  std::iota(v.begin(), v.end(), 1);
  g_begin = v.data();
  g_end = v.data() + v.size();
  g_foreign = 0;
  long got = tascell::root(sum_span, std::span<const long>(v));
  EXPECT_EQ(got, 200000L * 200001L / 2);
  EXPECT_EQ(g_foreign.load(), 0);

  std::string text(100000, 'a');
  for (std::size_t i = 0; i < text.size(); i += 7) text[i] = 'b';
  EXPECT_EQ(tascell::root(count_in, std::string_view(text), 'b'), static_cast<long>((text.size() + 6) / 7));
}

}  // namespace
