// kernel_size_stats: per process and device, how small the kernels are, how fast they are launched, and how many
// of them the GPU had to wait for (launch-bound): the evidence for "many tiny kernels" and "host-bound launches".
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "common_gpu_ops.h"
#include "common_rows.h"
#include "nsys/skills/stats.h"

namespace nsys::skills::builtin {
namespace {

// A kernel that starts within this long of its launch call's end found the GPU waiting for it.
constexpr Ns kLaunchBoundSlackNs = 10'000;
// Idle before a launch-bound kernel counts toward launch_gap_ns up to this much: a longer gap is a pause of the
// host (data loading, synchronization), not launch latency.
constexpr Ns kLaunchGapCapNs = 1'000'000;

struct GroupStats {
  PidDevice key{};
  std::vector<Ns> durations;
  Ns first_start = 0, last_end = 0;
  Ns busy = 0;               // |∪ kernels|
  UnionStreamer busy_union;  // the kernels' union, closed interval by interval into `busy`
  Ns ops_busy_until = 0;     // end of the latest GPU op (kernel, memcpy, memset) so far
  bool any_op = false;
  int64_t tiny = 0, launched = 0, launch_bound = 0;
  Ns tiny_ns = 0, launch_gap = 0;
};

class KernelSizeScan {
 public:
  KernelSizeScan(const Context& ctx, Ns tiny_ns) : ctx_(ctx), tiny_ns_(tiny_ns) {}

  // One pass over the GPU ops in start order: memcpys and memsets only keep the device busy (they shorten the
  // idle time before a kernel); kernels are counted. False when cancelled.
  bool Run() {
    const engine::KernelTable& k = ctx_.profile.kernels();
    const engine::MemcpyTable& m = ctx_.profile.memcpys();
    const engine::MemsetTable& s = ctx_.profile.memsets();
    const engine::GraphTable& g = ctx_.profile.graphs();
    return ForEachGpuOp(ctx_.profile, ctx_.filter, GpuOpsOptions{}, ctx_.cancel, [&](OpKind kind, size_t i) {
      switch (kind) {
        case OpKind::kKernel:
          AddKernel(k, i);
          break;
        case OpKind::kMemcpy:
          AddOther(Group({m.pid[i], m.device[i]}), m.start[i], m.end[i]);
          break;
        case OpKind::kMemset:
          AddOther(Group({s.pid[i], s.device[i]}), s.start[i], s.end[i]);
          break;
        case OpKind::kGraph:  // a graph execution keeps the device busy; its kernels are not in the export
          AddOther(Group({g.pid[i], g.device[i]}), g.start[i], g.end[i]);
          break;
      }
    });
  }

  // Groups sorted by (pid, device), their kernel unions closed; groups with only copies are dropped.
  std::vector<GroupStats>& Finish() {
    std::erase_if(groups_, [](const GroupStats& g) { return g.durations.empty(); });
    for (GroupStats& g : groups_) g.busy_union.Finish([&](const Interval& iv) { g.busy += iv.length(); });
    std::sort(groups_.begin(), groups_.end(), [](const GroupStats& a, const GroupStats& b) {
      return std::tie(a.key.pid, a.key.device) < std::tie(b.key.pid, b.key.device);
    });
    return groups_;
  }

 private:
  GroupStats& Group(const PidDevice& key) {
    auto [g, added] = index_.Get(key);
    if (added) {
      groups_.emplace_back();
      groups_.back().key = key;
    }
    return groups_[g];
  }

  // The idle time on the device just before an op starting at `start` (0 for the group's first op).
  static Ns IdleBefore(const GroupStats& g, Ns start) {
    return g.any_op ? std::max<Ns>(0, start - g.ops_busy_until) : 0;
  }

  static void AddOther(GroupStats& g, Ns start, Ns end) {
    g.ops_busy_until = g.any_op ? std::max(g.ops_busy_until, end) : end;
    g.any_op = true;
  }

  void AddKernel(const engine::KernelTable& k, size_t i) {
    GroupStats& g = Group({k.pid[i], k.device[i]});
    const Ns start = k.start[i], end = k.end[i], dur = end - start;
    if (g.durations.empty()) g.first_start = start;
    g.busy_union.Add({start, end}, [&](const Interval& iv) { g.busy += iv.length(); });
    g.durations.push_back(dur);
    g.last_end = std::max(g.last_end, end);
    if (dur < tiny_ns_) {
      ++g.tiny;
      g.tiny_ns += dur;
    }
    if (k.launch[i] >= 0) {
      ++g.launched;
      const Ns call_end = ctx_.profile.runtime().end[static_cast<size_t>(k.launch[i])];
      if (start - call_end <= kLaunchBoundSlackNs) {
        ++g.launch_bound;
        g.launch_gap += std::min(IdleBefore(g, start), kLaunchGapCapNs);
      }
    }
    AddOther(g, start, end);
  }

  const Context& ctx_;
  const Ns tiny_ns_;
  SmallIndex<PidDevice, PidDeviceHash> index_;
  std::vector<GroupStats> groups_;
};

Table EmptySizeTable() {
  Table t;
  t.columns = {IntCol("pid", "Process id"),
               IntCol("device_id", "GPU device id"),
               IntCol("kernels", "Kernels of the process on the device"),
               DoubleCol("launches_per_s", "kernels / window_ns, per second; null for a single kernel"),
               IntCol("gpu_busy_ns", "|∪ kernel execution|"),
               IntCol("median_ns", "Median kernel duration"),
               IntCol("tiny_kernels", "Kernels shorter than tiny_us"),
               IntCol("tiny_gpu_ns", "Σ durations of the tiny kernels"),
               DoubleCol("tiny_share", "tiny_kernels / kernels (0..1)"),
               IntCol("launch_bound_kernels",
                      "Kernels that started within 10 µs of their launch call's end (or before it): the GPU was "
                      "waiting for the host"),
               IntCol("launch_gap_ns",
                      "Σ device idle time just before each launch-bound kernel, at most 1 ms per gap: time lost to "
                      "the host"),
               IntCol("window_ns", "First kernel start to last kernel end of the process on the device"),
               IntCol("launched_kernels", "Kernels whose launch call is in the export (the launch-bound base)")};
  return t;
}

std::vector<Value> Row(GroupStats& g) {
  const auto kernels = static_cast<int64_t>(g.durations.size());
  const Ns window = g.last_end - g.first_start;
  const SampleSummary s = Summarize(std::span<int64_t>(g.durations));
  return {I(g.key.pid),
          I(g.key.device),
          I(kernels),
          kernels > 1 && window > 0 ? D(static_cast<double>(kernels) * 1e9 / static_cast<double>(window)) : Null(),
          I(g.busy),
          I(std::llround(s.median)),
          I(g.tiny),
          I(g.tiny_ns),
          D(static_cast<double>(g.tiny) / static_cast<double>(kernels)),
          I(g.launch_bound),
          I(g.launch_gap),
          I(window),
          I(g.launched)};
}

void AddSizeNotes(const Context& ctx, double tiny_us, const std::vector<GroupStats>& groups, Table& t) {
  int64_t kernels = 0, launched = 0;
  for (const GroupStats& g : groups) {
    kernels += static_cast<int64_t>(g.durations.size());
    launched += g.launched;
  }
  t.notes.push_back(fmt::format(
      "Per (process, device): kernels shorter than tiny_us={} µs are tiny. A kernel is launch-bound when it started "
      "no later than {} after its launch call returned: the GPU had nothing queued and waited for the host. "
      "launch_gap_ns adds the device's idle time (no kernel, memcpy or memset of the process running) just before "
      "each launch-bound kernel, capped at {} per gap.",
      tiny_us, FormatDuration(kLaunchBoundSlackNs), FormatDuration(kLaunchGapCapNs)));
  if (launched < kernels) {
    t.notes.push_back(fmt::format(
        "Coverage: {} of {} kernels have their launch call in the export (same process and correlation id); only "
        "those can be launch-bound.",
        launched, kernels));
  }
  if (groups.empty()) t.notes.push_back("No kernels in the selection.");
  t.notes.push_back(WindowNote(ctx.filter));
}

class KernelSizeStatsSkill final : public Skill {
 public:
  std::string name() const override { return "kernel_size_stats"; }
  std::string description() const override {
    return "Per process and device: kernel count, launch rate, median duration, tiny kernels and their share, and "
           "launch-bound kernels with the GPU idle time lost waiting for the host.";
  }
  std::vector<ArgSpec> args() const override {
    return {{"tiny_us",
             ValueType::kDouble,
             "Kernels shorter than this many microseconds count as tiny.",
             Value(10.0),
             false,
             {},
             /*min=*/0.0}};
  }
  engine::Need needs() const override {
    return engine::Need::kKernels | engine::Need::kRuntime | engine::Need::kMemcpy | engine::Need::kMemset;
  }

  Expected<Table> run(const Context& ctx) const override {
    if (!ctx.profile.info().caps.kernels) {
      return Declined(
          "This profile has no CUDA kernel data (no CUPTI_ACTIVITY_KIND_KERNEL table), so there are no kernel "
          "sizes or launch rates to measure.");
    }
    const double tiny_us = ArgDouble(ctx, "tiny_us");
    KernelSizeScan scan(ctx, static_cast<Ns>(std::llround(tiny_us * 1e3)));
    if (!scan.Run()) return CancelledError();
    std::vector<GroupStats>& groups = scan.Finish();
    Table t = EmptySizeTable();
    for (GroupStats& g : groups) t.rows.push_back(Row(g));
    AddSizeNotes(ctx, tiny_us, groups, t);
    if (!ctx.profile.info().caps.runtime) {
      t.notes.push_back(
          "This profile has no CUDA API data (no CUPTI_ACTIVITY_KIND_RUNTIME table): launch-bound kernels cannot be "
          "found, so launch_bound_kernels and launch_gap_ns are 0.");
    }
    return t;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeKernelSizeStats() {
  return std::make_shared<KernelSizeStatsSkill>();
}

}  // namespace nsys::skills::builtin
