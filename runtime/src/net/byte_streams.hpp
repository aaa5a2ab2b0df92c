// Streams over bytes that are already where they belong, for the cereal
// archives that pack a piece's inputs and a piece's outputs: `string_sink`
// appends straight to a message being written, and `view_source` reads
// straight from the bytes received. std::ostringstream and
// std::istringstream cost a piece of a few megabytes three to four extra
// copies into fresh memory (the stream's growing buffer, str(), the
// message), and on this machine every fresh page costs a fault: a 2 MB
// piece took 4-5 ms to give (docs/decisions.md, "A piece's bytes are
// packed where they are sent").
#pragma once

#include <cstddef>
#include <limits>
#include <streambuf>
#include <string>
#include <string_view>

namespace tascell::detail::net {

// Appends what is written to `out`, as long as `out` stays within `limit`
// bytes: a write past it writes nothing and fails, so the archive throws
// (a piece that cannot fit a mailbox stops packing at the mailbox's size).
class string_sink final : public std::streambuf {
 public:
  explicit string_sink(std::string& out, std::size_t limit = std::numeric_limits<std::size_t>::max())
      : out_(out), limit_(limit) {}

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    auto k = static_cast<std::size_t>(n);
    if (k > limit_ || out_.size() > limit_ - k) return 0;
    out_.append(s, k);
    return n;
  }
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    if (out_.size() >= limit_) return traits_type::eof();
    out_.push_back(traits_type::to_char_type(c));
    return c;
  }

 private:
  std::string& out_;
  std::size_t limit_;
};

// Reads `bytes` in place; they must outlive the stream.
class view_source final : public std::streambuf {
 public:
  explicit view_source(std::string_view bytes) {
    char* b = const_cast<char*>(bytes.data());  // only read: the get area needs char*
    setg(b, b, b + bytes.size());
  }
};

}  // namespace tascell::detail::net
