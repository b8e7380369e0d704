// top_kernels: GPU kernels summarised by name, mirroring `nsys stats -r gpukernsum` (cuda_gpu_kern_sum).
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <array>
#include <map>

#include "common_rows.h"
#include "nsys/skills/summary_table.h"

namespace nsys::skills::builtin {
namespace {

class TopKernels final : public Skill {
 public:
  std::string name() const override { return "top_kernels"; }
  std::string description() const override {
    return "CUDA kernels by total GPU time: instances, average, median, min, max, stddev (nsys stats gpukernsum).";
  }
  std::string reference() const override { return "gpukernsum"; }
  // Kernel rows only: a summary by name never looks at launches, so it does not wait for the runtime table.
  engine::Need needs() const override { return engine::Need::kKernelRows; }
  std::vector<ArgSpec> args() const override {
    return {
        {"base", ArgType::kBool,
         "Group by the kernel's short (base) name instead of its demangled name, like "
         "gpukernsum:base.",
         Value(false)},
        {"limit", ArgType::kInt, "Show only the first N rows (0 = all). Percentages stay shares of all rows.",
         Value(int64_t{0})},
        {"per_device", ArgType::kBool, "One row per (device, kernel) instead of totals over all devices.",
         Value(false)},
        {"by_launch_config", ArgType::kBool,
         "Also group by grid and block dimensions, exactly as nsys 2022.4 "
         "gpukernsum does (adds gridxyz and blockxyz columns).",
         Value(false)},
    };
  }

  Expected<Table> run(const Context& ctx) const override {
    const engine::ProfileInfo& info = ctx.profile.info();
    if (!info.caps.kernels) {
      return Declined(
          "This profile has no CUDA kernel data (no CUPTI_ACTIVITY_KIND_KERNEL table): kernels were not traced, so "
          "there is nothing to summarise.");
    }
    const bool base = ArgBool(ctx, "base");
    const bool per_device = ArgBool(ctx, "per_device");
    const bool by_config = ArgBool(ctx, "by_launch_config");
    const int64_t limit = ArgInt(ctx, "limit");
    if (limit < 0) return MakeError(ErrorKind::kInvalidArgument, "Argument 'limit' must be 0 (all) or positive.");

    const engine::KernelTable& k = ctx.profile.kernels();
    const auto& names = base ? k.short_name : k.name;
    const auto range = RowRange(k, ctx.filter);
    const auto first = range.first;
    const auto last = range.second;

    // Group key: (device-and-config id, name id). The config index maps grid/block tuples to small ids only
    // when asked for, so the default path is one hash probe per row.
    DenseIndex groups;
    DenseIndex configs;
    DenseIndex device_configs;
    std::vector<std::array<int32_t, 6>> config_dims;
    std::vector<int32_t> group_of_row(last - first, -1);
    std::vector<size_t> representative;
    std::set<int32_t> device_seen;  // by id, not indexed by it: an id may be anything up to 2^31-1
    int32_t last_device = INT32_MIN;
    for (size_t i = first; i < last; ++i) {
      if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
      if (ctx.filter.device && *ctx.filter.device != k.device[i]) continue;
      if (ctx.filter.pid && *ctx.filter.pid != k.pid[i]) continue;
      uint32_t config = 0;
      if (by_config) {
        const std::array<int32_t, 6> dims{k.grid_x[i],  k.grid_y[i],  k.grid_z[i],
                                          k.block_x[i], k.block_y[i], k.block_z[i]};
        // Tuples are keyed by a hash; a collision between different tuples moves on to the next key, so ids stay exact.
        uint64_t h = 1469598103934665603ull;
        for (int32_t d : dims) h = (h ^ static_cast<uint32_t>(d)) * 1099511628211ull;
        for (uint64_t probe = h;; ++probe) {
          const int32_t found = configs.Find(probe);
          if (found < 0) {
            config = static_cast<uint32_t>(configs.IdOf(probe));
            config_dims.push_back(dims);
            break;
          }
          if (config_dims[static_cast<size_t>(found)] == dims) {
            config = static_cast<uint32_t>(found);
            break;
          }
        }
      }
      const uint32_t device = per_device ? static_cast<uint32_t>(k.device[i]) : 0;
      const uint32_t hi =
          (by_config || per_device) ? static_cast<uint32_t>(device_configs.IdOf(PackKey(config, device))) : 0;
      const int32_t g = groups.IdOf(PackKey(hi, names[i]));
      if (static_cast<size_t>(g) == representative.size()) representative.push_back(i);
      group_of_row[i - first] = g;
      if (k.device[i] != last_device) device_seen.insert(last_device = std::max(0, k.device[i]));
    }
    const std::vector<SampleSummary> summaries =
        SummarizeGroups(group_of_row, groups.size(), [&](size_t r) { return k.end[first + r] - k.start[first + r]; });

    // Percentages are shares of the rows listed: of everything, or of the row's device when per device.
    std::map<int32_t, int64_t> total_of_device;
    int64_t grand_total = 0;
    for (size_t g = 0; g < summaries.size(); ++g) {
      grand_total += summaries[g].total;
      total_of_device[k.device[representative[g]]] += summaries[g].total;
    }
    std::vector<size_t> order(summaries.size());
    for (size_t g = 0; g < order.size(); ++g) order[g] = g;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (summaries[a].total != summaries[b].total) return summaries[a].total > summaries[b].total;
      return representative[a] < representative[b];
    });

    Table table;
    if (per_device) table.columns.push_back(MakeColumn("device", ColumnType::kInt, "CUDA device id"));
    AddTimeSummaryColumns(table.columns, "instances", "instances of the kernel");
    if (by_config) {
      table.columns.push_back(MakeColumn("gridxyz", ColumnType::kString, "Grid dimensions, as nsys prints them"));
      table.columns.push_back(MakeColumn("blockxyz", ColumnType::kString, "Block dimensions, as nsys prints them"));
    }
    table.columns.push_back(
        MakeColumn("name", ColumnType::kString, base ? "Kernel short (base) name" : "Kernel demangled name"));
    if (!base) table.columns.push_back(MakeColumn("short_name", ColumnType::kString, "Kernel short (base) name"));

    const size_t shown = limit > 0 ? std::min(order.size(), static_cast<size_t>(limit)) : order.size();
    for (size_t n = 0; n < shown; ++n) {
      const size_t g = order[n];
      const size_t r = representative[g];
      std::vector<Value> row;
      if (per_device) row.push_back(Value(int64_t{k.device[r]}));
      AddTimeSummaryCells(row, summaries[g], per_device ? total_of_device[k.device[r]] : grand_total);
      if (by_config) {
        row.push_back(Value(fmt::format("{:4d} {:4d} {:4d}", k.grid_x[r], k.grid_y[r], k.grid_z[r])));
        row.push_back(Value(fmt::format("{:4d} {:4d} {:4d}", k.block_x[r], k.block_y[r], k.block_z[r])));
      }
      row.push_back(Value(std::string(ctx.profile.strings().view(names[r]))));
      if (!base) row.push_back(Value(std::string(ctx.profile.strings().view(k.short_name[r]))));
      table.rows.push_back(std::move(row));
    }

    table.notes.push_back(fmt::format(
        "Kernels grouped by {}{}. time_pct is each row's share of the summed kernel time of all rows{} ({} ns), not "
        "of wall time: kernels on concurrent streams or devices can sum to more than the elapsed time.",
        base ? "short (base) name" : "demangled name", by_config ? " and grid/block dimensions" : "",
        per_device ? " of the same device" : "", grand_total));
    std::string list;
    int devices = 0;
    for (int32_t d : device_seen) {
      list += (list.empty() ? "" : ", ") + std::to_string(d);
      ++devices;
    }
    if (devices > 1 && !per_device) {
      table.notes.push_back(fmt::format(
          "Totals add up kernels from devices {} (as nsys stats does); pass per_device=true for one row per device, "
          "or device=N for one device.",
          list));
    }
    if (shown < order.size())
      table.notes.push_back(fmt::format("Showing the first {} of {} rows.", shown, order.size()));
    if (order.empty()) table.notes.push_back("No kernels start inside the selected window and filters.");
    return table;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeTopKernels() {
  return std::make_shared<TopKernels>();
}

}  // namespace nsys::skills::builtin
