// The outbox of the message thread (outbox.hpp): messages written into one
// batch per destination, each batch headed by this process's load; at the
// end of a turn every batch goes to the send queue and out through the
// transport, as many sends in flight as the transport takes (one at a time
// in the seed's loop, which also sends each message alone). A batch of only
// quiet messages says so in its header and rings no bell.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "doorbell.hpp"
#include "frame.hpp"
#include "message_trace.hpp"
#include "outbox.hpp"
#include "transport.hpp"

namespace tascell::detail::net {

class host;

class batches final : public outbox {
 public:
  // `seed_loop`: TASCELL_MSG_LOOP=seed. The load in each header counts the
  // busy workers of `h` while `attached` holds.
  batches(bool seed_loop, host& h, const std::atomic<bool>& attached, doorbell& bell, message_trace& trace)
      : seed_loop_(seed_loop), host_(h), attached_(attached), bell_(bell), trace_(trace) {}
  // The run's processes are known, and how batches travel.
  void place(int size, transport* link);

  std::string& begin(int to, msg type) override;
  std::string& begin_quiet(int to, msg type) override;
  // Every batch begun goes to the send queue; then what may be sent is.
  // True when it did something.
  bool flush();
  // Sends `buf` to `to` now, ringing `to`'s bell unless the batch is quiet.
  void send(int to, std::string buf);
  // A batch is begun and not yet queued.
  bool begun() const;
  // Batches wait in the send queue.
  bool queued() const { return !to_send_.empty(); }

  std::int64_t bytes_sent() const { return bytes_sent_.load(std::memory_order_relaxed); }
  std::int64_t messages_sent() const { return messages_sent_.load(std::memory_order_relaxed); }
  std::int64_t batches_sent() const { return batches_sent_.load(std::memory_order_relaxed); }

 private:
  std::string& start_message(int to, msg type);  // begin and begin_quiet: the batch, the type written
  void queue_batch(int to);                      // out_[to] is complete: to the send queue
  int load_here() const;

  bool seed_loop_;
  host& host_;
  const std::atomic<bool>& attached_;
  doorbell& bell_;
  message_trace& trace_;
  transport* link_ = nullptr;
  int size_ = 0;
  std::vector<std::string> out_;                      // batches being built, per destination
  std::vector<char> loud_;                            // out_[to] holds a message begun with begin()
  std::vector<std::int64_t> out_count_;               // messages in out_[to]
  std::deque<std::pair<int, std::string>> to_send_;   // batches ready to go, in order
  std::atomic<std::int64_t> bytes_sent_{0};
  std::atomic<std::int64_t> messages_sent_{0};
  std::atomic<std::int64_t> batches_sent_{0};
};

}  // namespace tascell::detail::net
