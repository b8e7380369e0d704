#pragma once
// The clocks a time window can be given on, and their one set of names ("relative_s", "capture_ns"), parsed here
// for every front end (skill arguments, trace options, the command line).
#include <optional>
#include <string_view>

namespace nsys {

enum class WindowClock {
  kRelativeSeconds,  // "relative_s": seconds from the profile start (the default)
  kCaptureNs,        // "capture_ns": the export's absolute nanosecond timestamps
};

inline std::string_view WindowClockName(WindowClock clock) {
  return clock == WindowClock::kCaptureNs ? "capture_ns" : "relative_s";
}

// nullopt for any other text.
inline std::optional<WindowClock> ParseWindowClock(std::string_view name) {
  for (WindowClock clock : {WindowClock::kRelativeSeconds, WindowClock::kCaptureNs}) {
    if (name == WindowClockName(clock)) return clock;
  }
  return std::nullopt;
}

}  // namespace nsys
