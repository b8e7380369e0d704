#pragma once
// NSYS_ENGINE_TRACE=1 prints the engine's step timings on stderr (used by scripts/bench). Private.
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>

namespace nsys::engine {

inline bool StepTimingOn() {
  static const bool on = std::getenv("NSYS_ENGINE_TRACE") != nullptr;
  return on;
}

class StepTimer {
 public:
  void Lap(const char* what) {
    if (!StepTimingOn()) return;
    const auto now = std::chrono::steady_clock::now();
    fmt::print(stderr, "[engine] {} {:.1f} ms\n", what, std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace nsys::engine
