#include "common_gpu_ops.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <utility>

#include "common_rows.h"

namespace nsys::skills::builtin {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

static char Lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (Lower(s[i]) != Lower(prefix[i])) return false;
  }
  return true;
}

bool ContainsNoCase(std::string_view s, std::string_view needle) {
  if (needle.empty()) return true;
  if (s.size() < needle.size()) return false;
  for (size_t i = 0; i + needle.size() <= s.size(); ++i) {
    if (StartsWithNoCase(s.substr(i), needle)) return true;
  }
  return false;
}

bool IsCountedOverheadName(std::string_view name) {
  return name == "CUDA profiling data flush overhead" || name == "CUDA profiling stop overhead" ||
         name == "CUDA profiling overhead";
}

Error CancelledError() {
  return MakeError(ErrorKind::kCancelled, "The analysis was cancelled.");
}

namespace {

// Pass 1 over one table: per-group counts and [first start, last end].
template <typename Table>
void CountTable(const Table& t, const engine::Filter& filter, SmallIndex<PidDevice, PidDeviceHash>& index,
                std::vector<GpuOpGroup>& groups, int64_t GpuOpGroup::*counter) {
  auto [first, last] = RowRange(t, filter);
  for (size_t i = first; i < last; ++i) {
    const Ns start = t.start[i];
    if (start <= 0 || !filter.AcceptsDevice(t.device[i]) || !filter.AcceptsProcess(t.pid[i])) {
      continue;
    }
    auto [g, added] = index.Get(PidDevice{t.pid[i], t.device[i]});
    if (added) {
      groups.emplace_back();
      groups.back().pid = t.pid[i];
      groups.back().device = t.device[i];
      groups.back().first_start = start;
      groups.back().last_end = t.end[i];
    }
    GpuOpGroup& grp = groups[g];
    grp.first_start = std::min(grp.first_start, start);
    grp.last_end = std::max(grp.last_end, t.end[i]);
    ++(grp.*counter);
  }
}

}  // namespace

Expected<GpuOpGroups> GpuOpGroups::Scan(const engine::Profile& profile, const engine::Filter& filter,
                                        const GpuOpsOptions& options, const CancelToken& cancel) {
  GpuOpGroups out;
  out.options_ = options;
  std::vector<GpuOpGroup> groups;
  SmallIndex<PidDevice, PidDeviceHash> index;
  if (options.kernels) CountTable(profile.kernels(), filter, index, groups, &GpuOpGroup::kernels);
  if (options.memcpy) CountTable(profile.memcpys(), filter, index, groups, &GpuOpGroup::memcpys);
  if (options.memset) CountTable(profile.memsets(), filter, index, groups, &GpuOpGroup::memsets);
  if (options.kernels && options.graphs) CountTable(profile.graphs(), filter, index, groups, &GpuOpGroup::graphs);
  if (cancel.cancelled()) return CancelledError();
  if (options.overhead && !groups.empty()) {
    const engine::OverheadTable& oh = profile.overhead();
    NameClassCache counted(profile.strings(), [](std::string_view n) -> uint8_t { return IsCountedOverheadName(n); });
    auto [first, last] = RowRange(oh, filter);
    for (size_t i = first; i < last; ++i) {
      if (!counted(oh.name[i])) continue;
      for (GpuOpGroup& g : groups) {
        if (g.pid == oh.pid[i] && oh.start[i] > g.first_start && oh.end[i] < g.last_end) {
          g.overhead_ops.push_back({oh.start[i], oh.end[i]});  // the table is start-sorted
          ++g.overheads;
        }
      }
    }
  }
  std::sort(groups.begin(), groups.end(), [](const GpuOpGroup& a, const GpuOpGroup& b) {
    return a.pid != b.pid ? a.pid < b.pid : a.device < b.device;
  });
  for (const GpuOpGroup& g : groups) out.index_.Get(PidDevice{g.pid, g.device});
  out.groups_ = std::move(groups);
  return out;
}

std::string FormatDuration(Ns ns) {
  const double v = static_cast<double>(ns);
  if (ns >= 1'000'000'000) return fmt::format("{:.3f} s", v / 1e9);
  if (ns >= 1'000'000) return fmt::format("{:.3f} ms", v / 1e6);
  if (ns >= 1'000) return fmt::format("{:.3f} us", v / 1e3);
  return fmt::format("{} ns", ns);
}

std::string FormatPct(double pct) {
  return fmt::format("{:.1f}%", pct);
}

std::string WindowNote(const engine::Filter& filter) {
  // Same wording as the runner's scope note, so it is not repeated.
  if (filter.window.whole) return "Window: whole profile.";
  return fmt::format("Window: {}. Events count when they start inside it.", filter.window.description);
}

std::vector<int32_t> DeviceIds(const engine::ProfileInfo& info) {
  std::vector<int32_t> ids;
  for (const engine::Device& d : info.devices) ids.push_back(d.id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::string DeviceName(const engine::ProfileInfo& info, int32_t device) {
  for (const engine::Device& d : info.devices) {
    if (d.id == device) return d.name;
  }
  return {};
}

}  // namespace nsys::skills::builtin
