#pragma once
// Cooperative cancellation and progress reporting for long engine work. No JSON-RPC here:
// the LSP layer wires $/cancelRequest to a CancelToken and $/progress to a ProgressSink.
#include <atomic>
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

// percent in [0, 100]; message is short ("NVTX_EVENTS 3.2M/16.8M rows"). Called from worker threads:
// implementations must be thread-safe and cheap (the LSP layer rate-limits what it sends).
using ProgressSink = std::function<void(double percent, const std::string& message)>;

}  // namespace nsys
