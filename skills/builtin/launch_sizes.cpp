// launch_sizes: how big each kernel launch is next to the GPU that runs it. One row per (process, device,
// kernel, launch configuration: grid and block dimensions, registers per thread, static and dynamic shared memory per
// block): its calls and time, its grid in blocks and its block in threads, the device's SM count (from the export's GPU
// table; 0 when the export does not say), and its share of the (process, device) span (first GPU operation start to
// last end, as time_budget counts it). A kernel whose grid has fewer blocks than the GPU has SMs leaves SMs idle for
// its whole run. With `family`, only the kernels of that family as the kernel-name decoder classifies them.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "common_gpu_ops.h"
#include "common_kernel_family.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

struct LaunchGroup {
  uint32_t pid = 0;
  int32_t device = 0;
  engine::StrId name = 0, short_name = 0;
  engine::KernelConfig config;  // its dimensions, registers and shared memory (no context or mangled name)
  int64_t calls = 0;
  Ns total = 0;
};

// The parts of a configuration a launch's size is made of: the context and the mangled name are not.
engine::KernelConfig SizeOf(const engine::KernelConfig& c) {
  engine::KernelConfig s = c;
  s.context = 0;
  s.mangled_name = 0;
  return s;
}

// The table's columns, and a row of each configuration in `order`, with its (process, device) span and GPU.
Table RowsOf(const engine::Profile& p, const GpuOpGroups& spans, const std::vector<const LaunchGroup*>& order) {
  Table t;
  t.columns = {IntCol("pid", "Process id"),
               IntCol("device_id", "GPU device"),
               StringCol("short_name", "Kernel short (base) name"),
               IntCol("blocks", "Blocks in the grid (gridX x gridY x gridZ)"),
               IntCol("threads_per_block", "Threads in a block (blockX x blockY x blockZ)"),
               IntCol("sm_count", "Streaming multiprocessors of the device (0: the export does not say)"),
               IntCol("calls", "Launches with this configuration"),
               IntCol("total_ns", "Their summed duration"),
               DoubleCol("span_pct", "total_ns / the (process, device) span x 100"),
               StringCol("name", "Kernel demangled name"),
               IntCol("threads", "Threads in the launch: blocks x threads_per_block"),
               IntCol("grid_x", "Grid dimensions, in blocks"),
               IntCol("grid_y", "Grid dimensions, in blocks"),
               IntCol("grid_z", "Grid dimensions, in blocks"),
               IntCol("block_x", "Block dimensions, in threads"),
               IntCol("block_y", "Block dimensions, in threads"),
               IntCol("block_z", "Block dimensions, in threads"),
               IntCol("registers_per_thread", "Registers per thread"),
               IntCol("static_shared_bytes", "Static shared memory per block, bytes"),
               IntCol("dynamic_shared_bytes", "Dynamic shared memory per block, bytes"),
               StringCol("device_name", "The GPU's name, as the export gives it (empty when it does not)")};
  for (const LaunchGroup* g : order) {
    Ns span_ns = 0;
    for (const GpuOpGroup& group : spans.groups()) {
      if (group.pid == g->pid && group.device == g->device) span_ns = group.last_end - group.first_start;
    }
    int64_t sms = 0;
    std::string gpu;
    for (const auto& d : p.info().devices) {
      if (d.id == g->device) sms = d.sm_count, gpu = d.name;
    }
    const int64_t blocks = BlocksOf(g->config), threads = ThreadsPerBlockOf(g->config);
    t.rows.push_back({I(g->pid),
                      I(g->device),
                      S(std::string(p.strings().view(g->short_name))),
                      I(blocks),
                      I(threads),
                      I(sms),
                      I(g->calls),
                      I(g->total),
                      span_ns > 0 ? D(100.0 * static_cast<double>(g->total) / static_cast<double>(span_ns)) : Null(),
                      S(std::string(p.strings().view(g->name))),
                      I(blocks * threads),
                      I(g->config.grid_x),
                      I(g->config.grid_y),
                      I(g->config.grid_z),
                      I(g->config.block_x),
                      I(g->config.block_y),
                      I(g->config.block_z),
                      I(g->config.registers_per_thread),
                      I(g->config.static_shared_memory),
                      I(g->config.dynamic_shared_memory),
                      S(gpu)});
  }
  return t;
}

class LaunchSizesSkill final : public Skill {
 public:
  std::string name() const override { return "launch_sizes"; }
  std::string description() const override {
    return "Kernel launches by size: grid blocks and threads per block next to the GPU's SM count, with each "
           "configuration's share of its process's GPU span.";
  }
  std::vector<ArgSpec> args() const override {
    return {LimitArg(20, "Rows, largest time first (0 = all)."), FamilyArg()};
  }
  engine::Need needs() const override { return engine::Need::kKernels | engine::Need::kMemcpy | engine::Need::kMemset; }

  Expected<Table> run(const Context& ctx) const override {
    const engine::Profile& p = ctx.profile;
    if (!p.info().caps.kernels) return Declined("This profile has no CUDA kernels, so no launch to size.");
    // The (pid, device) spans, as time_budget and NVIDIA's rules count them.
    auto spans = GpuOpGroups::Scan(p, ctx.filter, GpuOpsOptions{.overhead = false}, ctx.cancel);
    if (!spans) return spans.error();
    std::map<std::tuple<uint32_t, int32_t, engine::StrId, engine::KernelConfig>, LaunchGroup> groups;
    const engine::KernelTable& k = p.kernels();
    FamilyMatch family(p.strings(), ArgString(ctx, "family"));
    auto [first, last] = RowRange(k, ctx.filter);
    for (size_t i = first; i < last; ++i) {
      if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return CancelledError();
      if (k.start[i] <= 0 || !ctx.filter.AcceptsDevice(k.device[i]) || !ctx.filter.AcceptsProcess(k.pid[i])) continue;
      if (!family(k.name[i])) continue;
      const engine::KernelConfig size = SizeOf(k.Config(i));
      LaunchGroup& g = groups[{k.pid[i], k.device[i], k.name[i], size}];
      g.pid = k.pid[i], g.device = k.device[i], g.name = k.name[i], g.short_name = k.short_name[i];
      g.config = size;
      ++g.calls;
      g.total += std::max<Ns>(0, k.end[i] - k.start[i]);
    }
    std::vector<const LaunchGroup*> order;
    for (const auto& [key, g] : groups) order.push_back(&g);
    std::stable_sort(order.begin(), order.end(),
                     [](const LaunchGroup* a, const LaunchGroup* b) { return a->total > b->total; });
    const int64_t limit = ArgInt(ctx, "limit");
    if (limit > 0 && order.size() > static_cast<size_t>(limit)) order.resize(static_cast<size_t>(limit));

    Table t = RowsOf(p, *spans, order);
    t.notes.push_back(fmt::format(
        "{} launch configurations of {} (process, device) pairs{}.", groups.size(), spans->groups().size(),
        limit > 0 && groups.size() > static_cast<size_t>(limit) ? fmt::format("; the {} with the most time", limit)
                                                                : ""));
    t.notes.push_back(WindowNote(ctx.filter));
    return t;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeLaunchSizes() {
  return std::make_shared<LaunchSizesSkill>();
}

}  // namespace nsys::skills::builtin
