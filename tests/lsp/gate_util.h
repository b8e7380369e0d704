#pragma once
// A gate a test opens to let a parked worker go on. Shared rather than copied per file so that the unity build,
// which compiles several test files as one translation unit, sees one definition.
#include <condition_variable>
#include <mutex>

namespace nsys::testing {

class Gate {
 public:
  void Open() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  void Wait() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [this] { return open_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

}  // namespace nsys::testing
