// top_kernels: GPU kernels summarised by name, mirroring `nsys stats -r gpukernsum` (cuda_gpu_kern_sum).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common_rows.h"
#include "nsys/skills/summary_table.h"

namespace nsys::skills::builtin {
namespace {

struct Grouping {
  bool base;        // by short name instead of demangled name
  bool per_device;  // one group per (device, kernel)
  bool by_config;   // also by grid and block dimensions
};

// Percentages are shares of the rows listed: of everything, or of the row's device when per device.
struct Totals {
  std::map<int32_t, int64_t> of_device;
  int64_t grand = 0;
};

// The selected kernels grouped by (device-and-config id, name id). The config index maps grid/block tuples to
// small ids only when asked for, so the default path is one hash probe per row.
class KernelGroups {
 public:
  KernelGroups(const engine::KernelTable& k, const Grouping& how, std::pair<size_t, size_t> rows)
      : k_(k),
        how_(how),
        names_(how.base ? k.short_name : k.name),
        first_(rows.first),
        last_(rows.second),
        group_of_row_(last_ - first_, -1) {}

  // False when cancelled.
  bool Build(const engine::Filter& filter, const CancelToken& cancel) {
    for (size_t i = first_; i < last_; ++i) {
      if ((i & 0xFFFF) == 0 && cancel.cancelled()) return false;
      if (!filter.AcceptsDevice(k_.device[i])) continue;
      if (!filter.AcceptsProcess(k_.pid[i])) continue;
      const uint32_t config = how_.by_config ? ConfigOf(i) : 0;
      const uint32_t device = how_.per_device ? static_cast<uint32_t>(k_.device[i]) : 0;
      const uint32_t hi = (how_.by_config || how_.per_device)
                              ? static_cast<uint32_t>(device_configs_.IdOf(PackKey(config, device)))
                              : 0;
      const int32_t g = groups_.IdOf(PackKey(hi, names_[i]));
      if (static_cast<size_t>(g) == representative_.size()) representative_.push_back(i);
      group_of_row_[i - first_] = g;
      devices_.Add(k_.device[i]);
    }
    return true;
  }

  std::vector<SampleSummary> Summarize() const {
    return SummarizeGroups(group_of_row_, groups_.size(),
                           [&](size_t r) { return k_.end[first_ + r] - k_.start[first_ + r]; });
  }

  Totals TotalsOf(const std::vector<SampleSummary>& summaries) const {
    Totals totals;
    for (size_t g = 0; g < summaries.size(); ++g) {
      totals.grand += summaries[g].total;
      totals.of_device[k_.device[representative_[g]]] += summaries[g].total;
    }
    return totals;
  }

  std::vector<size_t> LongestFirst(const std::vector<SampleSummary>& summaries) const {
    std::vector<size_t> order(summaries.size());
    for (size_t g = 0; g < order.size(); ++g) order[g] = g;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (summaries[a].total != summaries[b].total) return summaries[a].total > summaries[b].total;
      return representative_[a] < representative_[b];
    });
    return order;
  }

  std::vector<Value> Row(size_t g, const SampleSummary& summary, const Totals& totals,
                         const engine::StringPool& strings) const {
    const size_t r = representative_[g];
    std::vector<Value> row;
    if (how_.per_device) row.push_back(Value(int64_t{k_.device[r]}));
    AddTimeSummaryCells(row, summary, how_.per_device ? totals.of_device.at(k_.device[r]) : totals.grand);
    if (how_.by_config) {
      const engine::KernelConfig& c = k_.Config(r);
      row.push_back(Value(fmt::format("{:4d} {:4d} {:4d}", c.grid_x, c.grid_y, c.grid_z)));
      row.push_back(Value(fmt::format("{:4d} {:4d} {:4d}", c.block_x, c.block_y, c.block_z)));
    }
    row.push_back(Value(std::string(strings.view(names_[r]))));
    if (!how_.base) row.push_back(Value(std::string(strings.view(k_.short_name[r]))));
    return row;
  }

  const DevicesSeen& devices() const { return devices_; }

 private:
  // The dense id of row i's grid/block tuple. Tuples are keyed by a hash; a collision between different tuples
  // moves on to the next key, so ids stay exact.
  uint32_t ConfigOf(size_t i) {
    const engine::KernelConfig& c = k_.Config(i);
    const std::array<int32_t, 6> dims{c.grid_x, c.grid_y, c.grid_z, c.block_x, c.block_y, c.block_z};
    uint64_t h = 1469598103934665603ull;
    for (int32_t d : dims) h = (h ^ static_cast<uint32_t>(d)) * 1099511628211ull;
    for (uint64_t probe = h;; ++probe) {
      const int32_t found = configs_.Find(probe);
      if (found < 0) {
        config_dims_.push_back(dims);
        return static_cast<uint32_t>(configs_.IdOf(probe));
      }
      if (config_dims_[static_cast<size_t>(found)] == dims) return static_cast<uint32_t>(found);
    }
  }

  const engine::KernelTable& k_;
  const Grouping how_;
  const engine::Column<engine::StrId>& names_;
  size_t first_, last_;
  DenseIndex groups_;
  DenseIndex configs_;
  DenseIndex device_configs_;
  std::vector<std::array<int32_t, 6>> config_dims_;
  std::vector<int32_t> group_of_row_;
  std::vector<size_t> representative_;
  DevicesSeen devices_;
};

class TopKernels final : public Skill {
 public:
  std::string name() const override { return "top_kernels"; }
  std::string description() const override {
    return "CUDA kernels by total GPU time: instances, average, median, min, max, stddev (nsys stats gpukernsum).";
  }
  std::string reference() const override { return "gpukernsum"; }
  // Kernel rows only: a summary by name never looks at launches, so it does not wait for the runtime table.
  engine::Need needs() const override { return engine::Need::kKernelRows | engine::Need::kKernelConfig; }
  // The launch configurations only when grouped by them.
  engine::Need needs_for(const Args& args) const override {
    return FlagIn(args, "by_launch_config") ? needs() : engine::Need::kKernelRows;
  }
  std::vector<ArgSpec> args() const override {
    return {
        {"base", ValueType::kBool,
         "Group by the kernel's short (base) name instead of its demangled name, like "
         "gpukernsum:base.",
         Value(false)},
        LimitArg(0, "Show only the first N rows (0 = all). Percentages stay shares of all rows."),
        {"per_device", ValueType::kBool, "One row per (device, kernel) instead of totals over all devices.",
         Value(false)},
        {"by_launch_config", ValueType::kBool,
         "Also group by grid and block dimensions, exactly as nsys 2022.4 "
         "gpukernsum does (adds gridxyz and blockxyz columns).",
         Value(false)},
    };
  }

  Expected<Table> run(const Context& ctx) const override {
    if (!ctx.profile.info().caps.kernels) {
      return Declined(
          "This profile has no CUDA kernel data (no CUPTI_ACTIVITY_KIND_KERNEL table): kernels were not traced, so "
          "there is nothing to summarise.");
    }
    const Grouping how{ArgBool(ctx, "base"), ArgBool(ctx, "per_device"), ArgBool(ctx, "by_launch_config")};
    const int64_t limit = ArgInt(ctx, "limit");

    const engine::KernelTable& k = ctx.profile.kernels();
    KernelGroups groups(k, how, RowRange(k, ctx.filter));
    if (!groups.Build(ctx.filter, ctx.cancel)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    const std::vector<SampleSummary> summaries = groups.Summarize();
    const Totals totals = groups.TotalsOf(summaries);
    const std::vector<size_t> order = groups.LongestFirst(summaries);

    Table table = EmptyTable(how);
    const size_t shown = limit > 0 ? std::min(order.size(), static_cast<size_t>(limit)) : order.size();
    for (size_t n = 0; n < shown; ++n) {
      table.rows.push_back(groups.Row(order[n], summaries[order[n]], totals, ctx.profile.strings()));
    }
    AddNotes(table, how, totals.grand, groups.devices());
    if (shown < order.size())
      table.notes.push_back(fmt::format("Showing the first {} of {} rows.", shown, order.size()));
    if (order.empty()) table.notes.push_back("No kernels start inside the selected window and filters.");
    return table;
  }

 private:
  static Table EmptyTable(const Grouping& how) {
    Table table;
    if (how.per_device) table.columns.push_back(MakeColumn("device", ValueType::kInt, "CUDA device id"));
    AddTimeSummaryColumns(table.columns, "instances", "instances of the kernel");
    if (how.by_config) {
      table.columns.push_back(MakeColumn("gridxyz", ValueType::kString, "Grid dimensions, as nsys prints them"));
      table.columns.push_back(MakeColumn("blockxyz", ValueType::kString, "Block dimensions, as nsys prints them"));
    }
    table.columns.push_back(
        MakeColumn("name", ValueType::kString, how.base ? "Kernel short (base) name" : "Kernel demangled name"));
    if (!how.base) table.columns.push_back(MakeColumn("short_name", ValueType::kString, "Kernel short (base) name"));
    return table;
  }

  static void AddNotes(Table& table, const Grouping& how, int64_t grand_total, const DevicesSeen& devices) {
    table.notes.push_back(fmt::format(
        "Kernels grouped by {}{}. time_pct is each row's share of the summed kernel time of all rows{} ({} ns), not "
        "of wall time: kernels on concurrent streams or devices can sum to more than the elapsed time.",
        how.base ? "short (base) name" : "demangled name", how.by_config ? " and grid/block dimensions" : "",
        how.per_device ? " of the same device" : "", grand_total));
    if (devices.Count() > 1 && !how.per_device) {
      table.notes.push_back(fmt::format(
          "Totals add up kernels from devices {} (as nsys stats does); pass per_device=true for one row per device, "
          "or device=N for one device.",
          devices.List()));
    }
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeTopKernels() {
  return std::make_shared<TopKernels>();
}

}  // namespace nsys::skills::builtin
