// The per-rank partial of a job (job_partials.h): one pass setup, three named steps (session clock, kernels and
// collectives, steps), each reading one loaded rank profile.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "common_gpu_ops.h"
#include "common_iterations.h"
#include "common_nccl.h"
#include "nsys/skills/job_partials.h"

namespace nsys::skills::job {
namespace {

using builtin::Collective;
using builtin::Interval;
using builtin::kAllComm;
using builtin::kKinds;

bool HasColumn(const engine::ProfileInfo& info, std::string_view table, std::string_view column) {
  for (const engine::TableInfo& t : info.tables) {
    if (t.name != table) continue;
    return std::find(t.columns.begin(), t.columns.end(), column) != t.columns.end();
  }
  return false;
}

std::optional<int64_t> QueryInt(const engine::Profile& profile, const std::string& sql, const CancelToken& cancel) {
  auto r = profile.Query(sql, cancel);
  if (!r || r->rows.empty() || r->rows[0].empty()) return std::nullopt;
  if (const auto* v = std::get_if<int64_t>(&r->rows[0][0])) return *v;
  return std::nullopt;
}

// Step 1: what the capture clock read at the session's UTC start (systemClockNs; older exports without it:
// ANALYSIS_DETAILS.startTime, the trace start on the same clock).
void ReadSessionClock(const engine::Profile& profile, const CancelToken& cancel, RankPartial& out) {
  const engine::ProfileInfo& info = profile.info();
  out.session_utc_ns = info.session_start_utc_ns;
  std::optional<int64_t> clock;
  if (HasColumn(info, "TARGET_INFO_SESSION_START_TIME", "systemClockNs")) {
    clock = QueryInt(profile, "SELECT systemClockNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1", cancel);
  }
  if (!clock && HasColumn(info, "ANALYSIS_DETAILS", "startTime")) {
    clock = QueryInt(profile, "SELECT startTime FROM ANALYSIS_DETAILS LIMIT 1", cancel);
  }
  out.has_session_clock = clock.has_value() && info.session_start_utc_ns != 0;
  out.session_clock_ns = clock.value_or(0);
  if (!out.has_session_clock) {
    out.notes.push_back(
        "The export has no session start time (TARGET_INFO_SESSION_START_TIME with systemClockNs or "
        "ANALYSIS_DETAILS.startTime), so its clock can only be aligned by matching collectives.");
  }
}

// Per device: the unions of each collective kind's kernels (few intervals) and the compute sweep against them.
struct DeviceComm {
  int32_t device = 0;
  std::array<std::vector<Interval>, kKinds + 1> comm;  // [kind], [kAllComm]; [0] unused
  std::vector<builtin::IntersectionSweep> overlap;
  builtin::UnionStreamer compute;
  std::vector<Interval> compute_union;  // the closed intervals of `compute`, in time order
  Ns compute_busy = 0;
};

class KernelScan {
 public:
  KernelScan(const engine::Profile& profile, RankPartial& out)
      : k_(profile.kernels()), classify_(profile.strings()), out_(out) {}

  // Pass 1: sums, communication unions, collective instances. False when cancelled.
  bool Collect(const CancelToken& cancel) {
    std::set<uint32_t> pids;
    for (size_t i = 0; i < k_.size(); ++i) {
      if ((i & 0xFFFF) == 0 && cancel.cancelled()) return false;
      const Ns dur = k_.end[i] - k_.start[i];
      ++out_.kernels;
      out_.kernel_ns += dur;
      pids.insert(k_.pid[i]);
      DeviceComm& d = Device(k_.device[i]);
      const auto kind = static_cast<uint8_t>(classify_.Of(k_, i));
      if (kind == 0) {
        out_.compute_ns += dur;
        continue;
      }
      out_.comm_ns += dur;
      totals_[kind].count += 1;
      totals_[kind].total_ns += dur;
      builtin::AppendToUnion(d.comm[kind], {k_.start[i], k_.end[i]});
      builtin::AppendToUnion(d.comm[kAllComm], {k_.start[i], k_.end[i]});
      AddInstance(kind, i);
    }
    out_.pids.assign(pids.begin(), pids.end());
    return true;
  }

  // Pass 2: each device's compute union streamed against its communication unions. False when cancelled.
  bool Overlap(const CancelToken& cancel) {
    for (DeviceComm& d : devices_) {
      for (const auto& u : d.comm) d.overlap.emplace_back(&u);
    }
    for (size_t i = 0; i < k_.size(); ++i) {
      if ((i & 0xFFFF) == 0 && cancel.cancelled()) return false;
      if (classify_.Of(k_, i) != Collective::kNone) continue;
      DeviceComm& d = Device(k_.device[i]);
      d.compute.Add({k_.start[i], k_.end[i]}, [&](const Interval& iv) { Close(d, iv); });
    }
    for (DeviceComm& d : devices_) d.compute.Finish([&](const Interval& iv) { Close(d, iv); });
    return true;
  }

  void Finish() {
    CoverSamples();
    for (const DeviceComm& d : devices_) {
      out_.devices.push_back(d.device);
      out_.compute_busy_ns += d.compute_busy;
      out_.comm_busy_ns += builtin::TotalLength(d.comm[kAllComm]);
      out_.comm_overlap_ns += d.overlap[kAllComm].total();
      for (size_t kind = 1; kind < kKinds; ++kind) {
        totals_[kind].busy_ns += builtin::TotalLength(d.comm[kind]);
        totals_[kind].overlap_ns += d.overlap[kind].total();
      }
    }
    std::sort(out_.devices.begin(), out_.devices.end());
    for (size_t kind = 1; kind < kKinds; ++kind) {
      if (totals_[kind].count == 0) continue;
      totals_[kind].kind = static_cast<uint8_t>(kind);
      out_.collective_totals.push_back(totals_[kind]);
    }
    std::sort(out_.collectives.begin(), out_.collectives.end(), [](const auto& a, const auto& b) {
      return std::tie(a.kind, a.channel, a.ordinal) < std::tie(b.kind, b.channel, b.ordinal);
    });
  }

 private:
  DeviceComm& Device(int32_t device) {
    auto [d, added] = device_index_.Get(device);
    if (added) {
      devices_.emplace_back();
      devices_.back().device = device;
    }
    return devices_[d];
  }
  // Each collective's parts that its device's compute union overlaps.
  void CoverSamples() {
    for (CollectiveSample& c : out_.collectives) {
      const std::vector<Interval>& u = Device(c.device).compute_union;
      auto it = std::upper_bound(u.begin(), u.end(), c.start, [](Ns at, const Interval& iv) { return at < iv.end; });
      for (; it != u.end() && it->start < c.end; ++it) {
        c.covered.emplace_back(std::max(it->start, c.start), std::min(it->end, c.end));
      }
    }
  }
  static void Close(DeviceComm& d, const Interval& iv) {
    d.compute_union.push_back(iv);
    d.compute_busy += iv.length();
    for (size_t kind = 1; kind <= kAllComm; ++kind) d.overlap[kind].Add(iv);
  }
  // The instance's channel is its stream's rank among the communication streams, by first use.
  void AddInstance(uint8_t kind, size_t i) {
    const builtin::StreamKey key{k_.pid[i], k_.device[i], k_.stream[i]};
    const auto channel = static_cast<int32_t>(channel_index_.Get(key).first);
    int64_t& ordinal = next_ordinal_[{kind, channel}];
    out_.collectives.push_back({kind, channel, ordinal++, k_.device[i], k_.stream[i], k_.start[i], k_.end[i]});
  }

  const engine::KernelTable& k_;
  builtin::CommKernelClassifier classify_;
  RankPartial& out_;
  builtin::SmallIndex<int32_t, std::hash<int32_t>> device_index_;
  std::vector<DeviceComm> devices_;  // std::vector of sweeps pointing into `comm`: filled before pass 2 only
  builtin::SmallIndex<builtin::StreamKey, builtin::StreamKeyHash> channel_index_;
  std::map<std::pair<uint8_t, int32_t>, int64_t> next_ordinal_;
  std::array<CollectiveTotals, kKinds> totals_{};
};

// Step 3: the rank's steps, by the marker or by kernel periodicity (common_iterations.h).
Status ReadSteps(const engine::Profile& profile, const PartialOptions& options, const CancelToken& cancel,
                 RankPartial& out) {
  const engine::Filter whole;
  const Args no_args;
  const Context ctx{profile, whole, no_args, cancel};
  auto found = builtin::DetectIterations(ctx, options.step_marker);
  if (!found) return found.error();
  if (!found->found) {
    out.notes.push_back("No steps: " + found->decline_reason);
    return {};
  }
  out.step_method = found->method;
  for (const builtin::Iteration& it : found->iterations) {
    out.steps.push_back({it.index, it.device, it.start, it.end, it.gpu_busy, it.kernels});
  }
  for (std::string& note : found->notes) out.notes.push_back(std::move(note));
  return {};
}

}  // namespace

const char* CollectiveKindName(uint8_t kind) {
  if (kind == 0xFF) return "all";
  return builtin::CollectiveName(static_cast<Collective>(kind));
}

Expected<RankPartial> ComputeRankPartial(const engine::Profile& profile, const PartialOptions& options,
                                         const CancelToken& cancel) {
  RankPartial out;
  out.first_ns = profile.info().start_ns;
  out.last_ns = profile.info().end_ns;
  ReadSessionClock(profile, cancel, out);
  KernelScan scan(profile, out);
  if (!scan.Collect(cancel) || !scan.Overlap(cancel)) return builtin::CancelledError();
  scan.Finish();
  if (Status steps = ReadSteps(profile, options, cancel, out); !steps) return steps.error();
  if (cancel.cancelled()) return builtin::CancelledError();
  return out;
}

}  // namespace nsys::skills::job
