// nvtx_summary: NVTX ranges by name and style, mirroring `nsys stats -r nvtxsum`, plus exclusive time (the range
// minus its direct children) as extra columns after NVIDIA's.
#include <fmt/format.h>

#include <algorithm>

#include "common_rows.h"
#include "nsys/skills/nvtx_labels.h"
#include "nsys/skills/summary_table.h"

namespace nsys::skills::builtin {
namespace {

class NvtxSummary final : public Skill {
 public:
  std::string name() const override { return "nvtx_summary"; }
  std::string description() const override {
    return "NVTX ranges by name and style: total, instances, average, median, min, max, stddev, and exclusive time "
           "(nsys stats nvtxsum).";
  }
  std::string reference() const override { return "nvtxsum"; }
  engine::Need needs() const override { return engine::Need::kNvtx; }
  std::vector<ArgSpec> args() const override {
    return {
        {"split_op_id", ArgType::kBool,
         "Group PyTorch ranges by their full text (\"aten::mm, op_id = 317126\"), one row per op as nsys does, "
         "instead of by operator name.",
         Value(false)},
        {"limit", ArgType::kInt, "Show only the first N rows (0 = all). Percentages stay shares of all rows.",
         Value(int64_t{0})},
    };
  }

  Expected<Table> run(const Context& ctx) const override {
    const engine::ProfileInfo& info = ctx.profile.info();
    if (!info.caps.nvtx) {
      return Declined(
          "This profile has no NVTX data (no NVTX_EVENTS table): the application was not annotated with "
          "NVTX ranges, or NVTX was not traced.");
    }
    const bool split_op_id = ArgBool(ctx, "split_op_id");
    const int64_t limit = ArgInt(ctx, "limit");
    if (limit < 0) return MakeError(ErrorKind::kInvalidArgument, "Argument 'limit' must be 0 (all) or positive.");
    const engine::NvtxTable& nvtx = ctx.profile.nvtx();
    auto labels_or = NvtxLabels::Build(ctx.profile, split_op_id, ctx.cancel);
    if (!labels_or) return labels_or.error();
    NvtxLabels& labels = labels_or.value();
    const auto range = RowRange(nvtx, ctx.filter);
    const auto first = range.first;
    const auto last = range.second;

    // Group = (label, style), through a dense vector over label * 2 + style: no hashing per row. Exclusive time
    // per group is its total minus the durations of the direct children of its ranges, so the same pass adds each
    // range's duration to its parent's group (parents precede children; children start inside their parent, so
    // rows up to the window's end plus the longest range hold every child of a selected range).
    std::vector<int32_t> group_of_label_style;
    std::vector<int32_t> group_label;
    std::vector<engine::NvtxStyle> group_style;
    std::vector<int64_t> group_child_time;
    std::vector<int32_t> group_of_row(last - first, -1);
    const size_t scan_end =
        ctx.filter.window.whole
            ? nvtx.size()
            : engine::StartRange(nvtx, ctx.filter.window.begin, ctx.filter.window.end + nvtx.max_duration).second;
    int64_t with_op_id = 0;
    for (size_t i = first; i < scan_end; ++i) {
      if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
      const int32_t p = nvtx.parent[i];
      if (p >= static_cast<int32_t>(first) && p < static_cast<int32_t>(last)) {
        const int32_t parent_group = group_of_row[static_cast<size_t>(p) - first];
        if (parent_group >= 0) group_child_time[static_cast<size_t>(parent_group)] += nvtx.end[i] - nvtx.start[i];
      }
      if (i >= last) continue;
      if (ctx.filter.pid && *ctx.filter.pid != nvtx.pid[i]) continue;
      const int32_t label = labels.LabelOf(i);
      const size_t slot = static_cast<size_t>(label) * 2 + static_cast<size_t>(nvtx.style[i]);
      if (slot >= group_of_label_style.size()) {
        group_of_label_style.resize(std::max(slot + 1, 2 * group_of_label_style.size()), -1);
      }
      int32_t& g = group_of_label_style[slot];
      if (g < 0) {
        g = static_cast<int32_t>(group_label.size());
        group_label.push_back(label);
        group_style.push_back(nvtx.style[i]);
        group_child_time.push_back(0);
      }
      group_of_row[i - first] = g;
      with_op_id += nvtx.op_id[i] >= 0;
    }
    auto duration = [&](size_t r) { return nvtx.end[first + r] - nvtx.start[first + r]; };
    const std::vector<SampleSummary> totals = SummarizeGroups(group_of_row, group_label.size(), duration);
    if (ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");

    int64_t grand_total = 0;
    for (const auto& s : totals) grand_total += s.total;
    std::vector<size_t> order(totals.size());
    for (size_t g = 0; g < order.size(); ++g) order[g] = g;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (totals[a].total != totals[b].total) return totals[a].total > totals[b].total;
      return a < b;
    });

    Table table;
    AddTimeSummaryColumns(table.columns, "instances", "range instances");
    table.columns.push_back(MakeColumn("style", ColumnType::kString, "PushPop or StartEnd"));
    table.columns.push_back(
        MakeColumn("range", ColumnType::kString, "Range name (\"<domain>:<text>\" for named domains)"));
    table.columns.push_back(MakeColumn("excl_total_ns", ColumnType::kInt,
                                       "Summed exclusive time: each range minus its direct child ranges, ns"));
    table.columns.push_back(MakeColumn("excl_avg_ns", ColumnType::kDouble, "Mean exclusive time per instance, ns"));
    const size_t shown = limit > 0 ? std::min(order.size(), static_cast<size_t>(limit)) : order.size();
    for (size_t n = 0; n < shown; ++n) {
      const size_t g = order[n];
      std::vector<Value> row;
      AddTimeSummaryCells(row, totals[g], grand_total);
      row.push_back(Value(std::string(NvtxStyleName(group_style[g]))));
      row.push_back(Value(labels.Text(group_label[g])));
      const int64_t exclusive = totals[g].total - group_child_time[g];
      row.push_back(Value(exclusive));
      row.push_back(Value(RoundTo(static_cast<double>(exclusive) / static_cast<double>(totals[g].count), 1)));
      table.rows.push_back(std::move(row));
    }

    table.notes.push_back(fmt::format(
        "NVTX push/pop and start/end ranges grouped by name and style; a range counts when it starts inside the "
        "window. time_pct is a share of the summed duration of all rows ({} ns); nested ranges are each counted in "
        "full, so the sum exceeds wall time. The excl_* columns (total and mean per instance) subtract the time of "
        "each push/pop range's direct children on its thread (start/end ranges are not nested, so their exclusive "
        "time is their duration).",
        grand_total));
    if (with_op_id > 0 && !split_op_id) {
      table.notes.push_back(fmt::format(
          "{} ranges carry a PyTorch \", op_id = N\" suffix; they are grouped by operator name without it. nsys stats "
          "lists each op id separately: pass split_op_id=true to match it.",
          with_op_id));
    }
    if (!labels.warning().empty()) table.notes.push_back(labels.warning());
    if (ctx.filter.device) {
      table.notes.push_back(
          "NVTX ranges are CPU-side annotations with no device, so the device filter does not apply.");
    }
    if (shown < order.size())
      table.notes.push_back(fmt::format("Showing the first {} of {} rows.", shown, order.size()));
    if (order.empty()) table.notes.push_back("No NVTX ranges start inside the selected window and filters.");
    return table;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeNvtxSummary() {
  return std::make_shared<NvtxSummary>();
}

}  // namespace nsys::skills::builtin
