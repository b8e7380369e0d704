#pragma once
// Cooperative cancellation and progress reporting for long engine work. No JSON-RPC here:
// the LSP layer wires $/cancelRequest to a CancelToken and $/progress to a ProgressSink.
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace nsys {

class CancelToken {
 public:
  CancelToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
  void cancel() const { flag_->store(true, std::memory_order_relaxed); }
  bool cancelled() const { return flag_->load(std::memory_order_relaxed); }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;  // shared: copies observe the same cancellation
};

// Checks a token by work done rather than by rows visited: a loop adds the steps each row cost (one, or the depth of
// the ranges it walked) and asks the token once per `every` steps. A row whose cost grows with hostile input (100,000
// nested NVTX ranges) can then no longer hide a minute between two checks.
class WorkMeter {
 public:
  explicit WorkMeter(const CancelToken& cancel, size_t every = size_t{1} << 16) : cancel_(cancel), every_(every) {}
  // Counts work without looking at the token (the next Add does, when the count has passed the mark).
  void Count(size_t steps) { done_ += steps; }
  // Counts work and, once `every` steps have passed since the last look, looks at the token: false once cancelled.
  [[nodiscard]] bool Add(size_t steps) {
    done_ += steps;
    if (done_ < next_check_) return true;
    next_check_ = done_ + every_;
    return !cancel_.cancelled();
  }
  size_t done() const { return done_; }

 private:
  const CancelToken& cancel_;
  size_t every_;
  size_t done_ = 0;
  size_t next_check_ = 0;
};

// percent in [0, 100]; message is short ("NVTX_EVENTS 3.2M/16.8M rows"). Called from worker threads:
// implementations must be thread-safe and cheap (the LSP layer rate-limits what it sends).
using ProgressSink = std::function<void(double percent, const std::string& message)>;

}  // namespace nsys
