#pragma once
// Time windows and device/process filters, shared by every query.
//
// A window is given either on the capture clock in ns, or in seconds relative to the profile start
// (ProfileInfo::start_ns). Resolved windows are always absolute ns, half-open [begin, end), and carry a
// description that says which clock the user used, so outputs can state it.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nsys/engine/model.h"
#include "nsys/support/clock.h"
#include "nsys/support/expected.h"

namespace nsys::engine {

struct WindowSpec {
  using Clock = WindowClock;  // nsys/support/clock.h: the one set of clock names
  Clock clock = Clock::kRelativeSeconds;
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

// One filter shape for skills, traces and what comes next. Each set empty = everything; a one-element set is one
// compare per row, so hot loops stay fast.
struct Filter {
  ResolvedWindow window;
  std::vector<int32_t> devices;     // empty = every device
  std::vector<uint32_t> processes;  // empty = every process
  std::vector<uint64_t> threads;    // empty = every thread (global TIDs); a consumer that cannot honour a
                                    // non-empty set says so (kUnsupported) rather than ignoring it

  // An event belongs to the window when it starts inside it: [begin, end).
  bool InWindow(Ns start) const { return start >= window.begin && start < window.end; }
  bool AcceptsDevice(int32_t device) const { return InSet(devices, device); }
  bool AcceptsProcess(uint32_t pid) const { return InSet(processes, pid); }
  // Tables hold the decoded (pid, tid); a global TID's high bits (hardware/VM id) are masked as PidOf/TidOf do.
  bool AcceptsThread(uint32_t pid, uint32_t tid) const {
    if (threads.empty()) return true;
    for (uint64_t g : threads) {
      if (PidOf(static_cast<int64_t>(g)) == pid && TidOf(static_cast<int64_t>(g)) == tid) return true;
    }
    return false;
  }
  bool Accepts(Ns start, int32_t device, uint32_t pid) const {
    return InWindow(start) && AcceptsDevice(device) && AcceptsProcess(pid);
  }

 private:
  template <typename T>
  static bool InSet(const std::vector<T>& set, T value) {
    if (set.empty()) return true;
    for (const T& v : set) {
      if (v == value) return true;
    }
    return false;
  }
};

// A filter as a caller states it, before the window is resolved against a profile.
struct FilterSpec {
  WindowSpec window;
  std::vector<int32_t> devices;
  std::vector<uint32_t> processes;
  std::vector<uint64_t> threads;
};

// Resolves the window and checks that every device and process exists in the profile (kInvalidArgument naming
// the profile's devices or processes). Threads are not checked: the profile lists no threads.
Expected<Filter> ResolveFilter(const ProfileInfo& info, const FilterSpec& spec);
// The errors ResolveFilter gives, for callers that check an id before it fits the set's type.
Error UnknownDevice(const ProfileInfo& info, int64_t device);
Error UnknownProcess(const ProfileInfo& info, int64_t pid);

// Row range [first, last) of a table sorted by start whose starts lie in [begin, end).
template <typename Table>
std::pair<size_t, size_t> StartRange(const Table& t, Ns begin, Ns end);

}  // namespace nsys::engine

#include "nsys/engine/window_inl.h"
