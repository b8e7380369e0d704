// device_imbalance: compute kernel time per process and device against the busiest one, for stragglers and load
// imbalance across the ranks of a job.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "common_gpu_ops.h"
#include "common_nccl.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

struct DeviceLoad {
  PidDevice key{};
  int64_t kernels = 0, nccl_kernels = 0;
  Ns kernel_ns = 0, nccl_ns = 0;
  Ns compute_ns() const { return kernel_ns - nccl_ns; }
};

// Σ kernel time per (pid, device), split into communication and compute. False when cancelled.
bool SumLoads(const Context& ctx, std::vector<DeviceLoad>& out) {
  const engine::KernelTable& k = ctx.profile.kernels();
  CommKernelClassifier comm(ctx.profile.strings());
  SmallIndex<PidDevice, PidDeviceHash> index;
  auto [first, last] = RowRange(k, ctx.filter);
  for (size_t i = first; i < last; ++i) {
    if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return false;
    if (!ctx.filter.AcceptsDevice(k.device[i]) || !ctx.filter.AcceptsProcess(k.pid[i])) continue;
    auto [g, added] = index.Get({k.pid[i], k.device[i]});
    if (added) out.push_back({index.keys()[g]});
    DeviceLoad& d = out[g];
    const Ns dur = k.end[i] - k.start[i];
    ++d.kernels;
    d.kernel_ns += dur;
    if (comm.Of(k, i) != Collective::kNone) {
      ++d.nccl_kernels;
      d.nccl_ns += dur;
    }
  }
  std::sort(out.begin(), out.end(), [](const DeviceLoad& a, const DeviceLoad& b) {
    return std::tie(a.key.pid, a.key.device) < std::tie(b.key.pid, b.key.device);
  });
  return true;
}

Table EmptyImbalanceTable() {
  Table t;
  t.columns = {IntCol("pid", "Process id"),
               IntCol("device_id", "GPU device id"),
               IntCol("kernel_ns", "Σ kernel durations of the process on the device"),
               IntCol("nccl_ns", "Σ durations of its communication kernels (NCCL/RCCL/HCCL)"),
               IntCol("compute_ns", "kernel_ns - nccl_ns"),
               IntCol("kernels", "Kernels"),
               DoubleCol("compute_share_of_max", "compute_ns / the largest compute_ns of all rows (0..1)"),
               IntCol("behind_max_ns", "Largest compute_ns of all rows - compute_ns"),
               IntCol("nccl_kernels", "Communication kernels")};
  return t;
}

void AddImbalanceNotes(const Context& ctx, const std::vector<DeviceLoad>& loads, Ns max_compute, Table& t) {
  t.notes.push_back(
      "Per (process, device): Σ kernel durations, split into communication kernels and compute (every other "
      "kernel). A straggler has less (or more) compute than its peers; with equal work per rank, behind_max_ns is "
      "time the others wait in their collectives.");
  t.notes.push_back(kCommPatternsNote);
  if (loads.size() > 1) {
    const auto low = std::min_element(loads.begin(), loads.end(), [](const DeviceLoad& a, const DeviceLoad& b) {
      return a.compute_ns() < b.compute_ns();
    });
    t.notes.push_back(fmt::format(
        "{} (process, device) pairs; compute ranges from {} (pid {} device {}) to {}: a spread of {}.", loads.size(),
        FormatDuration(low->compute_ns()), low->key.pid, low->key.device, FormatDuration(max_compute),
        FormatPct(max_compute > 0
                      ? 100.0 * static_cast<double>(max_compute - low->compute_ns()) / static_cast<double>(max_compute)
                      : 0)));
  } else if (loads.size() == 1) {
    t.notes.push_back("Only one (process, device) pair has kernels: there is nothing to compare it with.");
  } else {
    t.notes.push_back("No kernels in the selection.");
  }
  t.notes.push_back(WindowNote(ctx.filter));
}

class DeviceImbalanceSkill final : public Skill {
 public:
  std::string name() const override { return "device_imbalance"; }
  std::string description() const override {
    return "Compute and communication kernel time per process and device, and how far each is behind the busiest: "
           "stragglers and imbalance across devices and ranks.";
  }
  engine::Need needs() const override { return engine::Need::kKernels; }

  Expected<Table> run(const Context& ctx) const override {
    if (!ctx.profile.info().caps.kernels) {
      return Declined(
          "This profile has no CUDA kernel data (no CUPTI_ACTIVITY_KIND_KERNEL table), so there is no per-device "
          "work to compare.");
    }
    std::vector<DeviceLoad> loads;
    if (!SumLoads(ctx, loads)) return CancelledError();
    Ns max_compute = 0;
    for (const DeviceLoad& d : loads) max_compute = std::max(max_compute, d.compute_ns());
    Table t = EmptyImbalanceTable();
    for (const DeviceLoad& d : loads) {
      t.rows.push_back(
          {I(d.key.pid), I(d.key.device), I(d.kernel_ns), I(d.nccl_ns), I(d.compute_ns()), I(d.kernels),
           max_compute > 0 ? D(static_cast<double>(d.compute_ns()) / static_cast<double>(max_compute)) : Null(),
           I(max_compute - d.compute_ns()), I(d.nccl_kernels)});
    }
    AddImbalanceNotes(ctx, loads, max_compute, t);
    return t;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeDeviceImbalance() {
  return std::make_shared<DeviceImbalanceSkill>();
}

}  // namespace nsys::skills::builtin
