// nvtx_gpu_projection: NVTX ranges projected onto the GPU, mirroring `nsys stats -r nvtxgpuproj`.
//
// A GPU operation (kernel, memcpy, memset) is contained by a range when the CUDA call that launched it lies
// inside the range on the same thread. A range's projection runs from its first contained operation's start to
// its last one's end; children are not subtracted. Only ranges that start and end on one thread count.
#include <fmt/format.h>

#include <algorithm>

#include "common_rows.h"
#include "nsys/skills/nvtx_labels.h"
#include "nsys/skills/summary_table.h"

namespace nsys::skills::builtin {
namespace {

using engine::Ns;

constexpr int64_t kDefaultLimit = 1000;

class NvtxGpuProjection final : public Skill {
 public:
  std::string name() const override { return "nvtx_gpu_projection"; }
  std::string description() const override {
    return "NVTX ranges projected onto the GPU: when the GPU work launched inside each range ran (nsys stats "
           "nvtxgpuproj).";
  }
  std::string reference() const override { return "nvtxgpuproj"; }
  engine::Need needs() const override {
    return engine::Need::kAttribution | engine::Need::kMemcpy | engine::Need::kMemset;
  }
  std::vector<ArgSpec> args() const override {
    return {{"limit", ArgType::kInt,
             "Show only the first N ranges in projected-start order (0 = all; a large profile has one row per "
             "range that launched GPU work).",
             Value(kDefaultLimit)}};
  }

  Expected<Table> run(const Context& ctx) const override {
    const engine::ProfileInfo& info = ctx.profile.info();
    if (!info.caps.nvtx) {
      return Declined("This profile has no NVTX data (no NVTX_EVENTS table): there are no ranges to project.");
    }
    if (!info.caps.runtime) {
      return Declined(
          "This profile has no CUDA API data (no CUPTI_ACTIVITY_KIND_RUNTIME table): without launch "
          "calls, GPU work cannot be placed inside NVTX ranges.");
    }
    if (!info.caps.kernels && !info.caps.memcpy && !info.caps.memset) {
      return Declined(
          "This profile has no GPU operations (no kernel, memcpy or memset table) to project NVTX ranges "
          "onto.");
    }
    const int64_t limit = ArgInt(ctx, "limit");
    if (limit < 0) return MakeError(ErrorKind::kInvalidArgument, "Argument 'limit' must be 0 (all) or positive.");
    auto labels_or = NvtxLabels::Build(ctx.profile, /*split_op_id=*/true, ctx.cancel);
    if (!labels_or) return labels_or.error();
    NvtxLabels& labels = labels_or.value();

    const engine::KernelTable& k = ctx.profile.kernels();
    const engine::MemcpyTable& mc = ctx.profile.memcpys();
    const engine::MemsetTable& ms = ctx.profile.memsets();
    const engine::RuntimeTable& rt = ctx.profile.runtime();
    const engine::NvtxTable& nvtx = ctx.profile.nvtx();

    // Every selected op, bucketed by launch row so that each range sees its launch calls in order and counts
    // distinct calls (nsys counts distinct correlation ids) without a set. An op is (table << 30 | row).
    constexpr uint32_t kRowBits = 30;
    std::vector<int32_t> head(rt.size(), -1);
    std::vector<uint32_t> op_ref;
    std::vector<int32_t> next;
    int64_t ops_total = 0;
    auto collect = [&](const auto& table, uint32_t tag) {
      const auto [first, last] = RowRange(table, ctx.filter);
      for (size_t i = first; i < last; ++i) {
        if (ctx.filter.device && *ctx.filter.device != table.device[i]) continue;
        if (ctx.filter.pid && *ctx.filter.pid != table.pid[i]) continue;
        ++ops_total;
        const int32_t r = table.launch[i];
        if (r < 0) continue;
        next.push_back(head[static_cast<size_t>(r)]);
        head[static_cast<size_t>(r)] = static_cast<int32_t>(op_ref.size());
        op_ref.push_back((tag << kRowBits) | static_cast<uint32_t>(i));
      }
    };
    if (k.size() >= (size_t{1} << kRowBits) || mc.size() >= (size_t{1} << kRowBits) ||
        ms.size() >= (size_t{1} << kRowBits)) {
      return MakeError(ErrorKind::kUnsupported, "nvtx_gpu_projection handles up to 2^30 GPU ops per table.");
    }
    collect(k, 0);
    collect(mc, 1);
    collect(ms, 2);
    if (ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    auto op_span = [&](uint32_t ref) -> std::pair<Ns, Ns> {
      const size_t row = ref & ((1u << kRowBits) - 1);
      switch (ref >> kRowBits) {
        case 0:
          return {k.start[row], k.end[row]};
        case 1:
          return {mc.start[row], mc.end[row]};
        default:
          return {ms.start[row], ms.end[row]};
      }
    };

    // Same-thread start/end ranges, per thread.
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

    struct Projection {
      Ns start, end;
      int32_t range;
      int32_t last_launch;
      int32_t ops;
      int32_t children;
    };
    std::vector<int32_t> projection_of_range(nvtx.size(), -1);
    std::vector<Projection> projections;
    int64_t ops_in_range = 0;
    std::vector<int32_t> stack;
    for (size_t r = 0; r < rt.size(); ++r) {
      if (head[r] < 0) continue;
      if ((r & 0xFFFF) == 0 && ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
      stack.clear();
      for (int32_t j = rt.nvtx[r]; j >= 0; j = nvtx.parent[static_cast<size_t>(j)]) stack.push_back(j);
      if (!start_end_of_thread.empty()) {
        const int32_t t = threads.Find(PackKey(rt.pid[r], rt.tid[r]));
        if (t >= 0) {
          const auto& list = start_end_of_thread[static_cast<size_t>(t)];
          auto it = std::upper_bound(list.begin(), list.end(), rt.start[r],
                                     [&](Ns ts, int32_t j) { return ts < nvtx.start[static_cast<size_t>(j)]; });
          while (it != list.begin()) {
            --it;
            const auto j = static_cast<size_t>(*it);
            if (nvtx.start[j] < rt.start[r] - start_end_max) break;
            if (nvtx.end[j] >= rt.end[r]) stack.push_back(*it);
          }
        }
      }
      for (int32_t o = head[r]; o >= 0; o = next[static_cast<size_t>(o)]) {
        if (!stack.empty()) ++ops_in_range;
        const auto [op_start, op_end] = op_span(op_ref[static_cast<size_t>(o)]);
        for (int32_t j : stack) {
          int32_t& p = projection_of_range[static_cast<size_t>(j)];
          if (p < 0) {
            p = static_cast<int32_t>(projections.size());
            projections.push_back({op_start, op_end, j, -1, 0, 0});
          }
          Projection& proj = projections[static_cast<size_t>(p)];
          proj.start = std::min(proj.start, op_start);
          proj.end = std::max(proj.end, op_end);
          if (proj.last_launch != static_cast<int32_t>(r)) {
            proj.last_launch = static_cast<int32_t>(r);
            ++proj.ops;
          }
        }
      }
    }
    for (const Projection& proj : projections) {
      const int32_t parent = nvtx.parent[static_cast<size_t>(proj.range)];
      if (parent >= 0 && projection_of_range[static_cast<size_t>(parent)] >= 0) {
        ++projections[static_cast<size_t>(projection_of_range[static_cast<size_t>(parent)])].children;
      }
    }
    // nsys's order: projected start, then longer projections first. Only the rows shown need sorting.
    std::vector<uint32_t> order(projections.size());
    for (size_t p = 0; p < order.size(); ++p) order[p] = static_cast<uint32_t>(p);
    auto before = [&](uint32_t a, uint32_t b) {
      const Projection& x = projections[a];
      const Projection& y = projections[b];
      if (x.start != y.start) return x.start < y.start;
      if (x.end - x.start != y.end - y.start) return x.end - x.start > y.end - y.start;
      return x.range < y.range;
    };
    const size_t shown = limit > 0 ? std::min(order.size(), static_cast<size_t>(limit)) : order.size();
    std::partial_sort(order.begin(), order.begin() + static_cast<ptrdiff_t>(shown), order.end(), before);

    Table table;
    table.columns = {
        MakeColumn("name", ColumnType::kString, "NVTX range name"),
        MakeColumn("projected_start_ns", ColumnType::kInt, "Start of the first contained GPU op (capture clock)"),
        MakeColumn("projected_duration_ns", ColumnType::kInt, "Last contained op end minus first op start"),
        MakeColumn("orig_start_ns", ColumnType::kInt, "Range start on the CPU (capture clock)"),
        MakeColumn("orig_duration_ns", ColumnType::kInt, "Range duration on the CPU"),
        MakeColumn("style", ColumnType::kString, "PushPop or StartEnd"),
        MakeColumn("pid", ColumnType::kInt, "Process"),
        MakeColumn("tid", ColumnType::kInt, "Thread"),
        MakeColumn("numgpuops", ColumnType::kInt, "Distinct launch calls of the contained GPU ops"),
        MakeColumn("lvl", ColumnType::kInt, "Push/pop stack level, 0 = outermost"),
        MakeColumn("numchild", ColumnType::kInt, "Child ranges that also contain GPU ops"),
        MakeColumn("rangeid", ColumnType::kInt, "Range id (the engine's NVTX row index)"),
        MakeColumn("parentid", ColumnType::kInt, "Range id of the enclosing range, null at level 0"),
        MakeColumn("rangestack", ColumnType::kString, "Range ids from the outermost range down, \":a:b:c\""),
    };
    for (size_t n = 0; n < shown; ++n) {
      const Projection& proj = projections[order[n]];
      const auto j = static_cast<size_t>(proj.range);
      std::vector<int32_t> chain;
      for (int32_t a = proj.range; a >= 0; a = nvtx.parent[static_cast<size_t>(a)]) chain.push_back(a);
      std::string stack_text;
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) stack_text += ":" + std::to_string(*it);
      const int32_t parent = nvtx.parent[j];
      table.rows.push_back({
          Value(labels.Text(labels.LabelOf(j))),
          Value(proj.start),
          Value(proj.end - proj.start),
          Value(nvtx.start[j]),
          Value(nvtx.end[j] - nvtx.start[j]),
          Value(std::string(NvtxStyleName(nvtx.style[j]))),
          Value(int64_t{nvtx.pid[j]}),
          Value(int64_t{nvtx.tid[j]}),
          Value(int64_t{proj.ops}),
          Value(int64_t{nvtx.depth[j]}),
          Value(int64_t{proj.children}),
          Value(int64_t{proj.range}),
          parent >= 0 ? Value(int64_t{parent}) : Value(),
          Value(std::move(stack_text)),
      });
    }

    const auto launched = static_cast<int64_t>(op_ref.size());
    table.notes.push_back(
        "A GPU op (kernel, memcpy, memset) is contained by every NVTX range on its launching thread that contains "
        "its launch call; a range's projection spans its first contained op's start to its last one's end, children "
        "not subtracted. Ops are selected by their start inside the window. Timestamps are on the capture clock (ns).");
    table.notes.push_back(fmt::format(
        "Coverage: {} GPU ops; {} have a launch call; {} were launched inside at least one NVTX range. Ops without a "
        "launch call (cut by the capture window) cannot be projected.",
        ops_total, launched, ops_in_range));
    table.notes.push_back(
        "rangeid/parentid/rangestack are this tool's NVTX row indexes (ranges sorted by start), not the export's "
        "rowids that nsys prints; lvl and parentid follow push/pop nesting (start/end ranges are at level 0).");
    if (!labels.warning().empty()) table.notes.push_back(labels.warning());
    if (shown < order.size()) {
      table.notes.push_back(
          fmt::format("Showing the first {} of {} ranges; pass limit=0 for all.", shown, order.size()));
    }
    if (order.empty()) table.notes.push_back("No NVTX range contains the launch of a GPU op in the selected window.");
    return table;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeNvtxGpuProjection() {
  return std::make_shared<NvtxGpuProjection>();
}

}  // namespace nsys::skills::builtin
