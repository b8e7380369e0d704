// gpus: the GPUs the export lists (TARGET_INFO_GPU, or TARGET_INFO_CUDA_GPU on older exports), idle ones too, with
// what the export says of each (name, chip, SMs, memory, peak memory bandwidth, compute capability) and the kernels,
// copies and memsets each ran in the filter's window and processes. "What GPU is this?", "how many GPUs does the
// machine have, and how many did the job use?", "how much memory does the GPU have?".
#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common_gpu_ops.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

struct WorkOnDevice {
  int64_t kernels = 0, copies = 0, memsets = 0;
};

// Step 1: the GPU work of each device the filter keeps.
template <typename Table>
bool CountByDevice(const Table& t, const engine::Filter& filter, const CancelToken& cancel,
                   std::map<int32_t, WorkOnDevice>& work, int64_t WorkOnDevice::*count) {
  const auto [first, last] = RowRange(t, filter);
  for (size_t i = first; i < last; ++i) {
    if ((i & 0xFFFF) == 0 && cancel.cancelled()) return false;
    if (!filter.AcceptsDevice(t.device[i]) || !filter.AcceptsProcess(t.pid[i])) continue;
    ++(work[t.device[i]].*count);
  }
  return true;
}

// Step 2: one row per GPU the export lists.
Table RowsOf(const engine::Profile& p, const engine::Filter& filter, const std::map<int32_t, WorkOnDevice>& work) {
  Table t;
  t.columns = {IntCol("device_id", "GPU device id, as GPU activity rows name it"),
               StringCol("name", "The GPU's name, as the export gives it (empty when it does not)"),
               StringCol("chip", "The GPU's chip (empty when the export does not say)"),
               IntCol("sm_count", "Streaming multiprocessors (0: the export does not say)"),
               IntCol("memory_bytes", "Device memory, bytes (0: the export does not say)"),
               DoubleCol("memory_bandwidth_gb_per_s", "Peak memory bandwidth the export gives, GB/s (null: not given)"),
               StringCol("compute_capability", "Compute capability, major.minor (empty when unknown)"),
               IntCol("kernels", "Kernels it ran (in the filter's window and processes)"),
               IntCol("copies", "Memory copies it ran"),
               IntCol("memsets", "Memsets it ran"),
               IntCol("ran_work", "1 when it ran a kernel, copy or memset, else 0")};
  for (const engine::Device& d : p.info().devices) {
    if (!filter.AcceptsDevice(d.id)) continue;
    const auto it = work.find(d.id);
    const WorkOnDevice w = it == work.end() ? WorkOnDevice{} : it->second;
    t.rows.push_back({I(d.id), S(d.name), S(d.chip), I(d.sm_count), I(d.total_memory),
                      d.memory_bandwidth > 0 ? D(static_cast<double>(d.memory_bandwidth) / 1e9) : Null(),
                      S(d.compute_major > 0 ? fmt::format("{}.{}", d.compute_major, d.compute_minor) : std::string()),
                      I(w.kernels), I(w.copies), I(w.memsets), I(w.kernels + w.copies + w.memsets > 0 ? 1 : 0)});
  }
  return t;
}

class GpusSkill final : public Skill {
 public:
  std::string name() const override { return "gpus"; }
  std::string description() const override {
    return "The GPUs the export lists, idle ones too: name, chip, SMs, memory, peak memory bandwidth, compute "
           "capability, and the kernels, copies and memsets each ran.";
  }
  std::vector<ArgSpec> args() const override { return {}; }
  engine::Need needs() const override {
    return engine::Need::kKernelRows | engine::Need::kMemcpy | engine::Need::kMemset;
  }

  Expected<Table> run(const Context& ctx) const override {
    const engine::Profile& p = ctx.profile;
    if (p.info().devices.empty()) return Declined("The export lists no GPU and records no GPU work.");
    std::map<int32_t, WorkOnDevice> work;
    const auto& caps = p.info().caps;
    if ((caps.kernels && !CountByDevice(p.kernels(), ctx.filter, ctx.cancel, work, &WorkOnDevice::kernels)) ||
        (caps.memcpy && !CountByDevice(p.memcpys(), ctx.filter, ctx.cancel, work, &WorkOnDevice::copies)) ||
        (caps.memset && !CountByDevice(p.memsets(), ctx.filter, ctx.cancel, work, &WorkOnDevice::memsets)))
      return CancelledError();
    Table t = RowsOf(p, ctx.filter, work);
    int64_t used = 0;
    for (const auto& row : t.rows) used += std::get<int64_t>(row.back());
    t.notes.push_back(fmt::format("{} GPU{} listed; {} ran GPU work{}.", t.rows.size(), t.rows.size() == 1 ? "" : "s",
                                  used,
                                  caps.gpu_info ? ""
                                                : " (the export names no GPU: these are the devices its "
                                                  "GPU work names)"));
    t.notes.push_back(WindowNote(ctx.filter));
    return t;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeGpus() {
  return std::make_shared<GpusSkill>();
}

}  // namespace nsys::skills::builtin
