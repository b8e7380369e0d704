// nvtx_summary: NVTX ranges by name and style, mirroring `nsys stats -r nvtxsum`, plus exclusive time (the range
// minus its direct children) as extra columns after NVIDIA's.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common_rows.h"
#include "nsys/skills/nvtx_groups.h"
#include "nsys/skills/nvtx_labels.h"
#include "nsys/skills/summary_table.h"

namespace nsys::skills::builtin {
namespace {

// The selected ranges grouped by (label, style), read from the profile's NvtxGroupIndex: each group's rows starting in
// the window are one slice of its row-ordered list, so its durations are summarised in place (copied only to drop
// rows a process filter rejects), the groups split over two threads when there are millions of values. Exclusive time
// per group is its total minus the durations of the direct children of its selected ranges, from the index's
// per-parent sums.
class RangeGroups {
 public:
  RangeGroups(const engine::NvtxTable& nvtx, const NvtxGroupIndex& index, const engine::Filter& filter,
              std::pair<size_t, size_t> rows)
      : nvtx_(nvtx), index_(index), filter_(filter), first_(rows.first), last_(rows.second) {}

  // False when cancelled.
  bool Build(const CancelToken& cancel) {
    const size_t groups = index_.size();
    slice_.assign(index_.first_piece(groups), {0, 0});
    size_t values = 0;
    for (size_t p = 0; p < slice_.size(); ++p) {
      if (!filter_.AcceptsProcess(index_.pid_of_piece(p))) continue;  // a piece is one thread's
      slice_[p] = index_.Slice(p, first_, last_);
      values += slice_[p].second - slice_[p].first;
    }
    summary_.assign(groups, SampleSummary{});
    first_row_.assign(groups, -1);
    child_time_.assign(groups, 0);
    // Selecting medians is most of the work: halve it by value count on two threads when there are millions.
    constexpr size_t kParallelMin = size_t{1} << 21;
    size_t split = groups;
    if (values >= kParallelMin && groups >= 2) {
      size_t seen = 0;
      for (split = 0; split < groups && seen < values / 2; ++split) {
        for (size_t p = index_.first_piece(split); p < index_.first_piece(split + 1); ++p) {
          seen += slice_[p].second - slice_[p].first;
        }
      }
    }
    bool helper_done = true;
    std::thread helper;
    if (split < groups) helper = std::thread([&] { helper_done = SummarizeGroups(split, groups, cancel); });
    bool done = SummarizeGroups(0, split, cancel);
    if (done) done = AddChildTimes(cancel);
    if (helper.joinable()) helper.join();
    return done && helper_done;
  }

  // The groups with selected ranges, longest total first (ties: the group seen first in the window first).
  std::vector<size_t> LongestFirst() const {
    std::vector<size_t> order;
    for (size_t g = 0; g < summary_.size(); ++g) {
      if (summary_[g].count > 0) order.push_back(g);
    }
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (summary_[a].total != summary_[b].total) return summary_[a].total > summary_[b].total;
      return first_row_[a] < first_row_[b];
    });
    return order;
  }

  std::vector<Value> Row(size_t g, int64_t grand_total) const {
    const SampleSummary& total = summary_[g];
    std::vector<Value> row;
    AddTimeSummaryCells(row, total, grand_total);
    row.push_back(Value(std::string(NvtxStyleName(index_.style(g)))));
    row.push_back(Value(index_.labels().Text(index_.label(g))));
    const int64_t exclusive = total.total - child_time_[g];
    row.push_back(Value(exclusive));
    row.push_back(Value(RoundTo(static_cast<double>(exclusive) / static_cast<double>(total.count), 1)));
    return row;
  }

  int64_t total(size_t g) const { return summary_[g].total; }
  int64_t with_op_id() const { return with_op_id_; }

 private:
  // The summaries of groups [begin, end), each from its pieces' slices in place. False when cancelled.
  bool SummarizeGroups(size_t begin, size_t end, const CancelToken& cancel) {
    std::vector<ValueRun> parts;
    std::vector<int64_t> scratch;
    for (size_t g = begin; g < end; ++g) {
      if ((g & 0xFF) == 0 && cancel.cancelled()) return false;
      parts.clear();
      int32_t first_row = INT32_MAX;
      for (size_t p = index_.first_piece(g); p < index_.first_piece(g + 1); ++p) {
        const auto [lo, hi] = slice_[p];
        if (lo == hi) continue;
        parts.push_back(index_.durations(p).subspan(lo, hi - lo));
        first_row = std::min(first_row, index_.rows(p)[lo]);
      }
      if (parts.empty()) continue;
      first_row_[g] = first_row;
      summary_[g] = SummarizeInPlace(parts, scratch, [&](std::vector<int64_t>& out) { InRowOrder(g, out); });
    }
    return true;
  }

  // Group g's selected durations in row order.
  void InRowOrder(size_t g, std::vector<int64_t>& out) const {
    std::vector<std::pair<int32_t, int64_t>> by_row;
    for (size_t p = index_.first_piece(g); p < index_.first_piece(g + 1); ++p) {
      for (size_t n = slice_[p].first; n < slice_[p].second; ++n)
        by_row.emplace_back(index_.rows(p)[n], index_.durations(p)[n]);
    }
    std::sort(by_row.begin(), by_row.end());
    for (const auto& [row, ns] : by_row) out.push_back(ns);
  }

  // Each selected range's direct children's time, to its group; and the selected ranges with a PyTorch op id. False
  // when cancelled.
  bool AddChildTimes(const CancelToken& cancel) {
    for (size_t g = 0; g < index_.size(); ++g) {
      if ((g & 0xFF) == 0 && cancel.cancelled()) return false;
      const std::span<const int32_t> rows = index_.parent_rows(g);
      const std::span<const int64_t> running = index_.child_ns_running(g);
      const auto lo =
          static_cast<size_t>(std::lower_bound(rows.begin(), rows.end(), static_cast<int32_t>(first_)) - rows.begin());
      const auto hi = static_cast<size_t>(
          std::lower_bound(rows.begin() + static_cast<ptrdiff_t>(lo), rows.end(), static_cast<int32_t>(last_)) -
          rows.begin());
      auto before = [&](size_t k) { return k > 0 ? running[k - 1] : 0; };
      if (filter_.processes.empty()) {
        if (hi > lo) child_time_[g] += running[hi - 1] - before(lo);
        continue;
      }
      for (size_t k = lo; k < hi; ++k) {
        if (filter_.AcceptsProcess(nvtx_.pid[static_cast<size_t>(rows[k])])) child_time_[g] += running[k] - before(k);
      }
    }
    AddLateChildTimes();
    if (filter_.processes.empty()) {
      with_op_id_ = index_.RowsWithOpIdBefore(nvtx_, last_) - index_.RowsWithOpIdBefore(nvtx_, first_);
      return true;
    }
    for (size_t i = first_; i < last_; ++i) {
      with_op_id_ += nvtx_.op_id[i] >= 0 && filter_.AcceptsProcess(nvtx_.pid[i]);
    }
    return true;
  }

  // Children starting later than the longest range after their parent count only when a scan up to the window's end
  // plus the longest range reaches them.
  void AddLateChildTimes() {
    const size_t scan_end =
        filter_.window.whole
            ? nvtx_.size()
            : engine::StartRange(nvtx_, filter_.window.begin, filter_.window.end + nvtx_.max_duration).second;
    for (const NvtxGroupIndex::LateChild& late : index_.late_children()) {
      const auto parent = static_cast<size_t>(late.parent);
      if (parent < first_ || parent >= last_ || static_cast<size_t>(late.child) >= scan_end) continue;
      if (!filter_.AcceptsProcess(nvtx_.pid[parent])) continue;
      child_time_[static_cast<size_t>(late.parent_group)] += late.ns;
    }
  }

  const engine::NvtxTable& nvtx_;
  const NvtxGroupIndex& index_;
  const engine::Filter& filter_;
  size_t first_, last_;
  std::vector<std::pair<size_t, size_t>> slice_;  // piece -> its selected entries [lo, hi)
  std::vector<SampleSummary> summary_;
  std::vector<int32_t> first_row_;  // group -> its first selected row
  std::vector<int64_t> child_time_;
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

  // The profile's group index for this labelling, built before the run's time budget and kept with the profile.
  Status Prepare(const engine::Profile& profile, const Args& args, const CancelToken& cancel) const override {
    if (!profile.info().caps.nvtx) return {};
    auto index = NvtxGroupIndex::ForArgs(profile, args, cancel);
    if (!index) return index.error();
    return {};
  }

  Expected<Table> run(const Context& ctx) const override {
    if (!ctx.profile.info().caps.nvtx) {
      return Declined(
          "This profile has no NVTX data (no NVTX_EVENTS table): the application was not annotated with "
          "NVTX ranges, or NVTX was not traced.");
    }
    const bool split_op_id = ArgBool(ctx, "split_op_id");
    const int64_t limit = ArgInt(ctx, "limit");
    auto index_or = NvtxGroupIndex::Of(ctx.profile, split_op_id, ctx.cancel);
    if (!index_or) return index_or.error();
    const NvtxGroupIndex& index = *index_or.value();

    RangeGroups groups(ctx.profile.nvtx(), index, ctx.filter, RowRange(ctx.profile.nvtx(), ctx.filter));
    if (!groups.Build(ctx.cancel)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    const std::vector<size_t> order = groups.LongestFirst();
    int64_t grand_total = 0;
    for (size_t g : order) grand_total += groups.total(g);

    Table table = EmptyTable();
    const size_t shown = limit > 0 ? std::min(order.size(), static_cast<size_t>(limit)) : order.size();
    for (size_t n = 0; n < shown; ++n) table.rows.push_back(groups.Row(order[n], grand_total));
    AddNotes(ctx, grand_total, groups.with_op_id(), split_op_id, index.labels(), table);
    if (shown < order.size())
      table.notes.push_back(fmt::format("Showing the first {} of {} rows.", shown, order.size()));
    if (order.empty()) table.notes.push_back("No NVTX ranges start inside the selected window and filters.");
    return table;
  }

 private:
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
