// cuda_api_summary: CUDA runtime/driver API calls by name, mirroring `nsys stats -r cudaapisum`.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common_api_class.h"
#include "common_host_sync.h"
#include "common_rows.h"
#include "nsys/skills/summary_table.h"

namespace nsys::skills::builtin {
namespace {

// The calls grouped by name without nsys's version suffix (several name ids can share one), each row's group and
// what each group's calls wait for (the first kind seen among them).
class CallGroups {
 public:
  CallGroups(const engine::RuntimeTable& rt, const engine::SyncTable* syncs, const engine::StringPool& strings)
      : host_sync(rt, syncs, strings), rt_(rt), strings_(strings), group_of_name_(strings.size(), -1) {}

  // Rows [first, last) of the filter's processes; false when cancelled.
  bool Collect(const Context& ctx, size_t first, size_t last) {
    group_of_row.assign(last - first, -1);
    for (size_t i = first; i < last; ++i) {
      if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return false;
      if (!ctx.filter.AcceptsProcess(rt_.pid[i])) continue;
      const int32_t g = GroupOf(rt_.name[i]);
      group_of_row[i - first] = g;
      HostSync& kind = sync[static_cast<size_t>(g)];
      if (kind == HostSync::kNone) kind = host_sync.Of(i);
    }
    return true;
  }

  HostSyncCalls host_sync;
  std::vector<int32_t> group_of_row;
  std::vector<std::string_view> text;
  std::vector<HostSync> sync;

 private:
  int32_t GroupOf(engine::StrId id) {
    if (id >= group_of_name_.size()) group_of_name_.resize(static_cast<size_t>(id) + 1, -1);
    int32_t& g = group_of_name_[id];
    if (g < 0) {
      const std::string_view name = StripApiVersionSuffix(strings_.view(id));
      auto [it, inserted] = group_of_text_.try_emplace(name, static_cast<int32_t>(text.size()));
      if (inserted) {
        text.push_back(name);
        sync.push_back(HostSync::kNone);
      }
      g = it->second;
    }
    return g;
  }

  const engine::RuntimeTable& rt_;
  const engine::StringPool& strings_;
  std::vector<int32_t> group_of_name_;
  std::unordered_map<std::string_view, int32_t> group_of_text_;
};

std::string SyncKindNote(bool from_records) {
  const char* list =
      "NVIDIA's list of synchronizing runtime and driver calls (deprecated names such as cudaThreadSynchronize "
      "included)";
  return from_records ? fmt::format(
                            "sync_kind names the calls that block the host until GPU work completes, by the "
                            "CUPTI synchronization record nsys correlated to each call, else by {}.",
                            list)
                      : fmt::format(
                            "sync_kind names the calls that block the host until GPU work completes, by {}: "
                            "this export recorded no synchronization activity.",
                            list);
}

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

    CallGroups groups(rt, info.caps.sync ? &ctx.profile.syncs() : nullptr, strings);
    if (!groups.Collect(ctx, first, last)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    const std::vector<int32_t>& group_of_row = groups.group_of_row;
    const std::vector<std::string_view>& group_text = groups.text;
    const std::vector<HostSync>& group_sync = groups.sync;
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
    table.columns.push_back(MakeColumn("api_class", ValueType::kString,
                                       "What the call does (sync, alloc, free, module, setup, launch, memcpy, memset; "
                                       "empty for others), by NVIDIA's API reference"));
    const size_t shown = limit > 0 ? std::min(order.size(), static_cast<size_t>(limit)) : order.size();
    for (size_t n = 0; n < shown; ++n) {
      std::vector<Value> row;
      AddTimeSummaryCells(row, summaries[order[n]], grand_total);
      row.push_back(Value(std::string(group_text[order[n]])));
      row.push_back(Value(std::string(HostSyncName(group_sync[order[n]]))));
      row.push_back(Value(std::string(ApiClassName(ApiClassOfName(group_text[order[n]])))));
      table.rows.push_back(std::move(row));
    }
    table.notes.push_back(fmt::format(
        "CUDA runtime and driver API calls on CPU threads, grouped by name (a \"_vNNNN\" version suffix is dropped as "
        "nsys does). time_pct is a share of the summed call time of all rows ({} ns), not of wall time.",
        grand_total));
    table.notes.push_back(SyncKindNote(groups.host_sync.from_records()));
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
