#pragma once
// Time windows and device/process filters, shared by every query.
//
// A window is given either on the capture clock in ns, or in seconds relative to the profile start
// (ProfileInfo::start_ns). Resolved windows are always absolute ns, half-open [begin, end), and carry a
// description that says which clock the user used, so outputs can state it.
#include <cstdint>
#include <optional>
#include <string>

#include "nsys/engine/model.h"
#include "nsys/support/expected.h"

namespace nsys::engine {

struct WindowSpec {
  enum class Clock { kCaptureNs, kSecondsFromStart };
  Clock clock = Clock::kSecondsFromStart;
  std::optional<double> start;  // absent = profile start
  std::optional<double> end;    // absent = profile end
};

struct ResolvedWindow {
  Ns begin = 0;
  Ns end = 0;               // exclusive
  bool whole = true;        // no window was asked for
  std::string description;  // "whole profile" or "0.250 s to 0.500 s from profile start (capture clock 155580... ns)"
};

// Errors: end <= start, or a window that lies entirely outside [start_ns, end_ns] (kInvalidArgument, naming the
// profile's range).
Expected<ResolvedWindow> ResolveWindow(const ProfileInfo& info, const WindowSpec& spec);

struct Filter {
  ResolvedWindow window;
  std::optional<int32_t> device;
  std::optional<uint32_t> pid;

  // An event belongs to the window when it starts inside it: [begin, end).
  bool InWindow(Ns start) const { return start >= window.begin && start < window.end; }
  bool Accepts(Ns start, int32_t dev, uint32_t p) const {
    return InWindow(start) && (!device || *device == dev) && (!pid || *pid == p);
  }
};

// Row range [first, last) of a table sorted by start whose starts lie in [begin, end).
template <typename Table>
std::pair<size_t, size_t> StartRange(const Table& t, Ns begin, Ns end);

}  // namespace nsys::engine

#include "nsys/engine/window_inl.h"
