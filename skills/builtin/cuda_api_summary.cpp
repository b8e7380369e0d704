// cuda_api_summary: CUDA runtime/driver API calls by name, mirroring `nsys stats -r cudaapisum`.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common_host_sync.h"
#include "common_rows.h"
#include "nsys/skills/summary_table.h"

namespace nsys::skills::builtin {
namespace {

class CudaApiSummary final : public Skill {
 public:
  std::string name() const override { return "cuda_api_summary"; }
  std::string description() const override {
    return "CUDA API calls by total CPU time: calls, average, median, min, max, stddev (nsys stats cudaapisum).";
  }
  std::string reference() const override { return "cudaapisum"; }
  // The synchronization records classify the calls that waited (sync_kind).
  engine::Need needs() const override { return engine::Need::kRuntime | engine::Need::kSync; }
  std::vector<ArgSpec> args() const override {
    return {LimitArg(0, "Show only the first N rows (0 = all). Percentages stay shares of all rows.")};
  }

  Expected<Table> run(const Context& ctx) const override {
    const engine::ProfileInfo& info = ctx.profile.info();
    if (!info.caps.runtime) {
      return Declined(
          "This profile has no CUDA API data (no CUPTI_ACTIVITY_KIND_RUNTIME table): CUDA API calls were not traced.");
    }
    const int64_t limit = ArgInt(ctx, "limit");

    const engine::RuntimeTable& rt = ctx.profile.runtime();
    const engine::StringPool& strings = ctx.profile.strings();
    const auto range = RowRange(rt, ctx.filter);
    const auto first = range.first;
    const auto last = range.second;

    // Name ids map to groups once each: several ids can share a name once the version suffix is removed.
    std::vector<int32_t> group_of_name(strings.size(), -1);
    std::unordered_map<std::string_view, int32_t> group_of_text;
    std::vector<std::string_view> group_text;
    std::vector<int32_t> group_of_row(last - first, -1);
    HostSyncCalls host_sync(rt, info.caps.sync ? &ctx.profile.syncs() : nullptr, strings);
    std::vector<HostSync> group_sync;  // the first kind seen among a group's calls
    for (size_t i = first; i < last; ++i) {
      if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
      if (!ctx.filter.AcceptsProcess(rt.pid[i])) continue;
      const engine::StrId id = rt.name[i];
      if (id >= group_of_name.size()) group_of_name.resize(static_cast<size_t>(id) + 1, -1);
      int32_t& g = group_of_name[id];
      if (g < 0) {
        const std::string_view text = StripApiVersionSuffix(strings.view(id));
        auto [it, inserted] = group_of_text.try_emplace(text, static_cast<int32_t>(group_text.size()));
        if (inserted) {
          group_text.push_back(text);
          group_sync.push_back(HostSync::kNone);
        }
        g = it->second;
      }
      group_of_row[i - first] = g;
      HostSync& kind = group_sync[static_cast<size_t>(g)];
      if (kind == HostSync::kNone) kind = host_sync.Of(i);
    }
    const std::vector<SampleSummary> summaries = SummarizeGroups(
        group_of_row, group_text.size(), [&](size_t r) { return rt.end[first + r] - rt.start[first + r]; });
    int64_t grand_total = 0;
    for (const auto& s : summaries) grand_total += s.total;
    std::vector<size_t> order(summaries.size());
    for (size_t g = 0; g < order.size(); ++g) order[g] = g;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (summaries[a].total != summaries[b].total) return summaries[a].total > summaries[b].total;
      return group_text[a] < group_text[b];
    });

    Table table;
    AddTimeSummaryColumns(table.columns, "num_calls", "calls");
    table.columns.push_back(MakeColumn("name", ValueType::kString, "API function name"));
    table.columns.push_back(MakeColumn("sync_kind", ValueType::kString,
                                       "What the call waits for when it blocks the host until GPU work completes "
                                       "(context, stream, event, other); empty for calls that do not"));
    const size_t shown = limit > 0 ? std::min(order.size(), static_cast<size_t>(limit)) : order.size();
    for (size_t n = 0; n < shown; ++n) {
      std::vector<Value> row;
      AddTimeSummaryCells(row, summaries[order[n]], grand_total);
      row.push_back(Value(std::string(group_text[order[n]])));
      row.push_back(Value(std::string(HostSyncName(group_sync[order[n]]))));
      table.rows.push_back(std::move(row));
    }
    table.notes.push_back(fmt::format(
        "CUDA runtime and driver API calls on CPU threads, grouped by name (a \"_vNNNN\" version suffix is dropped as "
        "nsys does). time_pct is a share of the summed call time of all rows ({} ns), not of wall time.",
        grand_total));
    const char* kList =
        "NVIDIA's list of synchronizing runtime and driver calls (deprecated names such as cudaThreadSynchronize "
        "included)";
    table.notes.push_back(
        host_sync.from_records()
            ? fmt::format("sync_kind names the calls that block the host until GPU work completes, by the CUPTI "
                          "synchronization record nsys correlated to each call, else by {}.",
                          kList)
            : fmt::format("sync_kind names the calls that block the host until GPU work completes, by {}: this "
                          "export recorded no synchronization activity.",
                          kList));
    if (!ctx.filter.devices.empty()) {
      table.notes.push_back(
          "API calls run on CPU threads and carry no device, so the device filter does not apply "
          "to them; all calls in the window are counted.");
    }
    if (shown < order.size())
      table.notes.push_back(fmt::format("Showing the first {} of {} rows.", shown, order.size()));
    if (order.empty()) table.notes.push_back("No CUDA API calls start inside the selected window and filters.");
    return table;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeCudaApiSummary() {
  return std::make_shared<CudaApiSummary>();
}

}  // namespace nsys::skills::builtin
