// gpus: the GPUs the export lists (TARGET_INFO_GPU, or TARGET_INFO_CUDA_GPU on older exports), idle ones too, with
// what the export says of each (name, chip, SMs, memory, peak memory bandwidth, compute capability) and the kernels,
// copies, memsets and CUDA graph executions each ran in the filter's window and processes. "What GPU is this?", "how
// many GPUs does the machine have, and how many did the job use?", "how much memory does the GPU have?".
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common_gpu_ops.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

// Step 1: the GPU work of each device the filter keeps, summed over its processes from GpuOpGroups' counts (kernels,
// copies, memsets and CUDA graph executions recorded whole).
std::map<int32_t, GpuOpGroup> WorkByDevice(const GpuOpGroups& groups) {
  std::map<int32_t, GpuOpGroup> work;
  for (const GpuOpGroup& g : groups.groups()) {
    GpuOpGroup& w = work[g.device];
    w.kernels += g.kernels;
    w.memcpys += g.memcpys;
    w.memsets += g.memsets;
    w.graphs += g.graphs;
  }
  return work;
}

bool RanWork(const GpuOpGroup& w) {
  return w.kernels + w.memcpys + w.memsets + w.graphs > 0;
}

// Step 2: one row per GPU the export lists.
Table RowsOf(const engine::Profile& p, const engine::Filter& filter, const std::map<int32_t, GpuOpGroup>& work) {
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
               IntCol("graph_launches", "CUDA graph executions recorded whole it ran (their kernels are not recorded)"),
               IntCol("ran_work", "1 when it ran a kernel, copy, memset or CUDA graph, else 0")};
  for (const engine::Device& d : p.info().devices) {
    if (!filter.AcceptsDevice(d.id)) continue;
    const auto it = work.find(d.id);
    const GpuOpGroup w = it == work.end() ? GpuOpGroup{} : it->second;
    t.rows.push_back({I(d.id), S(d.name), S(d.chip), I(d.sm_count), I(d.total_memory),
                      d.memory_bandwidth > 0 ? D(static_cast<double>(d.memory_bandwidth) / 1e9) : Null(),
                      S(d.compute_major > 0 ? fmt::format("{}.{}", d.compute_major, d.compute_minor) : std::string()),
                      I(w.kernels), I(w.memcpys), I(w.memsets), I(w.graphs), I(RanWork(w) ? 1 : 0)});
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
  // kGraphs: executions recorded whole are GPU work too (GpuOpGroups counts them with the kernels).
  engine::Need needs() const override {
    return engine::Need::kKernelRows | engine::Need::kMemcpy | engine::Need::kMemset | engine::Need::kGraphs;
  }

  Expected<Table> run(const Context& ctx) const override {
    const engine::Profile& p = ctx.profile;
    if (p.info().devices.empty()) return Declined("The export lists no GPU and records no GPU work.");
    auto groups = GpuOpGroups::Scan(p, ctx.filter, GpuOpsOptions{.overhead = false}, ctx.cancel);
    if (!groups) return groups.error();
    const std::map<int32_t, GpuOpGroup> work = WorkByDevice(*groups);
    Table t = RowsOf(p, ctx.filter, work);
    const auto& devices = p.info().devices;
    const auto used = std::count_if(devices.begin(), devices.end(), [&](const engine::Device& d) {
      const auto it = work.find(d.id);
      return ctx.filter.AcceptsDevice(d.id) && it != work.end() && RanWork(it->second);
    });
    t.notes.push_back(fmt::format("{} GPU{} listed; {} ran GPU work{}.", t.rows.size(), t.rows.size() == 1 ? "" : "s",
                                  used,
                                  p.info().caps.gpu_info ? ""
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
