#pragma once
// What an accept loop does when accept() fails. Out of file descriptors (EMFILE, ENFILE) or memory, the pending
// connection stays in the backlog and the listener stays readable: retrying at once spins at 100% CPU. Every
// failure therefore waits before the next accept, 10 ms doubling to 1 s, and logs one line per episode (the first
// failure) and one when accepting works again, instead of a line per failure.
#include <fmt/format.h>

#include <algorithm>
#include <asio.hpp>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>

#include "nsys/support/log.h"

namespace nsys::transport {

class AcceptBackoff {
 public:
  static constexpr std::chrono::milliseconds kFirstDelay{10};
  static constexpr std::chrono::milliseconds kMaxDelay{1000};

  explicit AcceptBackoff(std::string listener) : listener_(std::move(listener)) {}

  // After a failed accept: how long to wait before the next one.
  std::chrono::milliseconds OnFailure(const asio::error_code& ec) {
    ++failures_;
    if (delay_.count() == 0) {
      delay_ = kFirstDelay;
      support::LogWarn(fmt::format("{}: accept failed: {}{}; backing off ({} ms, up to {} ms) until it works again",
                                   listener_, ec.message(), OutOfDescriptors(ec) ? " (out of file descriptors)" : "",
                                   delay_.count(), kMaxDelay.count()));
    } else {
      delay_ = std::min(delay_ * 2, kMaxDelay);
    }
    return delay_;
  }

  // After a successful accept: ends an episode.
  void OnSuccess() {
    if (failures_ == 0) return;
    support::LogInfo(fmt::format("{}: accepting again after {} failed accept(s)", listener_, failures_));
    failures_ = 0;
    delay_ = std::chrono::milliseconds{0};
  }

  static bool OutOfDescriptors(const asio::error_code& ec) {
    return ec == asio::error::no_descriptors || ec.value() == ENFILE;
  }

 private:
  std::string listener_;
  std::chrono::milliseconds delay_{0};
  uint64_t failures_ = 0;
};

}  // namespace nsys::transport
