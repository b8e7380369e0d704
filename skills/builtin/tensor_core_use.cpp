// tensor_core_use: kernel time per device by what the kernels are (category, precision) and whether they run on
// tensor cores, all decoded from kernel names (kernel_names.h). Feeds the Book's "low tensor-core use" root cause:
// fp32 GEMMs on CUDA cores of a GPU whose tensor cores would take TF32.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common_gpu_ops.h"
#include "common_rows.h"
#include "nsys/skills/kernel_names.h"

namespace nsys::skills::builtin {
namespace {

// What a group is keyed by: the decoded (category, precision, tensor cores) of a name.
struct Kind {
  std::string category, precision, tensor_cores;
  auto operator<=>(const Kind&) const = default;
};

struct Group {
  int64_t kernels = 0;
  int64_t gpu_ns = 0;
  std::map<engine::StrId, int64_t> ns_by_name;  // for the group's top kernel; few distinct names per group
};

class TensorCoreUse final : public Skill {
 public:
  std::string name() const override { return "tensor_core_use"; }
  std::string description() const override {
    return "Kernel time per device by category (gemm, attention, ...), precision and tensor-core use, decoded from "
           "kernel names.";
  }
  engine::Need needs() const override { return engine::Need::kKernelRows; }

  Expected<Table> run(const Context& ctx) const override {
    if (!ctx.profile.info().caps.kernels) {
      return Declined(
          "This profile has no CUDA kernel data (no CUPTI_ACTIVITY_KIND_KERNEL table): kernels were not traced, so "
          "there are no kernel names to read tensor-core use from.");
    }
    const engine::KernelTable& k = ctx.profile.kernels();
    const engine::StringPool& strings = ctx.profile.strings();
    // Each distinct name is decoded once; rows then cost a vector lookup.
    std::vector<int32_t> kind_of_name(strings.size(), -1);
    std::vector<Kind> kinds;
    std::map<Kind, int32_t> kind_ids;
    std::map<std::pair<int32_t, int32_t>, Group> groups;  // (device, kind)
    std::map<int32_t, int64_t> device_ns;
    auto [first, last] = RowRange(k, ctx.filter);
    for (size_t i = first; i < last; ++i) {
      if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return CancelledError();
      if (!ctx.filter.AcceptsDevice(k.device[i]) || !ctx.filter.AcceptsProcess(k.pid[i])) continue;
      const engine::StrId name = k.name[i];
      if (name >= kind_of_name.size()) kind_of_name.resize(static_cast<size_t>(name) + 1, -1);
      int32_t& kind = kind_of_name[name];
      if (kind < 0) {
        const KernelIdentity id = DecodeKernelName(strings.view(name));
        Kind key{id.category, id.precision, std::string(TensorCoreWord(id.tensor_cores))};
        auto [it, added] = kind_ids.try_emplace(key, static_cast<int32_t>(kinds.size()));
        if (added) kinds.push_back(key);
        kind = it->second;
      }
      const int64_t ns = k.end[i] - k.start[i];
      Group& g = groups[{k.device[i], kind}];
      ++g.kernels;
      g.gpu_ns += ns;
      g.ns_by_name[name] += ns;
      device_ns[k.device[i]] += ns;
    }
    Table table = EmptyTable();
    std::vector<std::tuple<int32_t, int64_t, int32_t>> order;  // device, -gpu_ns, kind
    for (const auto& [key, g] : groups) order.emplace_back(key.first, -g.gpu_ns, key.second);
    std::sort(order.begin(), order.end());
    for (const auto& [device, neg_ns, kind] : order) {
      const Group& g = groups.at({device, kind});
      const Kind& kd = kinds[static_cast<size_t>(kind)];
      const auto top = std::max_element(g.ns_by_name.begin(), g.ns_by_name.end(),
                                        [](const auto& a, const auto& b) { return a.second < b.second; });
      const int64_t total = device_ns.at(device);
      table.rows.push_back({I(device), S(kd.category), S(kd.precision), S(kd.tensor_cores), I(g.kernels), I(g.gpu_ns),
                            D(total > 0 ? static_cast<double>(g.gpu_ns) / static_cast<double>(total) : 0.0),
                            S(std::string(strings.view(top->first)))});
    }
    AddNotes(ctx, table, groups, kinds);
    return table;
  }

 private:
  static Table EmptyTable() {
    Table t;
    t.columns = {IntCol("device_id", "CUDA device"),
                 StringCol("category",
                           "gemm, conv, attention, elementwise, reduction, softmax, norm, collective, "
                           "copy or other, decoded from the kernel name"),
                 StringCol("precision",
                           "fp16, bf16, fp32, tf32, fp8, int8, fp64, ... or empty when the name does not "
                           "say"),
                 StringCol("tensor_cores", "yes, no, or unknown when the name does not say"),
                 IntCol("kernels", "kernel executions"),
                 IntCol("gpu_ns", "summed kernel time (ns)"),
                 DoubleCol("share", "share of the device's kernel time (0..1)"),
                 StringCol("top_kernel", "the group's kernel with the most time")};
    return t;
  }

  static void AddNotes(const Context& ctx, Table& table, const std::map<std::pair<int32_t, int32_t>, Group>& groups,
                       const std::vector<Kind>& kinds) {
    table.notes.push_back(
        "Categories, precisions and tensor-core use are read from kernel names, where libraries encode them (cuBLAS "
        "xmma/nvjet, CUTLASS, FlashAttention, cuDNN, PyTorch, Triton, nvFuser, NCCL); \"unknown\" means the name does "
        "not say. share is of the device's summed kernel time.");
    const std::vector<GpuArch> gpus = ReadGpuArch(ctx.profile, ctx.cancel);
    std::map<int32_t, const GpuArch*> by_device;
    for (const GpuArch& g : gpus) by_device[g.device] = &g;
    std::map<int32_t, int64_t> fp32_gemm_ns;
    for (const auto& [key, g] : groups) {
      const Kind& kd = kinds[static_cast<size_t>(key.second)];
      if (kd.category == "gemm" && kd.precision == "fp32" && kd.tensor_cores == "no")
        fp32_gemm_ns[key.first] += g.gpu_ns;
    }
    std::set<int32_t> devices;
    for (const auto& [key, g] : groups) devices.insert(key.first);
    for (int32_t d : devices) {
      auto it = by_device.find(d);
      if (it == by_device.end()) {
        table.notes.push_back(fmt::format(
            "Device {}: the export has no GPU details (TARGET_INFO_GPU), so whether its tensor cores could take more "
            "of this work is not known.",
            d));
        continue;
      }
      const GpuArch& g = *it->second;
      std::string note = fmt::format("Device {} ({}) has {}.", d, g.name, TensorCoreSupport(g));
      const int cc = g.compute_major * 10 + g.compute_minor;
      if (cc >= 80 && fp32_gemm_ns.count(d) && fp32_gemm_ns[d] > 0) {
        note += fmt::format(
            " {} of fp32 GEMMs ran on CUDA cores: TF32 (e.g. torch.backends.cuda.matmul.allow_tf32 = True) or "
            "bf16/fp16 would run them on tensor cores.",
            FormatDuration(fp32_gemm_ns[d]));
      }
      table.notes.push_back(note);
    }
    table.notes.push_back(WindowNote(ctx.filter));
    if (table.rows.empty()) table.notes.push_back("No kernels start inside the selected window and filters.");
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeTensorCoreUse() {
  return std::make_shared<TensorCoreUse>();
}

}  // namespace nsys::skills::builtin
