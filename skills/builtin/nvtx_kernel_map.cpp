// nvtx_kernel_map: kernels grouped by the NVTX ranges they were launched in, mirroring `nsys stats -r nvtxkernsum`.
//
// A kernel belongs to every NVTX range on its launching thread that contains the launch call (the whole push/pop
// stack, plus same-thread start/end ranges), so nested ranges each count it. The stack comes from
// RuntimeTable::nvtx (innermost range) and NvtxTable::parent; groups are (range label, style, pid, tid, kernel
// name) found through dense hash indexes, so the work is linear in (kernels x stack depth) with no string work.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common_nvtx_stack.h"
#include "common_rows.h"
#include "nsys/skills/huge_pages.h"
#include "nsys/skills/nvtx_labels.h"
#include "nsys/skills/summary_table.h"
#include "nsys/support/cancel.h"

namespace nsys::skills::builtin {
namespace {

using engine::Ns;

// The profile's kernels in launch-call order, built once and kept with the profile: the launched ones sorted by
// (launch row, kernel row), so that walking them visits kernels in launch-call order (runtime rows are sorted by
// start, so per thread this is time order), and those without a launch call in row order. A call walks them and keeps
// the rows its window and filters select: one pass with no per-call bucketing (20 ms and 37 MB of fresh pages per call
// on a 2 GB export), for 4 bytes per kernel kept.
struct KernelLaunchOrder {
  std::vector<int32_t> launched;
  std::vector<int32_t> unlaunched;

  static KernelLaunchOrder Build(const engine::KernelTable& k) {
    KernelLaunchOrder out;
    int32_t min_launch = INT32_MAX, max_launch = -1;
    for (size_t i = 0; i < k.size(); ++i) {
      const int32_t r = k.launch[i];
      if (r < 0) {
        out.unlaunched.push_back(static_cast<int32_t>(i));
        continue;
      }
      min_launch = std::min(min_launch, r);
      max_launch = std::max(max_launch, r);
    }
    if (max_launch < 0) return out;
    // A counting sort by launch row, stable in kernel row.
    std::vector<int32_t> offset(static_cast<size_t>(max_launch - min_launch) + 2, 0);
    for (size_t i = 0; i < k.size(); ++i) {
      if (k.launch[i] >= 0) ++offset[static_cast<size_t>(k.launch[i] - min_launch) + 1];
    }
    for (size_t b = 1; b < offset.size(); ++b) offset[b] += offset[b - 1];
    out.launched.resize(k.size() - out.unlaunched.size());
    for (size_t i = 0; i < k.size(); ++i) {
      if (k.launch[i] < 0) continue;
      int32_t& at = offset[static_cast<size_t>(k.launch[i] - min_launch)];
      out.launched[static_cast<size_t>(at++)] = static_cast<int32_t>(i);
    }
    return out;
  }

  static std::shared_ptr<const KernelLaunchOrder> Of(const engine::Profile& profile) {
    return std::static_pointer_cast<const KernelLaunchOrder>(profile.Derived("skills.kernel_launch_order", [&] {
      return std::static_pointer_cast<const void>(std::make_shared<const KernelLaunchOrder>(Build(profile.kernels())));
    }));
  }
};

// Which kernel rows a call selects: those starting in its window ([first, last) of the start-sorted table) on an
// accepted device and process.
struct KernelSelection {
  const engine::KernelTable& k;
  const engine::Filter& filter;
  size_t first, last;
  bool Selects(int32_t row) const {
    const auto i = static_cast<size_t>(row);
    return i - first < last - first && filter.AcceptsDevice(k.device[i]) && filter.AcceptsProcess(k.pid[i]);
  }
};

// A row's sort key: nsys orders by range name (none first), pid, tid, then total time descending.
struct RowKey {
  bool has_range;
  std::string range;
  bool has_thread;
  uint32_t pid, tid;
};

// (range, kernel) pairs grouped by (label/style/thread id "lt", kernel name), with nvtx_inst and kern_inst per
// group. lt 0 with thread 0 = no launch call; label part 0 = no range.
class RangeKernelGroups {
 public:
  RangeKernelGroups(const engine::Profile& profile, const engine::Column<engine::StrId>& kernel_names,
                    NvtxLabels& labels, StartEndRangesByThread start_end, size_t kernels)
      : profile_(profile),
        k_(profile.kernels()),
        rt_(profile.runtime()),
        nvtx_(profile.nvtx()),
        kernel_names_(kernel_names),
        labels_(labels),
        start_end_(std::move(start_end)) {
    pair_group_.reserve(kernels * 2);
    pair_duration_.reserve(kernels * 2);
  }

  // Every selected launched kernel, in launch-call order, into the groups of the ranges enclosing its launch call (or
  // the thread's no-range group). False when cancelled. The token is checked by work done, not by kernels visited: a
  // kernel costs its number of enclosing ranges, and a profile of 100,000 nested ranges made each kernel 100,000
  // steps, so a check every 65,536 kernels ignored the budget, $/cancelRequest and closeProfile for minutes.
  bool AddLaunched(const std::vector<int32_t>& launched, const KernelSelection& selection, const CancelToken& cancel) {
    WorkMeter work(cancel);
    std::vector<int32_t> stack;
    for (size_t n = 0; n < launched.size(); ++n) {
      if (!work.Add(1)) return false;
      if (!selection.Selects(launched[n])) continue;
      const auto kernel = static_cast<size_t>(launched[n]);
      const auto r = static_cast<size_t>(k_.launch[kernel]);
      const Ns dur = k_.end[kernel] - k_.start[kernel];
      ++launched_;
      launched_time_ += dur;
      const auto thread = static_cast<uint32_t>(start_end_.threads.IdOf(PackKey(rt_.pid[r], rt_.tid[r])));
      stack.clear();
      // At most the kMaxEnclosingRanges innermost of each list are walked: a launch in 400,000 nested ranges costs
      // what one in 256 costs, and KeepInnermost picks the innermost of both.
      bool more = AppendPushPopStack(rt_.nvtx[r], nvtx_, stack, kMaxEnclosingRanges);
      const size_t looked =
          start_end_.AppendEnclosing(thread, rt_.start[r], rt_.end[r], nvtx_, stack, kMaxEnclosingRanges, &more);
      work.Count(looked + 2 * stack.size());  // the walks, then a pair per enclosing range in AddInRanges
      deep_ += KeepInnermost(stack, nvtx_) || more ? 1 : 0;
      if (stack.empty()) {
        AddPair(GroupFor(static_cast<uint32_t>(lt_index_.IdOf(PackKey(0, thread + 1))), kernel), dur);
        continue;
      }
      AddInRanges(stack, thread, kernel, r, dur);
    }
    return true;
  }

  // Selected kernels without a launch call: one group per name, with null range and thread.
  void AddUnlaunched(const std::vector<int32_t>& unlaunched, const KernelSelection& selection) {
    const uint32_t no_launch_lt = static_cast<uint32_t>(lt_index_.IdOf(PackKey(0, 0)));
    for (int32_t kk : unlaunched) {
      if (!selection.Selects(kk)) continue;
      const auto kernel = static_cast<size_t>(kk);
      const Ns dur = k_.end[kernel] - k_.start[kernel];
      ++unlaunched_;
      unlaunched_time_ += dur;
      AddPair(GroupFor(no_launch_lt, kernel), dur);
    }
  }

  // Kernel-duration statistics per group, over its (range, kernel) pairs.
  std::vector<SampleSummary> Summarize() {
    return GroupedSamples(pair_group_, moments_).Summarize([&](size_t p) { return pair_duration_[p]; });
  }

  std::vector<RowKey> RowKeys() const {
    std::vector<RowKey> row_keys(groups_.size());
    std::vector<std::string> label_text(labels_.size());
    std::vector<bool> label_done(labels_.size(), false);
    for (size_t g = 0; g < groups_.size(); ++g) {
      const uint64_t lt_key = lt_index_.key(group_lt_of_[g]);
      const auto label_style = static_cast<uint32_t>(lt_key >> 32);
      const auto thread_plus_one = static_cast<uint32_t>(lt_key & 0xFFFFFFFF);
      RowKey& key = row_keys[g];
      key.has_range = label_style != 0;
      if (key.has_range) {
        const uint32_t label = (label_style - 1) / 2;
        if (!label_done[label]) {
          label_text[label] = labels_.Text(static_cast<int32_t>(label));
          label_done[label] = true;
        }
        key.range = label_text[label];
      }
      key.has_thread = thread_plus_one != 0;
      if (key.has_thread) {
        const uint64_t t = start_end_.threads.key(static_cast<int32_t>(thread_plus_one - 1));
        key.pid = static_cast<uint32_t>(t >> 32);
        key.tid = static_cast<uint32_t>(t & 0xFFFFFFFF);
      } else {
        key.pid = key.tid = 0;
      }
    }
    return row_keys;
  }

  std::vector<Value> Row(size_t g, const RowKey& key, const std::vector<SampleSummary>& summaries) const {
    const uint32_t label_style = static_cast<uint32_t>(lt_index_.key(group_lt_of_[g]) >> 32);
    std::vector<Value> row;
    row.push_back(key.has_range ? Value(key.range) : Value());
    row.push_back(key.has_range
                      ? Value(std::string(NvtxStyleName(static_cast<engine::NvtxStyle>((label_style - 1) % 2))))
                      : Value());
    row.push_back(key.has_thread ? Value(int64_t{key.pid}) : Value());
    row.push_back(key.has_thread ? Value(int64_t{key.tid}) : Value());
    row.push_back(Value(nvtx_inst_[g]));
    row.push_back(Value(kern_inst_[g]));
    row.push_back(Value(summaries[g].total));
    AddStatCells(row, summaries[g]);
    row.push_back(Value(std::string(profile_.strings().view(kernel_names_[static_cast<size_t>(representative_[g])]))));
    return row;
  }

  int64_t kernels() const { return launched_ + unlaunched_; }
  int64_t kernel_time() const { return launched_time_ + unlaunched_time_; }
  int64_t launched() const { return launched_; }
  int64_t launched_time() const { return launched_time_; }
  int64_t with_range() const { return with_range_; }
  int64_t with_range_time() const { return with_range_time_; }
  int64_t deep() const { return deep_; }

 private:
  // The kernel in every range of `stack`: kern_inst once per group, nvtx_inst once per range instance.
  void AddInRanges(const std::vector<int32_t>& stack, uint32_t thread, size_t kernel, size_t r, Ns dur) {
    ++with_range_;
    with_range_time_ += dur;
    // The previous kernel of this name on this thread: a range already holding it already counted this pair.
    const int32_t slot = last_call_index_.IdOf(PackKey(thread, kernel_names_[kernel]));
    if (static_cast<size_t>(slot) == last_call_.size()) last_call_.push_back(-1);
    const int32_t prev = last_call_[static_cast<size_t>(slot)];
    last_call_[static_cast<size_t>(slot)] = static_cast<int32_t>(r);
    ++kernel_stamp_;
    for (int32_t j : stack) {
      const int32_t g = GroupFor(LtOfRange(j, thread + 1), kernel);
      const auto js = static_cast<size_t>(j);
      const bool seen_pair = prev >= 0 && nvtx_.start[js] <= rt_.start[static_cast<size_t>(prev)] &&
                             rt_.end[static_cast<size_t>(prev)] <= nvtx_.end[js];
      if (!seen_pair) ++nvtx_inst_[static_cast<size_t>(g)];
      // Once per group and kernel, in constant time: a list searched per range was quadratic in the nesting depth.
      const auto gs = static_cast<size_t>(g);
      if (gs >= group_stamp_.size()) group_stamp_.resize(gs + 1, 0);
      if (group_stamp_[gs] != kernel_stamp_) {
        group_stamp_[gs] = kernel_stamp_;
        ++kern_inst_[gs];
      }
      pair_group_.push_back(g);
      pair_duration_.push_back(dur);
      moments_[static_cast<size_t>(g)].Add(dur);
    }
  }

  // A kernel in a group that counts it once (no range, or no launch call).
  void AddPair(int32_t g, Ns dur) {
    ++kern_inst_[static_cast<size_t>(g)];
    pair_group_.push_back(g);
    pair_duration_.push_back(dur);
    moments_[static_cast<size_t>(g)].Add(dur);
  }

  int32_t GroupFor(uint32_t lt, size_t kernel) {
    const int32_t g = groups_.IdOf(PackKey(lt, kernel_names_[kernel]));
    if (static_cast<size_t>(g) == representative_.size()) {
      representative_.push_back(static_cast<int32_t>(kernel));
      group_lt_of_.push_back(static_cast<int32_t>(lt));
      nvtx_inst_.push_back(0);
      kern_inst_.push_back(0);
      moments_.emplace_back();
    }
    return g;
  }

  // Computed per use rather than cached per NVTX row: the label is a lookup by name and the (label, thread) index is
  // small and stays in cache, where a per-row cache took 4 bytes per range (67 MB, zeroed every call, on a 2 GB
  // export) and a cache miss per use.
  uint32_t LtOfRange(int32_t j, uint32_t thread_plus_one) {
    const auto label = static_cast<uint32_t>(labels_.LabelOf(static_cast<size_t>(j)));
    const uint32_t label_style = 1 + label * 2 + static_cast<uint32_t>(nvtx_.style[static_cast<size_t>(j)]);
    return static_cast<uint32_t>(lt_index_.IdOf(PackKey(label_style, thread_plus_one)));
  }

  const engine::Profile& profile_;
  const engine::KernelTable& k_;
  const engine::RuntimeTable& rt_;
  const engine::NvtxTable& nvtx_;
  const engine::Column<engine::StrId>& kernel_names_;
  NvtxLabels& labels_;
  StartEndRangesByThread start_end_;  // its thread index also numbers the launching threads
  DenseIndex lt_index_;
  DenseIndex groups_;
  DenseIndex last_call_index_;      // (thread, kernel name) -> slot in last_call_
  std::vector<int32_t> last_call_;  // runtime row of the previous kernel with that name on that thread
  std::vector<int64_t> nvtx_inst_, kern_inst_;
  std::vector<RunningMoments> moments_;  // per group, of its pairs' durations, gathered as the pairs are added
  std::vector<int32_t> representative_;  // group -> a kernel row (for its name)
  std::vector<int32_t> group_lt_of_;     // group -> lt
  // One per (range, kernel) pair: millions on a 2 GB export. The kernel's duration rather than its row: the summary
  // then reads them in order instead of gathering two columns per pair.
  HugeVector<int32_t> pair_group_;
  HugeVector<Ns> pair_duration_;
  std::vector<uint64_t> group_stamp_;  // group -> the kernel_stamp_ of the last kernel it counted (kern_inst)
  uint64_t kernel_stamp_ = 0;          // one per kernel added in ranges
  int64_t deep_ = 0;  // launches inside more than kMaxEnclosingRanges ranges, counted in the innermost ones
  int64_t with_range_ = 0, with_range_time_ = 0, launched_ = 0, launched_time_ = 0, unlaunched_ = 0,
          unlaunched_time_ = 0;
};

std::vector<size_t> RowOrder(const std::vector<RowKey>& row_keys, const std::vector<SampleSummary>& summaries) {
  std::vector<size_t> order(row_keys.size());
  for (size_t g = 0; g < order.size(); ++g) order[g] = g;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const RowKey& x = row_keys[a];
    const RowKey& y = row_keys[b];
    if (x.has_range != y.has_range) return !x.has_range;
    if (x.range != y.range) return x.range < y.range;
    if (x.has_thread != y.has_thread) return !x.has_thread;
    if (x.pid != y.pid) return x.pid < y.pid;
    if (x.tid != y.tid) return x.tid < y.tid;
    if (summaries[a].total != summaries[b].total) return summaries[a].total > summaries[b].total;
    return a < b;
  });
  return order;
}

class NvtxKernelMap final : public Skill {
 public:
  std::string name() const override { return "nvtx_kernel_map"; }
  std::string description() const override {
    return "Kernels grouped by the NVTX ranges that enclose their launch calls, per thread (nsys stats nvtxkernsum).";
  }
  std::string reference() const override { return "nvtxkernsum"; }
  engine::Need needs() const override { return engine::Need::kAttribution; }
  std::vector<ArgSpec> args() const override {
    return {
        {"base", ValueType::kBool, "Use kernel short (base) names instead of demangled names.", Value(false)},
        {"split_op_id", ValueType::kBool,
         "Keep PyTorch's \", op_id = N\" in range names (one group per op, as nsys does) instead of grouping by "
         "operator name.",
         Value(false)},
        LimitArg(0, "Show only the first N rows (0 = all)."),
    };
  }

  // The kernels' launch order is kept with the profile, built here outside the time budget like the loads.
  Status Prepare(const engine::Profile& profile, const Args& args, const CancelToken& cancel) const override {
    (void)args;
    (void)cancel;
    if (profile.info().caps.kernels) KernelLaunchOrder::Of(profile);
    return {};
  }

  Expected<Table> run(const Context& ctx) const override {
    if (auto declined = MissingData(ctx.profile.info())) return *declined;
    const bool base = ArgBool(ctx, "base");
    const int64_t limit = ArgInt(ctx, "limit");
    auto labels_or = NvtxLabels::Build(ctx.profile, ArgBool(ctx, "split_op_id"), ctx.cancel);
    if (!labels_or) return labels_or.error();
    NvtxLabels& labels = labels_or.value();

    const engine::KernelTable& k = ctx.profile.kernels();
    const auto& kernel_names = base ? k.short_name : k.name;
    const auto [first, last] = RowRange(k, ctx.filter);
    const KernelSelection selection{k, ctx.filter, first, last};
    const auto launch_order = KernelLaunchOrder::Of(ctx.profile);
    RangeKernelGroups groups(ctx.profile, kernel_names, labels, *StartEndRangesOf(ctx.profile), last - first);
    if (!groups.AddLaunched(launch_order->launched, selection, ctx.cancel)) {
      return MakeError(ErrorKind::kCancelled, "Cancelled.");
    }
    groups.AddUnlaunched(launch_order->unlaunched, selection);
    const std::vector<SampleSummary> summaries = groups.Summarize();
    if (ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");

    const std::vector<RowKey> row_keys = groups.RowKeys();
    const std::vector<size_t> order = RowOrder(row_keys, summaries);
    Table table = EmptyTable(base);
    const size_t shown = limit > 0 ? std::min(order.size(), static_cast<size_t>(limit)) : order.size();
    for (size_t n = 0; n < shown; ++n) table.rows.push_back(groups.Row(order[n], row_keys[order[n]], summaries));
    AddNotes(table, groups);
    if (!labels.warning().empty()) table.notes.push_back(labels.warning());
    if (shown < order.size())
      table.notes.push_back(fmt::format("Showing the first {} of {} rows.", shown, order.size()));
    if (order.empty()) table.notes.push_back("No kernels start inside the selected window and filters.");
    return table;
  }

 private:
  static std::optional<Table> MissingData(const engine::ProfileInfo& info) {
    if (!info.caps.kernels) {
      return Declined(
          "This profile has no CUDA kernel data (no CUPTI_ACTIVITY_KIND_KERNEL table), so no kernel can "
          "be mapped to NVTX ranges.");
    }
    if (!info.caps.nvtx) {
      return Declined("This profile has no NVTX data (no NVTX_EVENTS table): there are no ranges to map kernels to.");
    }
    if (!info.caps.runtime) {
      return Declined(
          "This profile has no CUDA API data (no CUPTI_ACTIVITY_KIND_RUNTIME table): without launch "
          "calls, kernels cannot be placed inside NVTX ranges.");
    }
    return std::nullopt;
  }

  static Table EmptyTable(bool base) {
    Table table;
    table.columns = {
        MakeColumn("nvtx_range", ValueType::kString, "NVTX range name; null for kernels launched outside any range"),
        MakeColumn("style", ValueType::kString, "PushPop or StartEnd"),
        MakeColumn("pid", ValueType::kInt, "Process of the launching thread; null when the launch call is unknown"),
        MakeColumn("tid", ValueType::kInt, "Launching thread"),
        MakeColumn("nvtx_inst", ValueType::kInt, "Number of range instances that contain these kernels"),
        MakeColumn("kern_inst", ValueType::kInt, "Number of kernel instances"),
        MakeColumn("total_time_ns", ValueType::kInt, "Summed kernel time over (range, kernel) pairs, ns"),
    };
    AddStatColumns(table.columns, "", "_ns", "kernel durations");
    table.columns.push_back(MakeColumn("kernel_name", ValueType::kString, base ? "Kernel short name" : "Kernel name"));
    return table;
  }

  static void AddNotes(Table& table, const RangeKernelGroups& groups) {
    auto pct = [](int64_t part, int64_t whole) {
      return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
    };
    table.notes.push_back(fmt::format(
        "A kernel counts in every NVTX range on its launching thread that contains its launch call (the whole "
        "push/pop stack and same-thread start/end ranges), so nested ranges each count it; total_time_ns sums over "
        "(range, kernel) pairs. Kernels are selected by their start inside the window; ranges may lie anywhere."));
    table.notes.push_back(fmt::format(
        "Coverage: {} kernels; {} ({:.1f}% of kernel time) have a launch call; {} ({:.1f}% of kernel time) were "
        "launched inside at least one NVTX range. Kernels with no launch call (cut by the capture window or from "
        "another API) are listed with null pid/tid/range; kernels launched outside every range with a null range.",
        groups.kernels(), groups.launched(), pct(groups.launched_time(), groups.kernel_time()), groups.with_range(),
        pct(groups.with_range_time(), groups.kernel_time())));
    if (groups.deep() > 0) {
      table.notes.push_back(
          fmt::format("{} kernels were launched inside more than {} nested NVTX ranges: each counts "
                      "in its {} innermost ranges only.",
                      groups.deep(), kMaxEnclosingRanges, kMaxEnclosingRanges));
    }
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeNvtxKernelMap() {
  return std::make_shared<NvtxKernelMap>();
}

}  // namespace nsys::skills::builtin
