// The encoding of messages between processes.
//
// One MPI message (tag `mpi_tag`) carries a batch: a header (magic, the
// sender's load) and then messages back to back. A message starts with its
// type; its fields follow in a fixed order (byte strings with their length), integers little-endian
// as the machine stores them (every process runs the same binary on the
// same kind of machine: checked at start-up).
//
// Reading never trusts the bytes: every read is bounds-checked and throws
// malformed_message naming what was wrong.
#pragma once

#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tascell::detail::net {

inline constexpr int mpi_tag = 7301;
inline constexpr std::uint32_t batch_magic = 0x7A5C3E11u;
// ... of a batch that did not ring the receiver's bell (every message in it
// was begun with outbox::begin_quiet).
inline constexpr std::uint32_t quiet_batch_magic = 0x7A5C3E12u;
// Whether a batch rings its receiver's bell (this machine's, or the one
// between machines): every batch but a quiet one.
inline bool batch_rings(std::string_view batch) {
  std::uint32_t magic = batch_magic;
  if (batch.size() >= sizeof magic) std::memcpy(&magic, batch.data(), sizeof magic);
  return magic != quiet_batch_magic;
}

enum class msg : std::uint8_t {
  request = 1,     // root number, seq, wanted handle (0: any work)
  work,            // seq, kind id, handle, lo, hi, inputs
  refuse,          // seq
  result,          // handle, flags, outputs, error
  stop,            // handle: the piece must stop
  cancel_up,       // handle: cancel() was called inside the piece
  root_done,       // root number, ok, result or error
  root_ack,        // root number, incumbents
  root_finish,     // root number, incumbents
  incumbent,       // root number, id, hops so far, value bytes
  board,           // root number, board id, key, stamp, value bytes
  stats,           // root number, figures (TASCELL_STATS, to rank 0)
  table_made,      // table id, description (table_protocol.hpp)
  updates,         // root calls begun, a batch of table updates
  fence,           // root calls begun, token: answer once everything before it is applied
  fence_ack,       // token
  table_read,      // root calls begun, token, table id, first and end position
  table_entries,   // token, the entries' bytes
  block_waits,     // (no fields) the receiver's block of a table loop waits at the sender
  last = block_waits
};

struct malformed_message : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class writer {
 public:
  explicit writer(std::string& out) : out_(out) {}
  template <class T>
  void put(T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    out_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void bytes(std::string_view b) {
    put<std::uint64_t>(b.size());
    out_.append(b.data(), b.size());
  }
  // A byte string written in place: open_bytes() leaves room for its
  // length, the caller appends to out(), close_bytes(at) writes the length.
  std::size_t open_bytes() {
    put<std::uint64_t>(0);
    return out_.size();
  }
  std::uint64_t close_bytes(std::size_t at) {
    std::uint64_t n = out_.size() - at;
    std::memcpy(out_.data() + at - sizeof n, &n, sizeof n);
    return n;
  }
  std::string& out() { return out_; }

 private:
  std::string& out_;
};

class reader {
 public:
  explicit reader(std::string_view in) : in_(in) {}
  template <class T>
  T get(const char* what) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (in_.size() - pos_ < sizeof(T))
      throw malformed_message(std::string("truncated message: no room for ") + what);
    T v;
    std::memcpy(&v, in_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return v;
  }
  std::string_view bytes(const char* what) {
    auto n = get<std::uint64_t>(what);
    if (in_.size() - pos_ < n)
      throw malformed_message(std::string("truncated message: ") + what + " cut short");
    std::string_view b = in_.substr(pos_, n);
    pos_ += n;
    return b;
  }
  // The next n bytes, as they are.
  std::string_view raw(std::uint64_t n, const char* what) {
    if (in_.size() - pos_ < n)
      throw malformed_message(std::string("truncated message: ") + what + " cut short");
    std::string_view b = in_.substr(pos_, n);
    pos_ += n;
    return b;
  }
  bool done() const { return pos_ == in_.size(); }
  std::size_t left() const { return in_.size() - pos_; }

 private:
  std::string_view in_;
  std::size_t pos_ = 0;
};

// Runs f; a malformed message from rank `from` (bad framing, values that
// cannot be decoded, a length beyond memory) ends the run through
// fatal(cause), naming the rank.
template <class F, class Fatal>
void guard_message(int from, F&& f, Fatal&& fatal) {
  auto say = [&](const std::string& what) { fatal("malformed message from rank " + std::to_string(from) + ": " + what); };
  try {
    f();
  } catch (const malformed_message& e) {
    say(e.what());
  } catch (const std::bad_alloc&) {
    say("a length beyond memory");
  } catch (const std::length_error&) {
    say("a length beyond memory");
  } catch (const std::runtime_error& e) {  // cereal::Exception, among others
    say(std::string("cannot decode its values: ") + e.what());
  }
}

}  // namespace tascell::detail::net
