// Pointers to functions between processes (function_address.hpp): they
// travel as the loaded object holding the function and the offset in it,
// and come back as the same function; a place this process cannot resolve
// fails with an error naming the object.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

#include <tascell/tascell.hpp>

namespace {

using fn = long (*)(long);
using tascell::detail::traits_of;

long twice(long x) { return 2 * x; }
long square(long x) { return x * x; }
long data_word = 42;

std::string save(fn f) {
  std::ostringstream os;
  {
    tascell::out_archive a(os);
    tascell::detail::save_value(a, f);
  }
  return os.str();
}

fn load(const std::string& bytes) {
  std::istringstream is(bytes);
  tascell::in_archive a(is);
  fn f = &square;
  tascell::detail::load_value(a, f);
  return f;
}

// What save_function_address writes, made by hand.
std::string place_bytes(std::uint8_t tag, const std::string& object, std::uint64_t offset) {
  std::ostringstream os;
  {
    tascell::out_archive a(os);
    a(tag, object, offset);
  }
  return os.str();
}

std::string error_of(const std::string& bytes) {
  try {
    load(bytes);
  } catch (const cereal::Exception& e) {
    return e.what();
  }
  return "no error";
}

bool contains_address(const std::string& bytes, fn f) {
  auto a = reinterpret_cast<std::uintptr_t>(f);
  return bytes.find(std::string(reinterpret_cast<const char*>(&a), sizeof a)) != std::string::npos;
}

static_assert(tascell::detail::portable_v<fn>);
static_assert(!traits_of<tascell::in_t<fn>>::local_only);
static_assert(!traits_of<tascell::out_t<fn>>::local_only);
static_assert(!traits_of<tascell::copy_t<const fn>>::local_only);
static_assert(!tascell::detail::bytes_portable_v<fn>);

TEST(FunctionAddress, RoundTripsInTheExecutable) {
  auto place = tascell::detail::place_of_function(reinterpret_cast<std::uintptr_t>(&twice));
  EXPECT_EQ(place.object, "");  // the executable
  fn back = load(save(&twice));
  EXPECT_EQ(back, &twice);
  EXPECT_EQ(back(21), 42);
}

TEST(FunctionAddress, RoundTripsInALibrary) {
  fn f = &::labs;
  auto place = tascell::detail::place_of_function(reinterpret_cast<std::uintptr_t>(f));
  EXPECT_NE(place.object.find("libc"), std::string::npos) << place.object;
  std::string bytes = save(f);
  EXPECT_FALSE(contains_address(bytes, f));  // its place, not its address
  fn back = load(bytes);
  EXPECT_EQ(back, f);
  EXPECT_EQ(back(-5), 5);
}

TEST(FunctionAddress, NullTravelsAsNull) { EXPECT_EQ(load(save(nullptr)), nullptr); }

TEST(FunctionAddress, BogusPlacesFailClearly) {
  std::string e = error_of(place_bytes(1, "/no/such/libtascell_nothing.so", 16));
  EXPECT_NE(e.find("/no/such/libtascell_nothing.so"), std::string::npos) << e;
  EXPECT_NE(e.find("has not loaded"), std::string::npos) << e;
  e = error_of(place_bytes(1, "", std::uint64_t{1} << 60));
  EXPECT_NE(e.find("executable"), std::string::npos) << e;
  EXPECT_NE(e.find("outside its code"), std::string::npos) << e;
  e = error_of(place_bytes(7, "", 0));
  EXPECT_NE(e.find("malformed"), std::string::npos) << e;
}

TEST(FunctionAddress, NotAFunctionCannotBeSent) {
  fn f = reinterpret_cast<fn>(reinterpret_cast<std::uintptr_t>(&data_word));
  EXPECT_THROW(save(f), cereal::Exception);
}

TEST(FunctionAddress, ClausesCarryTheFunction) {
  // in(f)
  using in_tr = traits_of<tascell::in_t<fn>>;
  fn f = &::labs;
  in_tr::stored here{};
  in_tr::put(in_tr::make_ref(tascell::in(f)), here);
  std::ostringstream os;
  {
    tascell::out_archive a(os);
    in_tr::pack_in(a, here);
  }
  EXPECT_FALSE(contains_address(os.str(), f));
  in_tr::stored there{};
  {
    std::istringstream is(os.str());
    tascell::in_archive a(is);
    in_tr::unpack_in(a, there);
  }
  EXPECT_EQ(in_tr::param(there), f);

  // copy(table, ...): element by element, each as a place.
  const fn table[3] = {&twice, &::labs, nullptr};
  using copy_tr = traits_of<tascell::copy_t<const fn>>;
  copy_tr::stored cs{};
  copy_tr::put(copy_tr::make_ref(tascell::copy(table, 0, 3)), cs);
  std::ostringstream cos;
  {
    tascell::out_archive a(cos);
    copy_tr::pack_in(a, cs);
  }
  EXPECT_FALSE(contains_address(cos.str(), &::labs));
  copy_tr::stored ct{};
  {
    std::istringstream is(cos.str());
    tascell::in_archive a(is);
    copy_tr::unpack_in(a, ct);
  }
  const fn* got = copy_tr::param(ct);
  EXPECT_EQ(got[0], &twice);
  EXPECT_EQ(got[1], &::labs);
  EXPECT_EQ(got[2], nullptr);
}

}  // namespace
