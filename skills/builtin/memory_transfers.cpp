// memory_transfers: GPU memcpy by direction and memset, with time and size statistics and bandwidth, mirroring
// `nsys stats -r gpumemtimesum` (by=time) and `-r gpumemsizesum` (by=size) in one table.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <map>

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
         ArgType::kString,
         "Row order: \"time\" = by total time, as gpumemtimesum; \"size\" = by total bytes, as gpumemsizesum.",
         Value(std::string("time")),
         false,
         {"time", "size"}},
        {"per_device", ArgType::kBool, "One row per (device, operation) instead of totals over all devices.",
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
    const engine::MemcpyTable& mc = ctx.profile.memcpys();
    const engine::MemsetTable& ms = ctx.profile.memsets();
    const auto c_range = RowRange(mc, ctx.filter);
    const auto c_first = c_range.first;
    const auto c_last = c_range.second;
    const auto s_range = RowRange(ms, ctx.filter);
    const auto s_first = s_range.first;
    const auto s_last = s_range.second;
    const size_t n_copies = c_last - c_first;

    // Rows of both tables in one index space: copies first, then memsets.
    DenseIndex groups;
    std::vector<int32_t> group_of_row(n_copies + (s_last - s_first), -1);
    std::set<int32_t> device_seen;  // by id, not indexed by it: an id may be anything up to 2^31-1
    int32_t last_device = INT32_MIN;
    auto saw_device = [&](int32_t device) {
      if (device != last_device) device_seen.insert(last_device = std::max(0, device));
    };
    auto accept = [&](int32_t device, uint32_t pid) {
      return (!ctx.filter.device || *ctx.filter.device == device) && (!ctx.filter.pid || *ctx.filter.pid == pid);
    };
    for (size_t i = c_first; i < c_last; ++i) {
      if (!accept(mc.device[i], mc.pid[i])) continue;
      const uint32_t op = mc.copy_kind[i] < kMemcpyKinds ? mc.copy_kind[i] : 0;
      group_of_row[i - c_first] = groups.IdOf(PackKey(per_device ? static_cast<uint32_t>(mc.device[i]) : 0, op));
      saw_device(mc.device[i]);
    }
    for (size_t i = s_first; i < s_last; ++i) {
      if (!accept(ms.device[i], ms.pid[i])) continue;
      group_of_row[n_copies + i - s_first] =
          groups.IdOf(PackKey(per_device ? static_cast<uint32_t>(ms.device[i]) : 0, kMemsetOperation));
      saw_device(ms.device[i]);
    }
    if (ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    auto duration = [&](size_t r) {
      return r < n_copies ? mc.end[c_first + r] - mc.start[c_first + r]
                          : ms.end[s_first + r - n_copies] - ms.start[s_first + r - n_copies];
    };
    auto bytes = [&](size_t r) { return r < n_copies ? mc.bytes[c_first + r] : ms.bytes[s_first + r - n_copies]; };
    GroupedSamples samples(group_of_row, groups.size());
    const std::vector<SampleSummary> times = samples.Summarize(duration);
    const std::vector<SampleSummary> sizes = samples.Summarize(bytes);

    std::map<uint32_t, int64_t> time_of_device;
    int64_t grand_total = 0;
    for (size_t g = 0; g < groups.size(); ++g) {
      grand_total += times[g].total;
      time_of_device[static_cast<uint32_t>(groups.key(static_cast<int32_t>(g)) >> 32)] += times[g].total;
    }
    std::vector<size_t> order(groups.size());
    for (size_t g = 0; g < order.size(); ++g) order[g] = g;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const int64_t ka = by_size ? sizes[a].total : times[a].total;
      const int64_t kb = by_size ? sizes[b].total : times[b].total;
      if (ka != kb) return ka > kb;
      return groups.key(static_cast<int32_t>(a)) < groups.key(static_cast<int32_t>(b));
    });

    Table table;
    if (per_device) table.columns.push_back(MakeColumn("device", ColumnType::kInt, "CUDA device id"));
    AddTimeSummaryColumns(table.columns, "count", "operations");
    table.columns.push_back(MakeColumn("total_bytes", ColumnType::kInt, "Summed size of the operations, bytes"));
    AddStatColumns(table.columns, "", "_bytes", "operation sizes, bytes");
    table.columns.push_back(
        MakeColumn("bandwidth_gb_s", ColumnType::kDouble, "total_bytes / total_time_ns, in GB/s (1 GB = 1e9 bytes)"));
    table.columns.push_back(MakeColumn("operation", ColumnType::kString, "Copy direction, or [CUDA memset]"));
    for (size_t g : order) {
      const uint64_t key = groups.key(static_cast<int32_t>(g));
      const auto device = static_cast<uint32_t>(key >> 32);
      const auto op = static_cast<uint32_t>(key & 0xFFFFFFFF);
      std::vector<Value> row;
      if (per_device) row.push_back(Value(static_cast<int64_t>(static_cast<int32_t>(device))));
      AddTimeSummaryCells(row, times[g], per_device ? time_of_device[device] : grand_total);
      row.push_back(Value(sizes[g].total));
      AddStatCells(row, sizes[g]);
      row.push_back(times[g].total > 0
                        ? Value(RoundTo(static_cast<double>(sizes[g].total) / static_cast<double>(times[g].total), 3))
                        : Value());
      row.push_back(Value(std::string(op == kMemsetOperation ? "[CUDA memset]" : kOperationNames[op])));
      table.rows.push_back(std::move(row));
    }

    table.notes.push_back(fmt::format(
        "GPU memory operations: memcpy grouped by direction, memset as \"[CUDA memset]\"; rows ordered by total {} "
        "(by=\"{}\", as nsys stats {}). One table holds both reports: the time columns are gpumemtimesum's, the "
        "*_bytes columns gpumemsizesum's in bytes (nsys prints MB = 1e6 bytes). time_pct is a share of the summed "
        "operation time of all rows ({} ns). bandwidth_gb_s = total_bytes / total_time_ns.",
        by_size ? "bytes" : "time", by_size ? "size" : "time", by_size ? "gpumemsizesum" : "gpumemtimesum",
        grand_total));
    std::string list;
    int devices = 0;
    for (int32_t d : device_seen) {
      list += (list.empty() ? "" : ", ") + std::to_string(d);
      ++devices;
    }
    if (devices > 1 && !per_device) {
      table.notes.push_back(fmt::format(
          "Totals add up operations on devices {} (as nsys stats does); pass per_device=true for one row per device, "
          "or device=N.",
          list));
    }
    if (!info.caps.memcpy) table.notes.push_back("The profile has no memcpy table; only memsets are listed.");
    if (!info.caps.memset) table.notes.push_back("The profile has no memset table; only memcpys are listed.");
    if (order.empty()) table.notes.push_back("No memory operations start inside the selected window and filters.");
    return table;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeMemoryTransfers() {
  return std::make_shared<MemoryTransfers>();
}

}  // namespace nsys::skills::builtin
