// nvtx_kernel_map: kernels grouped by the NVTX ranges they were launched in, mirroring `nsys stats -r nvtxkernsum`.
//
// A kernel belongs to every NVTX range on its launching thread that contains the launch call (the whole push/pop
// stack, plus same-thread start/end ranges), so nested ranges each count it. The stack comes from
// RuntimeTable::nvtx (innermost range) and NvtxTable::parent; groups are (range label, style, pid, tid, kernel
// name) found through dense hash indexes, so the work is linear in (kernels x stack depth) with no string work.
#include <fmt/format.h>

#include <algorithm>

#include "common_rows.h"
#include "nsys/skills/nvtx_labels.h"
#include "nsys/skills/summary_table.h"

namespace nsys::skills::builtin {
namespace {

using engine::Ns;

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
        {"base", ArgType::kBool, "Use kernel short (base) names instead of demangled names.", Value(false)},
        {"split_op_id", ArgType::kBool,
         "Keep PyTorch's \", op_id = N\" in range names (one group per op, as nsys does) instead of grouping by "
         "operator name.",
         Value(false)},
        {"limit", ArgType::kInt, "Show only the first N rows (0 = all).", Value(int64_t{0})},
    };
  }

  Expected<Table> run(const Context& ctx) const override {
    const engine::ProfileInfo& info = ctx.profile.info();
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
    const bool base = ArgBool(ctx, "base");
    const int64_t limit = ArgInt(ctx, "limit");
    if (limit < 0) return MakeError(ErrorKind::kInvalidArgument, "Argument 'limit' must be 0 (all) or positive.");
    auto labels_or = NvtxLabels::Build(ctx.profile, ArgBool(ctx, "split_op_id"), ctx.cancel);
    if (!labels_or) return labels_or.error();
    NvtxLabels& labels = labels_or.value();

    const engine::KernelTable& k = ctx.profile.kernels();
    const engine::RuntimeTable& rt = ctx.profile.runtime();
    const engine::NvtxTable& nvtx = ctx.profile.nvtx();
    const auto& kernel_names = base ? k.short_name : k.name;
    const auto [first, last] = RowRange(k, ctx.filter);

    // Kernels in launch-call order (runtime rows are sorted by start, so per thread this is time order), through
    // a bucket list over the launch rows: linear, no sort.
    int32_t min_launch = INT32_MAX;
    int32_t max_launch = -1;
    std::vector<int32_t> unlaunched;
    int64_t kernels_total = 0;
    int64_t kernel_time_total = 0;
    for (size_t i = first; i < last; ++i) {
      if (ctx.filter.device && *ctx.filter.device != k.device[i]) continue;
      if (ctx.filter.pid && *ctx.filter.pid != k.pid[i]) continue;
      ++kernels_total;
      kernel_time_total += k.end[i] - k.start[i];
      const int32_t r = k.launch[i];
      if (r < 0) {
        unlaunched.push_back(static_cast<int32_t>(i));
        continue;
      }
      min_launch = std::min(min_launch, r);
      max_launch = std::max(max_launch, r);
    }
    std::vector<int32_t> head;
    std::vector<int32_t> next(last - first, -1);
    if (max_launch >= 0) {
      head.assign(static_cast<size_t>(max_launch - min_launch) + 1, -1);
      for (size_t i = last; i-- > first;) {
        if (ctx.filter.device && *ctx.filter.device != k.device[i]) continue;
        if (ctx.filter.pid && *ctx.filter.pid != k.pid[i]) continue;
        const int32_t r = k.launch[i];
        if (r < 0) continue;
        int32_t& h = head[static_cast<size_t>(r - min_launch)];
        next[i - first] = h;
        h = static_cast<int32_t>(i);
      }
    }

    // Start/end ranges that begin and end on one thread, per thread, for the (rare) ranges outside the stack.
    DenseIndex threads;
    std::vector<std::vector<int32_t>> start_end_of_thread;
    Ns start_end_max = 0;
    for (size_t j = 0; j < nvtx.size(); ++j) {
      if (nvtx.style[j] != engine::NvtxStyle::kStartEnd || nvtx.end_tid[j] != nvtx.tid[j]) continue;
      const auto t = static_cast<size_t>(threads.IdOf(PackKey(nvtx.pid[j], nvtx.tid[j])));
      if (t >= start_end_of_thread.size()) start_end_of_thread.resize(t + 1);
      start_end_of_thread[t].push_back(static_cast<int32_t>(j));
      start_end_max = std::max(start_end_max, nvtx.end[j] - nvtx.start[j]);
    }

    // Group = (label/style/thread id "lt", kernel name). lt 0 with thread 0 = no launch call; label part 0 = no range.
    DenseIndex lt_index;
    DenseIndex groups;
    DenseIndex last_call_index;      // (thread, kernel name) -> slot in last_call
    std::vector<int32_t> last_call;  // runtime row of the previous kernel with that name on that thread
    std::vector<int32_t> range_lt(nvtx.size(), -1);
    std::vector<int64_t> nvtx_inst, kern_inst;
    std::vector<int32_t> representative;  // group -> a kernel row (for its name)
    std::vector<int32_t> group_lt_of;     // group -> lt
    std::vector<int32_t> pair_group, pair_kernel;
    pair_group.reserve(static_cast<size_t>(kernels_total) * 2);
    pair_kernel.reserve(static_cast<size_t>(kernels_total) * 2);
    int64_t with_range = 0, with_range_time = 0, launched = 0, launched_time = 0;

    auto group_for = [&](uint32_t lt, size_t kernel) {
      const int32_t g = groups.IdOf(PackKey(lt, kernel_names[kernel]));
      if (static_cast<size_t>(g) == representative.size()) {
        representative.push_back(static_cast<int32_t>(kernel));
        group_lt_of.push_back(static_cast<int32_t>(lt));
        nvtx_inst.push_back(0);
        kern_inst.push_back(0);
      }
      return g;
    };
    auto lt_of_range = [&](int32_t j, uint32_t thread_plus_one) {
      int32_t& cached = range_lt[static_cast<size_t>(j)];
      if (cached < 0) {
        const auto label = static_cast<uint32_t>(labels.LabelOf(static_cast<size_t>(j)));
        const uint32_t label_style = 1 + label * 2 + static_cast<uint32_t>(nvtx.style[static_cast<size_t>(j)]);
        cached = lt_index.IdOf(PackKey(label_style, thread_plus_one));
      }
      return static_cast<uint32_t>(cached);
    };

    std::vector<int32_t> stack;
    std::vector<int32_t> groups_of_kernel;
    for (size_t b = 0; b < head.size(); ++b) {
      if ((b & 0xFFFF) == 0 && ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
      const auto r = static_cast<size_t>(static_cast<int32_t>(b) + min_launch);
      for (int32_t kk = head[b]; kk >= 0; kk = next[static_cast<size_t>(kk) - first]) {
        const auto kernel = static_cast<size_t>(kk);
        const Ns dur = k.end[kernel] - k.start[kernel];
        ++launched;
        launched_time += dur;
        const auto thread = static_cast<uint32_t>(threads.IdOf(PackKey(rt.pid[r], rt.tid[r])));
        // The enclosing ranges: the push/pop stack from the innermost, then same-thread start/end ranges.
        stack.clear();
        for (int32_t j = rt.nvtx[r]; j >= 0; j = nvtx.parent[static_cast<size_t>(j)]) stack.push_back(j);
        if (thread < start_end_of_thread.size()) {
          const auto& list = start_end_of_thread[thread];
          auto it = std::upper_bound(list.begin(), list.end(), rt.start[r],
                                     [&](Ns t, int32_t j) { return t < nvtx.start[static_cast<size_t>(j)]; });
          while (it != list.begin()) {
            --it;
            const auto j = static_cast<size_t>(*it);
            if (nvtx.start[j] < rt.start[r] - start_end_max) break;
            if (nvtx.end[j] >= rt.end[r]) stack.push_back(*it);
          }
        }
        if (stack.empty()) {
          const int32_t g = group_for(lt_index.IdOf(PackKey(0, thread + 1)), kernel);
          ++kern_inst[static_cast<size_t>(g)];
          pair_group.push_back(g);
          pair_kernel.push_back(kk);
          continue;
        }
        ++with_range;
        with_range_time += dur;
        // The previous kernel of this name on this thread: a range already holding it already counted this pair.
        const int32_t slot = last_call_index.IdOf(PackKey(thread, kernel_names[kernel]));
        if (static_cast<size_t>(slot) == last_call.size()) last_call.push_back(-1);
        const int32_t prev = last_call[static_cast<size_t>(slot)];
        last_call[static_cast<size_t>(slot)] = static_cast<int32_t>(r);
        groups_of_kernel.clear();
        for (int32_t j : stack) {
          const int32_t g = group_for(lt_of_range(j, thread + 1), kernel);
          const auto js = static_cast<size_t>(j);
          const bool seen_pair = prev >= 0 && nvtx.start[js] <= rt.start[static_cast<size_t>(prev)] &&
                                 rt.end[static_cast<size_t>(prev)] <= nvtx.end[js];
          if (!seen_pair) ++nvtx_inst[static_cast<size_t>(g)];
          if (std::find(groups_of_kernel.begin(), groups_of_kernel.end(), g) == groups_of_kernel.end()) {
            groups_of_kernel.push_back(g);
            ++kern_inst[static_cast<size_t>(g)];
          }
          pair_group.push_back(g);
          pair_kernel.push_back(kk);
        }
      }
    }
    const uint32_t no_launch_lt = static_cast<uint32_t>(lt_index.IdOf(PackKey(0, 0)));
    for (int32_t kk : unlaunched) {
      const int32_t g = group_for(no_launch_lt, static_cast<size_t>(kk));
      ++kern_inst[static_cast<size_t>(g)];
      pair_group.push_back(g);
      pair_kernel.push_back(kk);
    }
    range_lt = {};
    const std::vector<SampleSummary> summaries = SummarizeGroups(pair_group, groups.size(), [&](size_t p) {
      const auto kernel = static_cast<size_t>(pair_kernel[p]);
      return k.end[kernel] - k.start[kernel];
    });
    if (ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");

    // Rows: nsys orders by range name (none first), pid, tid, then total time descending.
    struct RowKey {
      bool has_range;
      std::string range;
      bool has_thread;
      uint32_t pid, tid;
    };
    std::vector<RowKey> row_keys(groups.size());
    std::vector<std::string> label_text(labels.size());
    std::vector<bool> label_done(labels.size(), false);
    for (size_t g = 0; g < groups.size(); ++g) {
      const uint64_t lt_key = lt_index.key(group_lt_of[g]);
      const auto label_style = static_cast<uint32_t>(lt_key >> 32);
      const auto thread_plus_one = static_cast<uint32_t>(lt_key & 0xFFFFFFFF);
      RowKey& key = row_keys[g];
      key.has_range = label_style != 0;
      if (key.has_range) {
        const uint32_t label = (label_style - 1) / 2;
        if (!label_done[label]) {
          label_text[label] = labels.Text(static_cast<int32_t>(label));
          label_done[label] = true;
        }
        key.range = label_text[label];
      }
      key.has_thread = thread_plus_one != 0;
      if (key.has_thread) {
        const uint64_t t = threads.key(static_cast<int32_t>(thread_plus_one - 1));
        key.pid = static_cast<uint32_t>(t >> 32);
        key.tid = static_cast<uint32_t>(t & 0xFFFFFFFF);
      } else {
        key.pid = key.tid = 0;
      }
    }
    std::vector<size_t> order(groups.size());
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

    Table table;
    table.columns = {
        MakeColumn("nvtx_range", ColumnType::kString, "NVTX range name; null for kernels launched outside any range"),
        MakeColumn("style", ColumnType::kString, "PushPop or StartEnd"),
        MakeColumn("pid", ColumnType::kInt, "Process of the launching thread; null when the launch call is unknown"),
        MakeColumn("tid", ColumnType::kInt, "Launching thread"),
        MakeColumn("nvtx_inst", ColumnType::kInt, "Number of range instances that contain these kernels"),
        MakeColumn("kern_inst", ColumnType::kInt, "Number of kernel instances"),
        MakeColumn("total_time_ns", ColumnType::kInt, "Summed kernel time over (range, kernel) pairs, ns"),
    };
    AddStatColumns(table.columns, "", "_ns", "kernel durations");
    table.columns.push_back(MakeColumn("kernel_name", ColumnType::kString, base ? "Kernel short name" : "Kernel name"));
    const size_t shown = limit > 0 ? std::min(order.size(), static_cast<size_t>(limit)) : order.size();
    for (size_t n = 0; n < shown; ++n) {
      const size_t g = order[n];
      const RowKey& key = row_keys[g];
      const uint32_t label_style = static_cast<uint32_t>(lt_index.key(group_lt_of[g]) >> 32);
      std::vector<Value> row;
      row.push_back(key.has_range ? Value(key.range) : Value());
      row.push_back(key.has_range
                        ? Value(std::string(NvtxStyleName(static_cast<engine::NvtxStyle>((label_style - 1) % 2))))
                        : Value());
      row.push_back(key.has_thread ? Value(int64_t{key.pid}) : Value());
      row.push_back(key.has_thread ? Value(int64_t{key.tid}) : Value());
      row.push_back(Value(nvtx_inst[g]));
      row.push_back(Value(kern_inst[g]));
      row.push_back(Value(summaries[g].total));
      AddStatCells(row, summaries[g]);
      row.push_back(
          Value(std::string(ctx.profile.strings().view(kernel_names[static_cast<size_t>(representative[g])]))));
      table.rows.push_back(std::move(row));
    }

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
        kernels_total, launched, pct(launched_time, kernel_time_total), with_range,
        pct(with_range_time, kernel_time_total)));
    if (!labels.warning().empty()) table.notes.push_back(labels.warning());
    if (shown < order.size())
      table.notes.push_back(fmt::format("Showing the first {} of {} rows.", shown, order.size()));
    if (order.empty()) table.notes.push_back("No kernels start inside the selected window and filters.");
    return table;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeNvtxKernelMap() {
  return std::make_shared<NvtxKernelMap>();
}

}  // namespace nsys::skills::builtin
