// nvtx_summary: NVTX ranges by name and style, mirroring `nsys stats -r nvtxsum`, plus exclusive time (the range
// minus its direct children) as extra columns after NVIDIA's.
#include <fmt/format.h>

#include <algorithm>

#include "common_rows.h"
#include "nsys/skills/huge_pages.h"
#include "nsys/skills/nvtx_labels.h"
#include "nsys/skills/summary_table.h"

namespace nsys::skills::builtin {
namespace {

// The selected ranges grouped by (label, style), through a dense vector over label * 2 + style: no hashing per row.
// Exclusive time per group is its total minus the durations of the direct children of its ranges, so the same pass
// adds each range's duration to its parent's group (parents precede children; children start inside their
// parent, so rows up to the window's end plus the longest range hold every child of a selected range).
class RangeGroups {
 public:
  RangeGroups(const engine::NvtxTable& nvtx, NvtxLabels& labels, std::pair<size_t, size_t> rows)
      : nvtx_(nvtx), labels_(labels), first_(rows.first), last_(rows.second), group_of_row_(last_ - first_, -1) {}

  // False when cancelled.
  bool Build(const engine::Filter& filter, const CancelToken& cancel) {
    const size_t scan_end =
        filter.window.whole
            ? nvtx_.size()
            : engine::StartRange(nvtx_, filter.window.begin, filter.window.end + nvtx_.max_duration).second;
    for (size_t i = first_; i < scan_end; ++i) {
      if ((i & 0xFFFF) == 0 && cancel.cancelled()) return false;
      const int32_t p = nvtx_.parent[i];
      if (p >= static_cast<int32_t>(first_) && p < static_cast<int32_t>(last_)) {
        const int32_t parent_group = group_of_row_[static_cast<size_t>(p) - first_];
        if (parent_group >= 0) group_child_time_[static_cast<size_t>(parent_group)] += nvtx_.end[i] - nvtx_.start[i];
      }
      if (i >= last_) continue;
      if (!filter.AcceptsProcess(nvtx_.pid[i])) continue;
      group_of_row_[i - first_] = GroupOf(i);
      with_op_id_ += nvtx_.op_id[i] >= 0;
    }
    return true;
  }

  std::vector<SampleSummary> Summarize() const {
    auto duration = [&](size_t r) { return nvtx_.end[first_ + r] - nvtx_.start[first_ + r]; };
    return SummarizeGroups(group_of_row_, group_label_.size(), duration);
  }

  std::vector<Value> Row(size_t g, const SampleSummary& total, int64_t grand_total) const {
    std::vector<Value> row;
    AddTimeSummaryCells(row, total, grand_total);
    row.push_back(Value(std::string(NvtxStyleName(group_style_[g]))));
    row.push_back(Value(labels_.Text(group_label_[g])));
    const int64_t exclusive = total.total - group_child_time_[g];
    row.push_back(Value(exclusive));
    row.push_back(Value(RoundTo(static_cast<double>(exclusive) / static_cast<double>(total.count), 1)));
    return row;
  }

  int64_t with_op_id() const { return with_op_id_; }

 private:
  int32_t GroupOf(size_t i) {
    const int32_t label = labels_.LabelOf(i);
    const size_t slot = static_cast<size_t>(label) * 2 + static_cast<size_t>(nvtx_.style[i]);
    if (slot >= group_of_label_style_.size()) {
      group_of_label_style_.resize(std::max(slot + 1, 2 * group_of_label_style_.size()), -1);
    }
    int32_t& g = group_of_label_style_[slot];
    if (g < 0) {
      g = static_cast<int32_t>(group_label_.size());
      group_label_.push_back(label);
      group_style_.push_back(nvtx_.style[i]);
      group_child_time_.push_back(0);
    }
    return g;
  }

  const engine::NvtxTable& nvtx_;
  NvtxLabels& labels_;
  size_t first_, last_;
  std::vector<int32_t> group_of_label_style_;
  std::vector<int32_t> group_label_;
  std::vector<engine::NvtxStyle> group_style_;
  std::vector<int64_t> group_child_time_;
  HugeVector<int32_t> group_of_row_;  // huge pages: tens of millions of rows
  int64_t with_op_id_ = 0;
};

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
        {"split_op_id", ValueType::kBool,
         "Group PyTorch ranges by their full text (\"aten::mm, op_id = 317126\"), one row per op as nsys does, "
         "instead of by operator name.",
         Value(false)},
        LimitArg(0, "Show only the first N rows (0 = all). Percentages stay shares of all rows."),
    };
  }

  Expected<Table> run(const Context& ctx) const override {
    if (!ctx.profile.info().caps.nvtx) {
      return Declined(
          "This profile has no NVTX data (no NVTX_EVENTS table): the application was not annotated with "
          "NVTX ranges, or NVTX was not traced.");
    }
    const bool split_op_id = ArgBool(ctx, "split_op_id");
    const int64_t limit = ArgInt(ctx, "limit");
    auto labels_or = NvtxLabels::Build(ctx.profile, split_op_id, ctx.cancel);
    if (!labels_or) return labels_or.error();
    NvtxLabels& labels = labels_or.value();

    RangeGroups groups(ctx.profile.nvtx(), labels, RowRange(ctx.profile.nvtx(), ctx.filter));
    if (!groups.Build(ctx.filter, ctx.cancel)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    const std::vector<SampleSummary> totals = groups.Summarize();
    if (ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    int64_t grand_total = 0;
    for (const auto& s : totals) grand_total += s.total;
    const std::vector<size_t> order = LongestFirst(totals);

    Table table = EmptyTable();
    const size_t shown = limit > 0 ? std::min(order.size(), static_cast<size_t>(limit)) : order.size();
    for (size_t n = 0; n < shown; ++n) table.rows.push_back(groups.Row(order[n], totals[order[n]], grand_total));
    AddNotes(ctx, grand_total, groups.with_op_id(), split_op_id, labels, table);
    if (shown < order.size())
      table.notes.push_back(fmt::format("Showing the first {} of {} rows.", shown, order.size()));
    if (order.empty()) table.notes.push_back("No NVTX ranges start inside the selected window and filters.");
    return table;
  }

 private:
  static std::vector<size_t> LongestFirst(const std::vector<SampleSummary>& totals) {
    std::vector<size_t> order(totals.size());
    for (size_t g = 0; g < order.size(); ++g) order[g] = g;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (totals[a].total != totals[b].total) return totals[a].total > totals[b].total;
      return a < b;
    });
    return order;
  }

  static Table EmptyTable() {
    Table table;
    AddTimeSummaryColumns(table.columns, "instances", "range instances");
    table.columns.push_back(MakeColumn("style", ValueType::kString, "PushPop or StartEnd"));
    table.columns.push_back(
        MakeColumn("range", ValueType::kString, "Range name (\"<domain>:<text>\" for named domains)"));
    table.columns.push_back(MakeColumn("excl_total_ns", ValueType::kInt,
                                       "Summed exclusive time: each range minus its direct child ranges, ns"));
    table.columns.push_back(MakeColumn("excl_avg_ns", ValueType::kDouble, "Mean exclusive time per instance, ns"));
    return table;
  }

  static void AddNotes(const Context& ctx, int64_t grand_total, int64_t with_op_id, bool split_op_id,
                       const NvtxLabels& labels, Table& table) {
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
    if (!ctx.filter.devices.empty()) {
      table.notes.push_back(
          "NVTX ranges are CPU-side annotations with no device, so the device filter does not apply.");
    }
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeNvtxSummary() {
  return std::make_shared<NvtxSummary>();
}

}  // namespace nsys::skills::builtin
