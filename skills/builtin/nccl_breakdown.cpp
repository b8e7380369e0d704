// nccl_breakdown: collective kernels by type per device, with HTA's communication/computation overlap.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "common_gpu_ops.h"
#include "common_nccl.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

struct KindStats {
  int64_t count = 0;
  Ns total = 0, min = 0, max = 0;
  std::vector<Interval> union_;  // communication only; kernels arrive in start order

  void Add(Ns dur) {
    min = count == 0 ? dur : std::min(min, dur);
    max = count == 0 ? dur : std::max(max, dur);
    ++count;
    total += dur;
  }
};

struct DeviceStats {
  int32_t device = 0;
  std::array<KindStats, kKinds + 1> kinds;  // [0] = compute (no union stored), [kAllComm] = all communication
  std::vector<IntersectionSweep> overlap;   // pass 2: per kind, |∪compute ∩ union_| ([0] unused)
  bool open = false;                        // pass 2: the compute union interval being built
  Interval cur;
  Ns compute_busy = 0;

  void StartPass2() {
    for (const KindStats& s : kinds) overlap.emplace_back(&s.union_);
  }
  // A closed interval of ∪compute.
  void Close(const Interval& iv) {
    compute_busy += iv.length();
    for (size_t kind = 1; kind <= kAllComm; ++kind) overlap[kind].Add(iv);
  }
};

// The selected kernels per device, in two passes over the kernel table.
class CommScan {
 public:
  explicit CommScan(const Context& ctx)
      : ctx_(ctx), k_(ctx.profile.kernels()), classify_(ctx.profile.strings(), [](std::string_view n) -> uint8_t {
          return static_cast<uint8_t>(ClassifyCommKernel(n));
        }) {
    std::tie(first_, last_) = RowRange(k_, ctx.filter);
  }

  // Pass 1: statistics, and the communication unions (few intervals). False when cancelled.
  bool CountKernels() {
    for (size_t i = first_; i < last_; ++i) {
      if ((i & 0xFFFF) == 0 && ctx_.cancel.cancelled()) return false;
      if (!Accepted(i)) continue;
      ++kernels_seen_;
      auto [d, added] = index_.Get(k_.device[i]);
      if (added) {
        devices_.emplace_back();
        devices_.back().device = k_.device[i];
      }
      const uint8_t kind = KindOf(i);
      const Ns dur = k_.end[i] - k_.start[i];
      devices_[d].kinds[kind].Add(dur);
      if (kind != 0) {
        ++comm_kernels_;
        devices_[d].kinds[kAllComm].Add(dur);
        AppendToUnion(devices_[d].kinds[kind].union_, {k_.start[i], k_.end[i]});
        AppendToUnion(devices_[d].kinds[kAllComm].union_, {k_.start[i], k_.end[i]});
      }
    }
    return true;
  }

  // Pass 2: stream ∪compute per device against those unions, without storing it. False when cancelled.
  bool OverlapWithCompute() {
    for (DeviceStats& d : devices_) d.StartPass2();
    for (size_t i = first_; i < last_; ++i) {
      if ((i & 0xFFFF) == 0 && ctx_.cancel.cancelled()) return false;
      if (!Accepted(i) || KindOf(i) != 0 || k_.end[i] <= k_.start[i]) continue;
      DeviceStats& d = devices_[index_.Get(k_.device[i]).first];
      if (d.kinds[kAllComm].count == 0) continue;
      if (d.open && k_.start[i] <= d.cur.end) {
        d.cur.end = std::max(d.cur.end, k_.end[i]);
      } else {
        if (d.open) d.Close(d.cur);
        d.cur = {k_.start[i], k_.end[i]};
        d.open = true;
      }
    }
    for (DeviceStats& d : devices_) {
      if (d.open) d.Close(d.cur);
    }
    return true;
  }

  // Output order; the devices stay put (the sweeps point into them).
  std::vector<const DeviceStats*> ByDevice() const {
    std::vector<const DeviceStats*> by_device;
    for (const DeviceStats& d : devices_) by_device.push_back(&d);
    std::sort(by_device.begin(), by_device.end(), [](const auto* a, const auto* b) { return a->device < b->device; });
    return by_device;
  }

  int64_t kernels_seen() const { return kernels_seen_; }
  int64_t comm_kernels() const { return comm_kernels_; }

 private:
  bool Accepted(size_t i) const {
    return ctx_.filter.AcceptsDevice(k_.device[i]) && ctx_.filter.AcceptsProcess(k_.pid[i]);
  }
  uint8_t KindOf(size_t i) {
    const uint8_t kind = classify_(k_.short_name[i]);
    return kind != 0 ? kind : classify_(k_.name[i]);
  }

  const Context& ctx_;
  const engine::KernelTable& k_;
  NameClassCache classify_;
  size_t first_ = 0, last_ = 0;
  SmallIndex<int32_t, std::hash<int32_t>> index_;
  std::vector<DeviceStats> devices_;
  int64_t kernels_seen_ = 0, comm_kernels_ = 0;
};

class NcclBreakdownSkill final : public Skill {
 public:
  std::string name() const override { return "nccl_breakdown"; }
  std::string description() const override {
    return "NCCL/RCCL collectives by type per device: count, time, and how much communication overlaps computation "
           "(HTA convention).";
  }
  engine::Need needs() const override { return engine::Need::kKernels | engine::Need::kNvtx; }

  Expected<Table> run(const Context& ctx) const override {
    if (!ctx.profile.info().caps.kernels) {
      return Declined("This profile has no CUDA kernel activity, so there are no communication kernels to break down.");
    }
    CommScan scan(ctx);
    if (!scan.CountKernels()) return CancelledError();
    if (scan.comm_kernels() > 0 && !scan.OverlapWithCompute()) return CancelledError();

    Table t = EmptyTable();
    for (const DeviceStats* d : scan.ByDevice()) AddDevice(*d, t);
    t.notes.insert(t.notes.begin(), kCommPatternsNote);
    t.notes.push_back(
        "Overlap convention (HTA, used everywhere in nsys-ai): overlap_pct = |∪compute ∩ ∪comm| / |∪comm|, exposed = "
        "|∪comm \\ ∪compute|, per device, where compute = every non-communication kernel on that device (memcpys and "
        "memsets are neither).");
    t.notes.push_back(
        "Bus bandwidth is not reported: kernel rows carry no message sizes, and the engine does not decode NVTX "
        "payloads, so bytes per collective are unknown here (nccl-tests' busbw needs them).");
    AddNvtxNote(ctx, t);
    if (scan.comm_kernels() == 0) {
      t.notes.push_back(fmt::format("No communication kernels among the {} kernels selected.", scan.kernels_seen()));
    }
    t.notes.push_back(WindowNote(ctx.filter));
    return t;
  }

 private:
  static Table EmptyTable() {
    Table t;
    t.columns = {
        IntCol("device_id", "GPU device id"),
        StringCol("collective", "Collective parsed from the kernel name; \"all\" = every communication kernel"),
        IntCol("count", "Kernels"),
        IntCol("total_ns", "Σ kernel durations"),
        DoubleCol("avg_ns", "Mean kernel duration"),
        IntCol("min_ns", "Shortest"),
        IntCol("max_ns", "Longest"),
        DoubleCol("comm_time_pct", "total_ns / Σ communication kernel time on the device x 100"),
        IntCol("comm_busy_ns", "|∪ these kernels|: time at least one of them runs"),
        DoubleCol("overlap_pct", "|∪ compute ∩ ∪ these| / |∪ these| x 100 (HTA)"),
        IntCol("exposed_ns", "|∪ these \\ ∪ compute|: communication time with no compute running (HTA)"),
        DoubleCol("exposed_pct", "exposed_ns / comm_busy_ns x 100: the share of the communication time exposed")};
    return t;
  }

  // The device's rows ("all", then each collective seen) and its summary note; nothing without communication.
  static void AddDevice(const DeviceStats& d, Table& t) {
    const KindStats& all = d.kinds[kAllComm];
    if (all.count == 0) return;
    auto add_row = [&](const std::string& label, size_t kind) {
      const KindStats& s = d.kinds[kind];
      const Ns busy = TotalLength(s.union_);
      const Ns overlap = d.overlap.empty() ? 0 : d.overlap[kind].total();
      t.rows.push_back(
          {I(d.device), S(label), I(s.count), I(s.total),
           D(static_cast<double>(s.total) / static_cast<double>(s.count)), I(s.min), I(s.max),
           D(100.0 * static_cast<double>(s.total) / static_cast<double>(all.total)), I(busy),
           busy > 0 ? D(100.0 * static_cast<double>(overlap) / static_cast<double>(busy)) : Null(), I(busy - overlap),
           busy > 0 ? D(100.0 * static_cast<double>(busy - overlap) / static_cast<double>(busy)) : Null()});
    };
    add_row("all", kAllComm);
    for (size_t kind = 1; kind < kKinds; ++kind) {
      if (d.kinds[kind].count > 0) add_row(CollectiveName(static_cast<Collective>(kind)), kind);
    }
    const Ns comm_busy = TotalLength(all.union_);
    const Ns all_overlap = d.overlap[kAllComm].total();
    t.notes.push_back(fmt::format(
        "Device {}: {} communication kernels busy {}; {} of it overlaps compute kernels, {} is exposed. Compute "
        "kernels: {} busy {}.",
        d.device, all.count, FormatDuration(comm_busy),
        FormatPct(comm_busy > 0 ? 100.0 * static_cast<double>(all_overlap) / static_cast<double>(comm_busy) : 0),
        FormatDuration(comm_busy - all_overlap), d.kinds[0].count, FormatDuration(d.compute_busy)));
  }

  // NCCL's own NVTX ranges (ncclAllReduce, ncclGroupEnd, ...) and PyTorch's "nccl:all_reduce" name the API-level
  // operation, which the kernel name may not (SendRecv kernels implement all_to_all, for one).
  static void AddNvtxNote(const Context& ctx, Table& t) {
    if (!ctx.profile.info().caps.nvtx) return;
    // Most profiles have no such name at all: check the string pool first rather than every NVTX row.
    const engine::StringPool& pool = ctx.profile.strings();
    bool any = false;
    for (engine::StrId id = 0; id < pool.size() && !any; ++id) any = StartsWithNoCase(pool.view(id), "nccl");
    if (!any) return;
    const engine::NvtxTable& nv = ctx.profile.nvtx();
    NameClassCache is_nccl(pool, [](std::string_view n) -> uint8_t { return StartsWithNoCase(n, "nccl"); });
    std::map<engine::StrId, int64_t> counts;
    auto [first, last] = RowRange(nv, ctx.filter);
    for (size_t i = first; i < last; ++i) {
      if (!ctx.filter.AcceptsProcess(nv.pid[i])) continue;
      if (is_nccl(nv.name[i])) ++counts[nv.name[i]];
    }
    if (counts.empty()) return;
    std::vector<std::pair<int64_t, std::string>> named;
    for (const auto& [id, n] : counts) named.emplace_back(n, std::string(ctx.profile.strings().view(id)));
    std::sort(named.begin(), named.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string list;
    for (size_t i = 0; i < named.size() && i < 8; ++i) {
      list += fmt::format("{}{} x{}", list.empty() ? "" : ", ", named[i].second, named[i].first);
    }
    t.notes.push_back(fmt::format("NCCL-related NVTX ranges (API level): {}{}.", list,
                                  named.size() > 8 ? fmt::format(" and {} more names", named.size() - 8) : ""));
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeNcclBreakdown() {
  return std::make_shared<NcclBreakdownSkill>();
}

}  // namespace nsys::skills::builtin
