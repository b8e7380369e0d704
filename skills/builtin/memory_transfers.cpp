// memory_transfers: GPU memcpy by direction and memset, with time and size statistics and bandwidth, mirroring
// `nsys stats -r gpumemtimesum` (by=time) and `-r gpumemsizesum` (by=size) in one table.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "common_rows.h"
#include "nsys/skills/summary_table.h"

namespace nsys::skills::builtin {
namespace {

// nsys's operation names: memcpy by copyKind, then memset.
constexpr const char* kOperationNames[] = {"[CUDA memcpy Unknown]",
                                           "[CUDA memcpy HtoD]",
                                           "[CUDA memcpy DtoH]",
                                           "[CUDA memcpy HtoA]",
                                           "[CUDA memcpy AtoH]",
                                           "[CUDA memcpy AtoA]",
                                           "[CUDA memcpy AtoD]",
                                           "[CUDA memcpy DtoA]",
                                           "[CUDA memcpy DtoD]",
                                           "[CUDA memcpy HtoH]",
                                           "[CUDA memcpy PtoP]",
                                           "[CUDA Unified Memory memcpy HtoD]",
                                           "[CUDA Unified Memory memcpy DtoH]",
                                           "[CUDA Unified Memory memcpy DtoD]"};
constexpr uint32_t kMemcpyKinds = 14;
constexpr uint32_t kMemsetOperation = kMemcpyKinds;

struct OperationSummaries {
  std::vector<SampleSummary> times, sizes;
  std::map<uint32_t, int64_t> time_of_device;
  int64_t grand_total = 0;
};

// The selected memcpys and memsets grouped by (device or 0, operation). Rows of both tables share one index
// space: copies first, then memsets.
class OperationGroups {
 public:
  OperationGroups(const engine::MemcpyTable& mc, const engine::MemsetTable& ms, const engine::Filter& filter,
                  bool per_device)
      : mc_(mc), ms_(ms), per_device_(per_device) {
    std::tie(c_first_, c_last_) = RowRange(mc, filter);
    std::tie(s_first_, s_last_) = RowRange(ms, filter);
    n_copies_ = c_last_ - c_first_;
    group_of_row_.assign(n_copies_ + (s_last_ - s_first_), -1);
    auto accept = [&](int32_t device, uint32_t pid) {
      return filter.AcceptsDevice(device) && filter.AcceptsProcess(pid);
    };
    for (size_t i = c_first_; i < c_last_; ++i) {
      if (!accept(mc.device[i], mc.pid[i])) continue;
      const uint32_t op = mc.copy_kind[i] < kMemcpyKinds ? mc.copy_kind[i] : 0;
      group_of_row_[i - c_first_] = groups_.IdOf(PackKey(per_device ? static_cast<uint32_t>(mc.device[i]) : 0, op));
      devices_.Add(mc.device[i]);
    }
    for (size_t i = s_first_; i < s_last_; ++i) {
      if (!accept(ms.device[i], ms.pid[i])) continue;
      group_of_row_[n_copies_ + i - s_first_] =
          groups_.IdOf(PackKey(per_device ? static_cast<uint32_t>(ms.device[i]) : 0, kMemsetOperation));
      devices_.Add(ms.device[i]);
    }
  }

  OperationSummaries Summarize() const {
    auto duration = [&](size_t r) {
      return r < n_copies_ ? mc_.end[c_first_ + r] - mc_.start[c_first_ + r]
                           : ms_.end[s_first_ + r - n_copies_] - ms_.start[s_first_ + r - n_copies_];
    };
    auto bytes = [&](size_t r) {
      return r < n_copies_ ? mc_.bytes[c_first_ + r] : ms_.bytes[s_first_ + r - n_copies_];
    };
    GroupedSamples samples(group_of_row_, groups_.size());
    OperationSummaries out;
    out.times = samples.Summarize(duration);
    out.sizes = samples.Summarize(bytes);
    for (size_t g = 0; g < groups_.size(); ++g) {
      out.grand_total += out.times[g].total;
      out.time_of_device[static_cast<uint32_t>(groups_.key(static_cast<int32_t>(g)) >> 32)] += out.times[g].total;
    }
    return out;
  }

  // By total time (or bytes) descending, then by group key.
  std::vector<size_t> Order(const OperationSummaries& s, bool by_size) const {
    std::vector<size_t> order(groups_.size());
    for (size_t g = 0; g < order.size(); ++g) order[g] = g;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const int64_t ka = by_size ? s.sizes[a].total : s.times[a].total;
      const int64_t kb = by_size ? s.sizes[b].total : s.times[b].total;
      if (ka != kb) return ka > kb;
      return groups_.key(static_cast<int32_t>(a)) < groups_.key(static_cast<int32_t>(b));
    });
    return order;
  }

  std::vector<Value> Row(size_t g, const OperationSummaries& s) const {
    const uint64_t key = groups_.key(static_cast<int32_t>(g));
    const auto device = static_cast<uint32_t>(key >> 32);
    const auto op = static_cast<uint32_t>(key & 0xFFFFFFFF);
    const bool per_device_row = per_device_;
    std::vector<Value> row;
    if (per_device_row) row.push_back(Value(static_cast<int64_t>(static_cast<int32_t>(device))));
    AddTimeSummaryCells(row, s.times[g], per_device_row ? s.time_of_device.at(device) : s.grand_total);
    row.push_back(Value(s.sizes[g].total));
    AddStatCells(row, s.sizes[g]);
    row.push_back(s.times[g].total > 0
                      ? Value(RoundTo(static_cast<double>(s.sizes[g].total) / static_cast<double>(s.times[g].total), 3))
                      : Value());
    row.push_back(Value(std::string(op == kMemsetOperation ? "[CUDA memset]" : kOperationNames[op])));
    return row;
  }

  const DevicesSeen& devices() const { return devices_; }

 private:
  const engine::MemcpyTable& mc_;
  const engine::MemsetTable& ms_;
  size_t c_first_ = 0, c_last_ = 0, s_first_ = 0, s_last_ = 0, n_copies_ = 0;
  bool per_device_ = false;
  DenseIndex groups_;
  std::vector<int32_t> group_of_row_;
  DevicesSeen devices_;
};

class MemoryTransfers final : public Skill {
 public:
  std::string name() const override { return "memory_transfers"; }
  std::string description() const override {
    return "GPU memcpy by direction and memset: time and size statistics and bandwidth (nsys stats gpumemtimesum + "
           "gpumemsizesum).";
  }
  std::string reference() const override { return "gpumemtimesum"; }
  engine::Need needs() const override { return engine::Need::kMemcpy | engine::Need::kMemset; }
  std::vector<ArgSpec> args() const override {
    return {
        {"by",
         ValueType::kString,
         "Row order: \"time\" = by total time, as gpumemtimesum; \"size\" = by total bytes, as gpumemsizesum.",
         Value(std::string("time")),
         false,
         {"time", "size"}},
        {"per_device", ValueType::kBool, "One row per (device, operation) instead of totals over all devices.",
         Value(false)},
    };
  }

  Expected<Table> run(const Context& ctx) const override {
    const engine::ProfileInfo& info = ctx.profile.info();
    if (!info.caps.memcpy && !info.caps.memset) {
      return Declined(
          "This profile has no GPU memory operation data (no CUPTI_ACTIVITY_KIND_MEMCPY or _MEMSET table): memory "
          "transfers were not traced.");
    }
    const bool by_size = ArgString(ctx, "by") == "size";
    const bool per_device = ArgBool(ctx, "per_device");
    OperationGroups groups(ctx.profile.memcpys(), ctx.profile.memsets(), ctx.filter, per_device);
    if (ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    const OperationSummaries summaries = groups.Summarize();
    const std::vector<size_t> order = groups.Order(summaries, by_size);

    Table table = EmptyTable(per_device);
    for (size_t g : order) table.rows.push_back(groups.Row(g, summaries));
    AddNotes(table, info, by_size, per_device, summaries.grand_total, groups.devices());
    if (order.empty()) table.notes.push_back("No memory operations start inside the selected window and filters.");
    return table;
  }

 private:
  static Table EmptyTable(bool per_device) {
    Table table;
    if (per_device) table.columns.push_back(MakeColumn("device", ValueType::kInt, "CUDA device id"));
    AddTimeSummaryColumns(table.columns, "count", "operations");
    table.columns.push_back(MakeColumn("total_bytes", ValueType::kInt, "Summed size of the operations, bytes"));
    AddStatColumns(table.columns, "", "_bytes", "operation sizes, bytes");
    table.columns.push_back(
        MakeColumn("bandwidth_gb_s", ValueType::kDouble, "total_bytes / total_time_ns, in GB/s (1 GB = 1e9 bytes)"));
    table.columns.push_back(MakeColumn("operation", ValueType::kString, "Copy direction, or [CUDA memset]"));
    return table;
  }

  static void AddNotes(Table& table, const engine::ProfileInfo& info, bool by_size, bool per_device,
                       int64_t grand_total, const DevicesSeen& devices) {
    table.notes.push_back(fmt::format(
        "GPU memory operations: memcpy grouped by direction, memset as \"[CUDA memset]\"; rows ordered by total {} "
        "(by=\"{}\", as nsys stats {}). One table holds both reports: the time columns are gpumemtimesum's, the "
        "*_bytes columns gpumemsizesum's in bytes (nsys prints MB = 1e6 bytes). time_pct is a share of the summed "
        "operation time of all rows ({} ns). bandwidth_gb_s = total_bytes / total_time_ns.",
        by_size ? "bytes" : "time", by_size ? "size" : "time", by_size ? "gpumemsizesum" : "gpumemtimesum",
        grand_total));
    if (devices.Count() > 1 && !per_device) {
      table.notes.push_back(fmt::format(
          "Totals add up operations on devices {} (as nsys stats does); pass per_device=true for one row per device, "
          "or device=N.",
          devices.List()));
    }
    if (!info.caps.memcpy) table.notes.push_back("The profile has no memcpy table; only memsets are listed.");
    if (!info.caps.memset) table.notes.push_back("The profile has no memset table; only memcpys are listed.");
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeMemoryTransfers() {
  return std::make_shared<MemoryTransfers>();
}

}  // namespace nsys::skills::builtin
