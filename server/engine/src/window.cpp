#include "nsys/engine/window.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace nsys::engine {
namespace {

// Seconds with at least 3 decimals and no trailing zeros beyond them ("0.250", "1.0000125").
std::string Seconds(double s) {
  std::string out = fmt::format("{:.9f}", s);
  while (out.size() > 1 && out.back() == '0' && out.size() - out.find('.') > 4) out.pop_back();
  return out;
}

std::string Bounds(const ProfileInfo& info, Ns begin, Ns end) {
  const double a = static_cast<double>(begin - info.start_ns) / 1e9;
  const double b = static_cast<double>(end - info.start_ns) / 1e9;
  return fmt::format("{} s to {} s from profile start (capture clock {} to {} ns)", Seconds(a), Seconds(b), begin, end);
}

std::string ProfileRange(const ProfileInfo& info) {
  return fmt::format("the profile runs from {} to {} ns on the capture clock, that is 0 s to {} s from its start",
                     info.start_ns, info.end_ns, Seconds(static_cast<double>(info.end_ns - info.start_ns) / 1e9));
}

template <typename T, typename Fn>
std::string ListSome(const std::vector<T>& items, Fn&& fn, size_t max_items = 20) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < max_items; ++i) {
    if (i) out += ", ";
    out += fn(items[i]);
  }
  if (items.size() > max_items) out += fmt::format(" and {} more", items.size() - max_items);
  return out;
}

bool HasDevice(const ProfileInfo& info, int64_t device) {
  return std::any_of(info.devices.begin(), info.devices.end(), [&](const Device& d) { return d.id == device; });
}

bool HasProcess(const ProfileInfo& info, int64_t pid) {
  return std::any_of(info.processes.begin(), info.processes.end(), [&](const Process& p) { return p.pid == pid; });
}

}  // namespace

Error UnknownDevice(const ProfileInfo& info, int64_t device) {
  if (info.devices.empty()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("Device {} does not exist: this profile has no GPU devices.", device));
  }
  return MakeError(ErrorKind::kInvalidArgument,
                   fmt::format("Device {} does not exist in this profile; its devices are {}.", device,
                               ListSome(info.devices, [](const Device& d) { return std::to_string(d.id); })));
}

Error UnknownProcess(const ProfileInfo& info, int64_t pid) {
  if (info.processes.empty()) {
    return MakeError(ErrorKind::kInvalidArgument, fmt::format("Process id {} is out of range.", pid));
  }
  return MakeError(ErrorKind::kInvalidArgument,
                   fmt::format("Process {} does not exist in this profile; its processes are {}.", pid,
                               ListSome(info.processes, [](const Process& p) { return std::to_string(p.pid); })));
}

Expected<Filter> ResolveFilter(const ProfileInfo& info, const FilterSpec& spec) {
  for (int32_t device : spec.devices) {
    if (!HasDevice(info, device)) return UnknownDevice(info, device);
  }
  // A profile that lists no processes cannot say a pid is wrong; any pid then selects nothing.
  for (uint32_t pid : spec.processes) {
    if (!info.processes.empty() && !HasProcess(info, pid)) return UnknownProcess(info, pid);
  }
  auto window = ResolveWindow(info, spec.window);
  if (!window) return window.error();
  Filter filter;
  filter.window = std::move(window.value());
  filter.devices = spec.devices;
  filter.processes = spec.processes;
  filter.threads = spec.threads;
  return filter;
}

Expected<ResolvedWindow> ResolveWindow(const ProfileInfo& info, const WindowSpec& spec) {
  ResolvedWindow w;
  const bool capture = spec.clock == WindowSpec::Clock::kCaptureNs;
  if (!spec.start && !spec.end) {
    w.begin = info.start_ns;
    w.end = info.end_ns + 1;  // exclusive: an event starting at the very end is inside
    w.whole = true;
    w.description = "whole profile";
    return w;
  }
  const char* unit = capture ? "ns on the capture clock" : "s from the profile start";
  for (const std::optional<double>& v : {spec.start, spec.end}) {
    if (!v) continue;
    const double limit = capture ? 9.0e18 : 9.0e9;
    if (!std::isfinite(*v) || std::fabs(*v) > limit)
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("The window bound {} {} is out of range.", *v, unit));
  }
  auto to_ns = [&](double v) -> Ns {
    return capture ? static_cast<Ns>(std::llround(v)) : info.start_ns + static_cast<Ns>(std::llround(v * 1e9));
  };
  w.begin = spec.start ? to_ns(*spec.start) : info.start_ns;
  w.end = spec.end ? to_ns(*spec.end) : info.end_ns + 1;
  w.whole = false;
  if (w.end <= w.begin)
    return MakeError(
        ErrorKind::kInvalidArgument,
        fmt::format("The window's end must come after its start, but it runs from {} to {} {} ({}).",
                    spec.start ? fmt::format("{}", *spec.start) : "the profile start",
                    spec.end ? fmt::format("{}", *spec.end) : "the profile end", unit, Bounds(info, w.begin, w.end)));
  if (w.end <= info.start_ns || w.begin > info.end_ns)
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("The window {} lies entirely outside the profile: {}. {}",
                                 Bounds(info, w.begin, w.end), ProfileRange(info),
                                 capture ? "Times on the capture clock are absolute ns, not ns from the start."
                                         : "Times are seconds from the profile start."));
  if (capture) {
    w.description = fmt::format("capture clock {} to {} ns ({} s to {} s from profile start)", w.begin, w.end,
                                Seconds(static_cast<double>(w.begin - info.start_ns) / 1e9),
                                Seconds(static_cast<double>(w.end - info.start_ns) / 1e9));
  } else {
    w.description = Bounds(info, w.begin, w.end);
  }
  return w;
}

}  // namespace nsys::engine
