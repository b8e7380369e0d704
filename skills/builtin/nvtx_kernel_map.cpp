// nvtx_kernel_map: kernels grouped by the NVTX ranges they were launched in, mirroring `nsys stats -r nvtxkernsum`.
//
// A kernel belongs to every NVTX range on its launching thread that contains the launch call (the whole push/pop
// stack, plus same-thread start/end ranges), so nested ranges each count it. The stack comes from
// RuntimeTable::nvtx (innermost range) and NvtxTable::parent; groups are (range label, style, pid, tid, kernel
// name) found through dense hash indexes, so the work is linear in (kernels x stack depth) with no string work.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "common_nvtx_stack.h"
#include "common_rows.h"
#include "nsys/skills/huge_pages.h"
#include "nsys/skills/nvtx_labels.h"
#include "nsys/skills/summary_table.h"

namespace nsys::skills::builtin {
namespace {

using engine::Ns;

// The selected kernels bucketed by launch row, so that walking the buckets visits kernels in launch-call order
// (runtime rows are sorted by start, so per thread this is time order): linear, no sort.
struct LaunchBuckets {
  int32_t min_launch = INT32_MAX;
  // Huge pages: millions of rows each on a 2 GB export, where 4 KiB page faults cost more than filling them.
  HugeVector<int32_t> head;         // launch row - min_launch -> its first kernel row, or -1
  HugeVector<int32_t> next;         // kernel row - first -> the next kernel row of the same launch row, or -1
  std::vector<int32_t> unlaunched;  // kernel rows without a launch call
  int64_t kernels_total = 0;
  int64_t kernel_time_total = 0;
};

LaunchBuckets BucketByLaunch(const engine::KernelTable& k, const engine::Filter& filter, size_t first, size_t last) {
  LaunchBuckets out;
  int32_t max_launch = -1;
  for (size_t i = first; i < last; ++i) {
    if (!filter.AcceptsDevice(k.device[i])) continue;
    if (!filter.AcceptsProcess(k.pid[i])) continue;
    ++out.kernels_total;
    out.kernel_time_total += k.end[i] - k.start[i];
    const int32_t r = k.launch[i];
    if (r < 0) {
      out.unlaunched.push_back(static_cast<int32_t>(i));
      continue;
    }
    out.min_launch = std::min(out.min_launch, r);
    max_launch = std::max(max_launch, r);
  }
  out.next.assign(last - first, -1);
  if (max_launch < 0) return out;
  out.head.assign(static_cast<size_t>(max_launch - out.min_launch) + 1, -1);
  for (size_t i = last; i-- > first;) {
    if (!filter.AcceptsDevice(k.device[i])) continue;
    if (!filter.AcceptsProcess(k.pid[i])) continue;
    const int32_t r = k.launch[i];
    if (r < 0) continue;
    int32_t& h = out.head[static_cast<size_t>(r - out.min_launch)];
    out.next[i - first] = h;
    h = static_cast<int32_t>(i);
  }
  return out;
}

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
    pair_kernel_.reserve(kernels * 2);
  }

  // Every launched kernel, in launch-call order, into the groups of the ranges enclosing its launch call (or the
  // thread's no-range group). False when cancelled.
  bool AddLaunched(const LaunchBuckets& launches, size_t first, const CancelToken& cancel) {
    std::vector<int32_t> stack;
    for (size_t b = 0; b < launches.head.size(); ++b) {
      if ((b & 0xFFFF) == 0 && cancel.cancelled()) return false;
      const auto r = static_cast<size_t>(static_cast<int32_t>(b) + launches.min_launch);
      for (int32_t kk = launches.head[b]; kk >= 0; kk = launches.next[static_cast<size_t>(kk) - first]) {
        const auto kernel = static_cast<size_t>(kk);
        const Ns dur = k_.end[kernel] - k_.start[kernel];
        ++launched_;
        launched_time_ += dur;
        const auto thread = static_cast<uint32_t>(start_end_.threads.IdOf(PackKey(rt_.pid[r], rt_.tid[r])));
        stack.clear();
        AppendPushPopStack(rt_.nvtx[r], nvtx_, stack);
        start_end_.AppendEnclosing(thread, rt_.start[r], rt_.end[r], nvtx_, stack);
        if (stack.empty()) {
          AddPair(GroupFor(static_cast<uint32_t>(lt_index_.IdOf(PackKey(0, thread + 1))), kernel), kernel);
          continue;
        }
        AddInRanges(stack, thread, kernel, r, dur);
      }
    }
    return true;
  }

  // Kernels without a launch call: one group per name, with null range and thread.
  void AddUnlaunched(const std::vector<int32_t>& unlaunched) {
    const uint32_t no_launch_lt = static_cast<uint32_t>(lt_index_.IdOf(PackKey(0, 0)));
    for (int32_t kk : unlaunched) {
      const auto kernel = static_cast<size_t>(kk);
      AddPair(GroupFor(no_launch_lt, kernel), kernel);
    }
  }

  // Kernel-duration statistics per group, over its (range, kernel) pairs.
  std::vector<SampleSummary> Summarize() {
    return SummarizeGroups(pair_group_, groups_.size(), [&](size_t p) {
      const auto kernel = static_cast<size_t>(pair_kernel_[p]);
      return k_.end[kernel] - k_.start[kernel];
    });
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

  int64_t launched() const { return launched_; }
  int64_t launched_time() const { return launched_time_; }
  int64_t with_range() const { return with_range_; }
  int64_t with_range_time() const { return with_range_time_; }

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
    groups_of_kernel_.clear();
    for (int32_t j : stack) {
      const int32_t g = GroupFor(LtOfRange(j, thread + 1), kernel);
      const auto js = static_cast<size_t>(j);
      const bool seen_pair = prev >= 0 && nvtx_.start[js] <= rt_.start[static_cast<size_t>(prev)] &&
                             rt_.end[static_cast<size_t>(prev)] <= nvtx_.end[js];
      if (!seen_pair) ++nvtx_inst_[static_cast<size_t>(g)];
      if (std::find(groups_of_kernel_.begin(), groups_of_kernel_.end(), g) == groups_of_kernel_.end()) {
        groups_of_kernel_.push_back(g);
        ++kern_inst_[static_cast<size_t>(g)];
      }
      pair_group_.push_back(g);
      pair_kernel_.push_back(static_cast<int32_t>(kernel));
    }
  }

  // A kernel in a group that counts it once (no range, or no launch call).
  void AddPair(int32_t g, size_t kernel) {
    ++kern_inst_[static_cast<size_t>(g)];
    pair_group_.push_back(g);
    pair_kernel_.push_back(static_cast<int32_t>(kernel));
  }

  int32_t GroupFor(uint32_t lt, size_t kernel) {
    const int32_t g = groups_.IdOf(PackKey(lt, kernel_names_[kernel]));
    if (static_cast<size_t>(g) == representative_.size()) {
      representative_.push_back(static_cast<int32_t>(kernel));
      group_lt_of_.push_back(static_cast<int32_t>(lt));
      nvtx_inst_.push_back(0);
      kern_inst_.push_back(0);
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
  std::vector<int32_t> representative_;           // group -> a kernel row (for its name)
  std::vector<int32_t> group_lt_of_;              // group -> lt
  HugeVector<int32_t> pair_group_, pair_kernel_;  // one per (range, kernel) pair: millions on a 2 GB export
  std::vector<int32_t> groups_of_kernel_;         // scratch: the groups the current kernel already counts in
  int64_t with_range_ = 0, with_range_time_ = 0, launched_ = 0, launched_time_ = 0;
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
    const LaunchBuckets launches = BucketByLaunch(k, ctx.filter, first, last);
    RangeKernelGroups groups(ctx.profile, kernel_names, labels, *StartEndRangesOf(ctx.profile),
                             static_cast<size_t>(launches.kernels_total));
    if (!groups.AddLaunched(launches, first, ctx.cancel)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    groups.AddUnlaunched(launches.unlaunched);
    const std::vector<SampleSummary> summaries = groups.Summarize();
    if (ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");

    const std::vector<RowKey> row_keys = groups.RowKeys();
    const std::vector<size_t> order = RowOrder(row_keys, summaries);
    Table table = EmptyTable(base);
    const size_t shown = limit > 0 ? std::min(order.size(), static_cast<size_t>(limit)) : order.size();
    for (size_t n = 0; n < shown; ++n) table.rows.push_back(groups.Row(order[n], row_keys[order[n]], summaries));
    AddNotes(table, launches, groups);
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

  static void AddNotes(Table& table, const LaunchBuckets& launches, const RangeKernelGroups& groups) {
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
        launches.kernels_total, groups.launched(), pct(groups.launched_time(), launches.kernel_time_total),
        groups.with_range(), pct(groups.with_range_time(), launches.kernel_time_total)));
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeNvtxKernelMap() {
  return std::make_shared<NvtxKernelMap>();
}

}  // namespace nsys::skills::builtin
