// nvtx_range_kernels: per NVTX range name, the kernels its instances launch.
//
// A kernel belongs to every range on its launching thread that contains its launch call (the launch is the runtime
// call with the same (pid, correlationId), resolved by the engine as KernelTable::launch), found with the same
// stack as nvtx_kernel_map (common_nvtx_stack.h), so nested ranges each count it. A CUDA graph execution recorded
// whole (--cuda-graph-trace=graph) counts as a kernel named "CUDA graph N", through its cudaGraphLaunch call: its
// kernels are not in the export, and its time is GPU time the range launched. Instances are the ranges starting
// in the window; kernels are those starting in the window. The innermost range of a kernel is the one of its stack
// with the latest start (the shortest on ties); every other range of the stack has a nested range launching it.
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common_nvtx_stack.h"
#include "common_rows.h"
#include "nsys/skills/huge_pages.h"
#include "nsys/skills/nvtx_coverage.h"
#include "nsys/skills/nvtx_groups.h"
#include "nsys/skills/nvtx_labels.h"
#include "nsys/skills/summary_table.h"
#include "nsys/support/cancel.h"

namespace nsys::skills {
namespace builtin {
namespace {

using engine::Ns;

struct LabelStats {
  int64_t instances = 0, wall_ns = 0, gpu_ns = 0, kernels = 0, max_kernels = 0, threads = 0, distinct = 0;
  bool nested_launches = false;  // a range nested in one of its instances launches a kernel
  bool seen = false;             // has an instance in the window
  int64_t p50 = 0, p90 = 0;
  int32_t top_kernel = -1;  // (label, short name) id with the most GPU time
};

// The pass shared by the skill and ComputeNvtxCoverage: per label statistics plus the coverage figures. The ranges'
// own figures (instances, wall time, threads) come from the profile's NvtxGroupIndex: a window's rows of each
// (group, thread) piece are one slice, so no pass over every range.
class RangeKernelPass {
 public:
  RangeKernelPass(const engine::Profile& profile, const NvtxGroupIndex& index)
      : profile_(profile), k_(profile.kernels()), rt_(profile.runtime()), nvtx_(profile.nvtx()), index_(index) {}

  // False when cancelled.
  bool Run(const engine::Filter& filter, const CancelToken& cancel) {
    const auto [first, last] = RowRange(nvtx_, filter);
    first_ = first;
    rows_ = last - first;
    filter_ = &filter;
    stats_.assign(index_.labels().size(), LabelStats{});
    first_row_.assign(stats_.size(), INT32_MAX);
    DenseIndex label_thread;  // PackKey(label, thread): a label's groups (one per style) may share a thread
    for (size_t g = 0; g < index_.size(); ++g) {
      if ((g & 0xFF) == 0 && cancel.cancelled()) return false;
      const auto label = static_cast<size_t>(index_.label(g));
      LabelStats& s = stats_[label];
      for (size_t p = index_.first_piece(g); p < index_.first_piece(g + 1); ++p) {
        if (!filter.AcceptsProcess(index_.pid_of_piece(p))) continue;
        const auto [lo, hi] = index_.Slice(p, first, last);
        if (lo == hi) continue;
        s.seen = true;
        s.instances += static_cast<int64_t>(hi - lo);
        s.wall_ns += index_.DurationSum(p, lo, hi);
        first_row_[label] = std::min(first_row_[label], index_.rows(p)[lo]);
        const size_t pairs = label_thread.size();
        label_thread.IdOf(PackKey(static_cast<uint32_t>(label), static_cast<uint32_t>(index_.thread_of_piece(p))));
        if (label_thread.size() > pairs) ++s.threads;
      }
    }
    slots_.emplace(NvtxRowSlots::Borrow(profile_));
    return AddKernels(filter, cancel);
  }

  // Per-call GPU percentiles, the top kernel and the distinct count; then the coverage. The nonzero GPU times of the
  // instances that launched kernels are laid out per label in one flat array (offsets from a counting pass); the
  // other instances (most of them: 16.8M ranges and 3.4M kernels on a 2 GB export) are only counted as zeros, which
  // are the smallest values.
  void Finish() {
    std::vector<size_t> offset(stats_.size() + 1, 0);
    for (size_t t = 0; t < touched_label_.size(); ++t) {
      const auto label = static_cast<size_t>(touched_label_[t]);
      offset[label + 1] += touched_gpu_[t] > 0;
      LabelStats& s = stats_[label];
      s.max_kernels = std::max<int64_t>(s.max_kernels, touched_kernels_[t]);
    }
    for (size_t l = 0; l < stats_.size(); ++l) offset[l + 1] += offset[l];
    HugeArray<int64_t> flat = MakeHugeArray<int64_t>(offset.back());  // every value is written below
    std::vector<size_t> next(offset.begin(), offset.end() - 1);
    for (size_t t = 0; t < touched_label_.size(); ++t) {
      if (touched_gpu_[t] > 0) flat[next[static_cast<size_t>(touched_label_[t])]++] = touched_gpu_[t];
    }
    for (size_t l = 0; l < stats_.size(); ++l) {
      const std::span<int64_t> nonzero(flat.get() + offset[l], offset[l + 1] - offset[l]);
      const auto zeros = static_cast<size_t>(stats_[l].instances) - nonzero.size();
      stats_[l].p50 = NearestRank(nonzero, zeros, 50);
      stats_[l].p90 = NearestRank(nonzero, zeros, 90);
    }
    for (size_t id = 0; id < kernel_gpu_.size(); ++id) {
      const auto label = static_cast<size_t>(label_kernel_.key(static_cast<int32_t>(id)) >> 32);
      LabelStats& s = stats_[label];
      ++s.distinct;
      if (s.top_kernel < 0 || kernel_gpu_[id] > kernel_gpu_[static_cast<size_t>(s.top_kernel)]) {
        s.top_kernel = static_cast<int32_t>(id);
      }
    }
    coverage_.mapped_ns = 0;
    for (const LabelStats& s : stats_) {
      if (s.seen && s.kernels > 0 && !s.nested_launches && s.kernels == s.instances && s.max_kernels == 1) {
        coverage_.mapped_ns += s.gpu_ns;
      }
    }
    coverage_.share = coverage_.kernel_ns_total > 0
                          ? static_cast<double>(coverage_.mapped_ns) / static_cast<double>(coverage_.kernel_ns_total)
                          : 0.0;
  }

  const std::vector<LabelStats>& stats() const { return stats_; }
  int32_t first_row(size_t label) const { return first_row_[label]; }
  const NvtxCoverage& coverage() const { return coverage_; }
  int64_t kernels_total() const { return kernels_total_; }
  int64_t kernels_in_ranges() const { return kernels_in_ranges_; }
  // The name of the kernel (or CUDA graph) with the most GPU time in a label's ranges.
  std::string TopKernelName(const LabelStats& s) const {
    const auto key = static_cast<uint32_t>(label_kernel_.key(s.top_kernel) & 0xFFFFFFFF);
    if (key & kGraphKeyBit) return fmt::format("CUDA graph {}", graph_ids_[key & ~kGraphKeyBit]);
    return std::string(profile_.strings().view(static_cast<engine::StrId>(key)));
  }

 private:
  bool AddKernels(const engine::Filter& filter, const CancelToken& cancel) {
    const std::shared_ptr<const StartEndRangesByThread> start_end_ranges = StartEndRangesOf(profile_);
    WorkMeter work(cancel);  // a kernel costs the ranges around its launch (issue 38: 100,000 nested)
    const auto [first, last] = RowRange(k_, filter);
    for (size_t i = first; i < last; ++i) {
      if (!work.Add(1)) return false;
      if (!filter.AcceptsDevice(k_.device[i]) || !filter.AcceptsProcess(k_.pid[i])) continue;
      AddLaunched(k_.launch[i], k_.end[i] - k_.start[i], k_.short_name[i], *start_end_ranges, work);
    }
    // CUDA graph executions recorded whole: GPU work launched by their cudaGraphLaunch, named "CUDA graph N".
    if (!profile_.info().caps.graphs) return true;
    const engine::GraphTable& g = profile_.graphs();
    const auto [from, to] = RowRange(g, filter);
    for (size_t i = from; i < to; ++i) {
      if (!work.Add(1)) return false;
      if (!filter.AcceptsDevice(g.device[i]) || !filter.AcceptsProcess(g.pid[i])) continue;
      AddLaunched(g.launch[i], g.end[i] - g.start[i], GraphNameKey(g.graph_id[i]), *start_end_ranges, work);
    }
    return true;
  }

  // One piece of GPU work of `dur` launched by runtime call `launch` (none: -1), its name `name_key` (a kernel's
  // short name, or a graph's GraphNameKey): counted in every selected range around the call.
  void AddLaunched(int32_t launch, Ns dur, uint32_t name_key, const StartEndRangesByThread& start_end,
                   WorkMeter& work) {
    ++kernels_total_;
    coverage_.kernel_ns_total += dur;
    if (launch < 0) return;
    const auto r = static_cast<size_t>(launch);
    stack_.clear();
    AppendPushPopStack(rt_.nvtx[r], nvtx_, stack_);
    if (!start_end.of_thread.empty()) {
      const int32_t thread = start_end.threads.Find(PackKey(rt_.pid[r], rt_.tid[r]));
      if (thread >= 0) {
        work.Count(start_end.AppendEnclosing(static_cast<size_t>(thread), rt_.start[r], rt_.end[r], nvtx_, stack_));
      }
    }
    work.Count(3 * stack_.size());  // the innermost, then each range's sums
    if (stack_.empty()) return;
    int32_t innermost = stack_.front();
    for (int32_t j : stack_) {
      const auto js = static_cast<size_t>(j), is = static_cast<size_t>(innermost);
      if (nvtx_.start[js] > nvtx_.start[is] || (nvtx_.start[js] == nvtx_.start[is] && nvtx_.end[js] < nvtx_.end[is]))
        innermost = j;
    }
    bool counted = false;
    for (int32_t j : stack_) {
      const auto js = static_cast<size_t>(j);
      if (js < first_ || js - first_ >= rows_ || !filter_->AcceptsProcess(nvtx_.pid[js])) continue;
      const size_t t = TouchedOf(js);
      const int32_t label = touched_label_[t];
      touched_gpu_[t] += dur;
      ++touched_kernels_[t];
      LabelStats& s = stats_[static_cast<size_t>(label)];
      s.gpu_ns += dur;
      ++s.kernels;
      if (j != innermost) s.nested_launches = true;
      const int32_t id = label_kernel_.IdOf(PackKey(static_cast<uint32_t>(label), name_key));
      if (static_cast<size_t>(id) == kernel_gpu_.size()) kernel_gpu_.push_back(0);
      kernel_gpu_[static_cast<size_t>(id)] += dur;
      counted = true;
    }
    kernels_in_ranges_ += counted;
  }

  // A graph's name key: its index among the graphs seen, with the top bit set (a string id never has it).
  uint32_t GraphNameKey(int64_t graph_id) {
    const auto at = std::find(graph_ids_.begin(), graph_ids_.end(), graph_id);
    if (at == graph_ids_.end()) graph_ids_.push_back(graph_id);
    return kGraphKeyBit | static_cast<uint32_t>(at - graph_ids_.begin());
  }

  // The per-instance slot of selected range `row`, made on its first kernel.
  size_t TouchedOf(size_t row) {
    const int32_t slot = slots_->Get(row);
    if (slot >= 0) return static_cast<size_t>(slot);
    const size_t t = touched_label_.size();
    touched_label_.push_back(index_.label(static_cast<size_t>(index_.group_of_row(row))));
    touched_gpu_.push_back(0);
    touched_kernels_.push_back(0);
    slots_->Set(row, static_cast<int32_t>(t));
    return t;
  }

  // The nearest-rank percentile (the smallest value with at least p% of the values at or below it) of `zeros` zeros
  // and the positive values `v`; 0 when empty.
  static int64_t NearestRank(std::span<int64_t> v, size_t zeros, int p) {
    const size_t n = v.size() + zeros;
    if (n == 0) return 0;
    const size_t rank = (n * static_cast<size_t>(p) + 99) / 100;
    const size_t idx = rank == 0 ? 0 : rank - 1;
    if (idx < zeros) return 0;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(idx - zeros), v.end());
    return v[idx - zeros];
  }

  const engine::Profile& profile_;
  const engine::KernelTable& k_;
  const engine::RuntimeTable& rt_;
  const engine::NvtxTable& nvtx_;
  const NvtxGroupIndex& index_;
  const engine::Filter* filter_ = nullptr;
  size_t first_ = 0;
  size_t rows_ = 0;
  // Selected NVTX row -> its slot in touched_* once a kernel is placed in it, else -1: the profile's row slots, lent
  // (tens of millions of rows); the per-instance sums are kept only for the instances that launch kernels.
  std::optional<NvtxRowSlots> slots_;
  HugeVector<int32_t> touched_label_;  // huge pages: millions of instances launch kernels
  HugeVector<int64_t> touched_gpu_;
  HugeVector<int32_t> touched_kernels_;  // kernels per instance (a range instance launches far fewer than 2^31)
  std::vector<LabelStats> stats_;
  std::vector<int32_t> first_row_;  // label -> its first selected row
  DenseIndex label_kernel_;         // PackKey(label, kernel short name) -> id
  std::vector<int64_t> kernel_gpu_;
  static constexpr uint32_t kGraphKeyBit = 0x80000000u;
  std::vector<int64_t> graph_ids_;  // the graphs recorded whole seen, by GraphNameKey's index (a handful)
  std::vector<int32_t> stack_;      // the ranges around one launch call, reused
  NvtxCoverage coverage_;
  int64_t kernels_total_ = 0, kernels_in_ranges_ = 0;
};

std::optional<Table> MissingData(const engine::ProfileInfo& info) {
  if (!info.caps.kernels) {
    return Declined(
        "This profile has no CUDA kernel data (no CUPTI_ACTIVITY_KIND_KERNEL table), so no NVTX range launches "
        "kernels.");
  }
  if (!info.caps.nvtx) {
    return Declined("This profile has no NVTX data (no NVTX_EVENTS table): there are no ranges to map kernels to.");
  }
  if (!info.caps.runtime) {
    return Declined(
        "This profile has no CUDA API data (no CUPTI_ACTIVITY_KIND_RUNTIME table): without launch calls, kernels "
        "cannot be placed inside NVTX ranges.");
  }
  return std::nullopt;
}

class NvtxRangeKernels final : public Skill {
 public:
  std::string name() const override { return "nvtx_range_kernels"; }
  std::string description() const override {
    return "Per NVTX range name: calls, wall time, GPU time and count of the kernels (and CUDA graph executions "
           "recorded whole) launched inside (nested ranges included), kernels per call, whether it is innermost, and "
           "the share of kernel time mapped one kernel per call.";
  }
  engine::Need needs() const override { return engine::Need::kAttribution | engine::Need::kGraphs; }
  std::vector<ArgSpec> args() const override {
    return {
        {"split_op_id", ValueType::kBool,
         "Keep PyTorch's \", op_id = N\" in range names (one row per op) instead of grouping by operator name.",
         Value(false)},
        LimitArg(0, "Show only the first N rows (0 = all)."),
    };
  }

  // The profile's group index for this labelling, its start/end ranges and row slots, made before the run's time
  // budget and kept with the profile.
  Status Prepare(const engine::Profile& profile, const Args& args, const CancelToken& cancel) const override {
    if (MissingData(profile.info())) return {};
    auto index = NvtxGroupIndex::ForArgs(profile, args, cancel);
    if (!index) return index.error();
    StartEndRangesOf(profile);
    NvtxRowSlots::Borrow(profile);  // made on first use
    return {};
  }

  Expected<Table> run(const Context& ctx) const override {
    if (auto declined = MissingData(ctx.profile.info())) return *declined;
    auto index_or = NvtxGroupIndex::Of(ctx.profile, ArgBool(ctx, "split_op_id"), ctx.cancel);
    if (!index_or) return index_or.error();
    const NvtxLabels& labels = index_or.value()->labels();
    RangeKernelPass pass(ctx.profile, *index_or.value());
    if (!pass.Run(ctx.filter, ctx.cancel)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    pass.Finish();

    const auto& stats = pass.stats();
    std::vector<size_t> order;
    for (size_t l = 0; l < stats.size(); ++l) {
      if (stats[l].seen) order.push_back(l);
    }
    // The window's first-seen order first (ties below keep it).
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return pass.first_row(a) < pass.first_row(b); });
    std::vector<std::string> text(stats.size());
    for (size_t l : order) text[l] = labels.Text(static_cast<int32_t>(l));
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (stats[a].gpu_ns != stats[b].gpu_ns) return stats[a].gpu_ns > stats[b].gpu_ns;
      return text[a] < text[b];
    });
    const int64_t limit = ArgInt(ctx, "limit");
    const size_t shown = limit > 0 ? std::min(order.size(), static_cast<size_t>(limit)) : order.size();
    Table table = EmptyTable();
    for (size_t n = 0; n < shown; ++n) table.rows.push_back(Row(ctx.profile, pass, order[n], text[order[n]]));
    AddNotes(table, pass);
    if (!labels.warning().empty()) table.notes.push_back(labels.warning());
    if (shown < order.size())
      table.notes.push_back(fmt::format("Showing the first {} of {} rows.", shown, order.size()));
    if (order.empty()) table.notes.push_back("No NVTX ranges start inside the selected window and filters.");
    return table;
  }

 private:
  static Table EmptyTable() {
    Table table;
    table.columns = {
        MakeColumn("name", ValueType::kString, "NVTX range name"),
        MakeColumn("instances", ValueType::kInt, "Calls: range instances starting in the window"),
        MakeColumn("threads", ValueType::kInt, "Distinct threads the range ran on"),
        MakeColumn("wall_ns", ValueType::kInt, "Summed range duration, ns"),
        MakeColumn("gpu_ns", ValueType::kInt, "Summed duration of the kernels launched inside, nested ranges included"),
        MakeColumn("kernels", ValueType::kInt, "Kernels launched inside"),
        MakeColumn("distinct_kernels", ValueType::kInt, "Distinct kernel short names"),
        MakeColumn("kernels_per_call", ValueType::kDouble, "kernels / instances"),
        MakeColumn("max_kernels_per_call", ValueType::kInt, "Most kernels launched inside one instance"),
        MakeColumn("innermost", ValueType::kBool, "No range nested in any instance launches a kernel"),
        MakeColumn("gpu_p50_ns", ValueType::kInt, "Median (nearest rank) GPU time per instance, ns"),
        MakeColumn("gpu_p90_ns", ValueType::kInt, "90th percentile (nearest rank) GPU time per instance, ns"),
        MakeColumn("top_kernel", ValueType::kString, "Kernel short name with the most GPU time inside; null if none"),
    };
    return table;
  }

  static std::vector<Value> Row(const engine::Profile& profile, const RangeKernelPass& pass, size_t l,
                                const std::string& name) {
    const LabelStats& s = pass.stats()[l];
    std::vector<Value> row;
    row.push_back(Value(name));
    row.push_back(Value(s.instances));
    row.push_back(Value(s.threads));
    row.push_back(Value(s.wall_ns));
    row.push_back(Value(s.gpu_ns));
    row.push_back(Value(s.kernels));
    row.push_back(Value(s.distinct));
    row.push_back(Value(RoundTo(static_cast<double>(s.kernels) / static_cast<double>(s.instances), 3)));
    row.push_back(Value(s.max_kernels));
    row.push_back(Value(!s.nested_launches));
    row.push_back(Value(s.p50));
    row.push_back(Value(s.p90));
    row.push_back(s.top_kernel >= 0 ? Value(pass.TopKernelName(s)) : Value());
    return row;
  }

  static void AddNotes(Table& table, const RangeKernelPass& pass) {
    const NvtxCoverage& c = pass.coverage();
    table.notes.push_back(
        "A kernel counts in every NVTX range on its launching thread that contains its launch call (linked by "
        "(pid, correlationId)), so nested ranges each count it; so does a CUDA graph execution recorded whole, as "
        "\"CUDA graph N\", through its cudaGraphLaunch. Instances are ranges starting in the window; "
        "kernels are those starting in the window.");
    table.notes.push_back(fmt::format(
        "Mapping coverage: {:.1f}% of kernel time ({} of {} ns) is launched inside an innermost range whose "
        "instances each launch exactly one kernel; {} of {} kernels were launched inside a selected range.",
        100.0 * c.share, c.mapped_ns, c.kernel_ns_total, pass.kernels_in_ranges(), pass.kernels_total()));
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeNvtxRangeKernels() {
  return std::make_shared<NvtxRangeKernels>();
}

}  // namespace builtin

Expected<NvtxCoverage> ComputeNvtxCoverage(const engine::Profile& profile, const engine::Filter& filter,
                                           const CancelToken& cancel) {
  NvtxCoverage zero;
  const engine::ProfileInfo& info = profile.info();
  if (!info.caps.kernels) return zero;
  if (!info.caps.nvtx || !info.caps.runtime) {  // no range can hold a kernel: only the total
    const engine::KernelTable& k = profile.kernels();
    const auto [first, last] = builtin::RowRange(k, filter);
    for (size_t i = first; i < last; ++i) {
      if (filter.AcceptsDevice(k.device[i]) && filter.AcceptsProcess(k.pid[i]))
        zero.kernel_ns_total += k.end[i] - k.start[i];
    }
    return zero;
  }
  auto index_or = NvtxGroupIndex::Of(profile, false, cancel);
  if (!index_or) return index_or.error();
  builtin::RangeKernelPass pass(profile, *index_or.value());
  if (!pass.Run(filter, cancel)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
  pass.Finish();
  return pass.coverage();
}

}  // namespace nsys::skills
