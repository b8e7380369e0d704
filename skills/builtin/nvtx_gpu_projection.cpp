// nvtx_gpu_projection: NVTX ranges projected onto the GPU, mirroring `nsys stats -r nvtxgpuproj`.
//
// A GPU operation (kernel, memcpy, memset) is contained by a range when the CUDA call that launched it lies
// inside the range on the same thread. A range's projection runs from its first contained operation's start to
// its last one's end; children are not subtracted. Only ranges that start and end on one thread count.
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

constexpr int64_t kDefaultLimit = 1000;

// Every selected op, bucketed by launch row so that each range sees its launch calls in order and counts
// distinct calls (nsys counts distinct correlation ids) without a set. An op is (table << 30 | row).
constexpr uint32_t kRowBits = 30;

struct OpsByLaunch {
  HugeVector<int32_t> head;     // runtime row -> its latest op (index into op_ref), or -1; huge pages (millions)
  HugeVector<uint32_t> op_ref;  // (table << kRowBits | row) of each launched op
  HugeVector<int32_t> next;     // op -> the previous op of the same launch row, or -1
  int64_t ops_total = 0;        // selected ops, launched or not
};

struct GpuOpTables {
  const engine::KernelTable& k;
  const engine::MemcpyTable& mc;
  const engine::MemsetTable& ms;
  const engine::GraphTable& g;  // CUDA graph executions recorded whole: projected through their cudaGraphLaunch

  bool RowsFit() const {
    return k.size() < (size_t{1} << kRowBits) && mc.size() < (size_t{1} << kRowBits) &&
           ms.size() < (size_t{1} << kRowBits) && g.size() < (size_t{1} << kRowBits);
  }

  OpsByLaunch ByLaunch(const engine::Filter& filter, size_t runtime_rows) const {
    OpsByLaunch out;
    out.head.assign(runtime_rows, -1);
    // Reserved for every op in the window: growing these by doubling copied and page-faulted them several times.
    const size_t most = Rows(k, filter) + Rows(mc, filter) + Rows(ms, filter) + Rows(g, filter);
    out.op_ref.reserve(most);
    out.next.reserve(most);
    Collect(k, 0, filter, out);
    Collect(mc, 1, filter, out);
    Collect(ms, 2, filter, out);
    Collect(g, 3, filter, out);
    return out;
  }

  std::pair<Ns, Ns> Span(uint32_t ref) const {
    const size_t row = ref & ((1u << kRowBits) - 1);
    switch (ref >> kRowBits) {
      case 0:
        return {k.start[row], k.end[row]};
      case 1:
        return {mc.start[row], mc.end[row]};
      case 2:
        return {ms.start[row], ms.end[row]};
      default:
        return {g.start[row], g.end[row]};
    }
  }

 private:
  template <typename OpTable>
  static size_t Rows(const OpTable& table, const engine::Filter& filter) {
    const auto [first, last] = RowRange(table, filter);
    return last - first;
  }

  template <typename OpTable>
  static void Collect(const OpTable& table, uint32_t tag, const engine::Filter& filter, OpsByLaunch& out) {
    const auto [first, last] = RowRange(table, filter);
    for (size_t i = first; i < last; ++i) {
      if (!filter.AcceptsDevice(table.device[i])) continue;
      if (!filter.AcceptsProcess(table.pid[i])) continue;
      ++out.ops_total;
      const int32_t r = table.launch[i];
      if (r < 0) continue;
      out.next.push_back(out.head[static_cast<size_t>(r)]);
      out.head[static_cast<size_t>(r)] = static_cast<int32_t>(out.op_ref.size());
      out.op_ref.push_back((tag << kRowBits) | static_cast<uint32_t>(i));
    }
  }
};

struct Projection {
  Ns start, end;
  int32_t range;
  int32_t last_launch;
  int32_t ops;
  int32_t children;
};

// Projections in 8 MiB chunks on huge pages: millions of them grow without the copies and fresh page faults of a
// doubling vector, and only the chunks used are allocated.
class ProjectionList {
 public:
  Projection& operator[](size_t i) { return chunks_[i >> kShift][i & kMask]; }
  const Projection& operator[](size_t i) const { return chunks_[i >> kShift][i & kMask]; }
  size_t size() const { return size_; }
  void push_back(const Projection& p) {
    if ((size_ & kMask) == 0) chunks_.push_back(MakeHugeArray<Projection>(kMask + 1));
    chunks_.back()[size_ & kMask] = p;
    ++size_;
  }

 private:
  static constexpr size_t kShift = 18;  // 2^18 projections of 32 bytes
  static constexpr size_t kMask = (size_t{1} << kShift) - 1;
  std::vector<HugeArray<Projection>> chunks_;
  size_t size_ = 0;
};

// One projection per NVTX range that contains the launch call of a selected op.
struct Projections {
  HugeVector<int32_t> of_range;  // NVTX row -> index into list, or -1; huge pages (tens of millions of rows)
  ProjectionList list;           // one per range that launched GPU work: millions on a 2 GB export
  int64_t ops_in_range = 0;

  // Walks the launch rows in order, widening the projection of every range that encloses each call. False when
  // cancelled.
  bool Build(const engine::Profile& profile, const GpuOpTables& ops, const OpsByLaunch& by_launch,
             const CancelToken& cancel) {
    const engine::RuntimeTable& rt = profile.runtime();
    const engine::NvtxTable& nvtx = profile.nvtx();
    const std::shared_ptr<const StartEndRangesByThread> start_end_ranges = StartEndRangesOf(profile);
    const StartEndRangesByThread& start_end = *start_end_ranges;
    of_range.assign(nvtx.size(), -1);
    std::vector<int32_t> stack;
    WorkMeter work(cancel);  // a call costs the ranges around it times its operations (issue 38: 100,000 nested)
    for (size_t r = 0; r < rt.size(); ++r) {
      if (!work.Add(1)) return false;
      if (by_launch.head[r] < 0) continue;
      stack.clear();
      AppendPushPopStack(rt.nvtx[r], nvtx, stack);
      if (!start_end.of_thread.empty()) {
        const int32_t t = start_end.threads.Find(PackKey(rt.pid[r], rt.tid[r]));
        if (t >= 0) work.Count(start_end.AppendEnclosing(static_cast<size_t>(t), rt.start[r], rt.end[r], nvtx, stack));
      }
      for (int32_t o = by_launch.head[r]; o >= 0; o = by_launch.next[static_cast<size_t>(o)]) {
        if (!work.Add(1 + stack.size())) return false;
        if (!stack.empty()) ++ops_in_range;
        const auto [op_start, op_end] = ops.Span(by_launch.op_ref[static_cast<size_t>(o)]);
        for (int32_t j : stack) Widen(j, static_cast<int32_t>(r), op_start, op_end);
      }
    }
    return true;
  }

  void CountChildren(const engine::NvtxTable& nvtx) {
    for (size_t n = 0; n < list.size(); ++n) {
      const Projection& proj = list[n];
      const int32_t parent = nvtx.parent[static_cast<size_t>(proj.range)];
      if (parent >= 0 && of_range[static_cast<size_t>(parent)] >= 0) {
        ++list[static_cast<size_t>(of_range[static_cast<size_t>(parent)])].children;
      }
    }
  }

  // Indexes into list whose first `shown` are in nsys's order: projected start, then longer projections first.
  // Only the rows shown need sorting.
  HugeVector<uint32_t> FirstInOrder(size_t shown) const {
    HugeVector<uint32_t> order(list.size());
    for (size_t p = 0; p < order.size(); ++p) order[p] = static_cast<uint32_t>(p);
    auto before = [&](uint32_t a, uint32_t b) {
      const Projection& x = list[a];
      const Projection& y = list[b];
      if (x.start != y.start) return x.start < y.start;
      if (x.end - x.start != y.end - y.start) return x.end - x.start > y.end - y.start;
      return x.range < y.range;
    };
    std::partial_sort(order.begin(), order.begin() + static_cast<ptrdiff_t>(shown), order.end(), before);
    return order;
  }

 private:
  void Widen(int32_t j, int32_t launch_row, Ns op_start, Ns op_end) {
    int32_t& p = of_range[static_cast<size_t>(j)];
    if (p < 0) {
      p = static_cast<int32_t>(list.size());
      list.push_back({op_start, op_end, j, -1, 0, 0});
    }
    Projection& proj = list[static_cast<size_t>(p)];
    proj.start = std::min(proj.start, op_start);
    proj.end = std::max(proj.end, op_end);
    if (proj.last_launch != launch_row) {
      proj.last_launch = launch_row;
      ++proj.ops;
    }
  }
};

class NvtxGpuProjection final : public Skill {
 public:
  std::string name() const override { return "nvtx_gpu_projection"; }
  std::string description() const override {
    return "NVTX ranges projected onto the GPU: when the GPU work launched inside each range ran (nsys stats "
           "nvtxgpuproj).";
  }
  std::string reference() const override { return "nvtxgpuproj"; }
  engine::Need needs() const override {
    return engine::Need::kAttribution | engine::Need::kMemcpy | engine::Need::kMemset | engine::Need::kGraphs;
  }
  std::vector<ArgSpec> args() const override {
    return {LimitArg(kDefaultLimit,
                     "Show only the first N ranges in projected-start order (0 = all; a large profile has one row "
                     "per range that launched GPU work).")};
  }

  Expected<Table> run(const Context& ctx) const override {
    if (auto declined = MissingData(ctx.profile.info())) return *declined;
    const int64_t limit = ArgInt(ctx, "limit");
    auto labels_or = NvtxLabels::Build(ctx.profile, /*split_op_id=*/true, ctx.cancel);
    if (!labels_or) return labels_or.error();
    NvtxLabels& labels = labels_or.value();

    const GpuOpTables ops{ctx.profile.kernels(), ctx.profile.memcpys(), ctx.profile.memsets(), ctx.profile.graphs()};
    if (!ops.RowsFit()) {
      return MakeError(ErrorKind::kUnsupported, "nvtx_gpu_projection handles up to 2^30 GPU ops per table.");
    }
    const OpsByLaunch by_launch = ops.ByLaunch(ctx.filter, ctx.profile.runtime().size());
    if (ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    Projections projections;
    if (!projections.Build(ctx.profile, ops, by_launch, ctx.cancel)) {
      return MakeError(ErrorKind::kCancelled, "Cancelled.");
    }
    projections.CountChildren(ctx.profile.nvtx());
    const size_t total = projections.list.size();
    const size_t shown = limit > 0 ? std::min(total, static_cast<size_t>(limit)) : total;
    const HugeVector<uint32_t> order = projections.FirstInOrder(shown);

    Table table = EmptyTable();
    for (size_t n = 0; n < shown; ++n) {
      table.rows.push_back(Row(projections.list[order[n]], ctx.profile.nvtx(), labels));
    }
    AddNotes(table, by_launch, projections.ops_in_range);
    if (!labels.warning().empty()) table.notes.push_back(labels.warning());
    if (shown < total) {
      table.notes.push_back(fmt::format("Showing the first {} of {} ranges; pass limit=0 for all.", shown, total));
    }
    if (total == 0) table.notes.push_back("No NVTX range contains the launch of a GPU op in the selected window.");
    return table;
  }

 private:
  static std::optional<Table> MissingData(const engine::ProfileInfo& info) {
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
    return std::nullopt;
  }

  static Table EmptyTable() {
    Table table;
    table.columns = {
        MakeColumn("name", ValueType::kString, "NVTX range name"),
        MakeColumn("projected_start_ns", ValueType::kInt, "Start of the first contained GPU op (capture clock)"),
        MakeColumn("projected_duration_ns", ValueType::kInt, "Last contained op end minus first op start"),
        MakeColumn("orig_start_ns", ValueType::kInt, "Range start on the CPU (capture clock)"),
        MakeColumn("orig_duration_ns", ValueType::kInt, "Range duration on the CPU"),
        MakeColumn("style", ValueType::kString, "PushPop or StartEnd"),
        MakeColumn("pid", ValueType::kInt, "Process"),
        MakeColumn("tid", ValueType::kInt, "Thread"),
        MakeColumn("numgpuops", ValueType::kInt, "Distinct launch calls of the contained GPU ops"),
        MakeColumn("lvl", ValueType::kInt, "Push/pop stack level, 0 = outermost"),
        MakeColumn("numchild", ValueType::kInt, "Child ranges that also contain GPU ops"),
        MakeColumn("rangeid", ValueType::kInt, "Range id (the engine's NVTX row index)"),
        MakeColumn("parentid", ValueType::kInt, "Range id of the enclosing range, null at level 0"),
        MakeColumn("rangestack", ValueType::kString, "Range ids from the outermost range down, \":a:b:c\""),
    };
    return table;
  }

  static std::vector<Value> Row(const Projection& proj, const engine::NvtxTable& nvtx, NvtxLabels& labels) {
    const auto j = static_cast<size_t>(proj.range);
    std::vector<int32_t> chain;
    for (int32_t a = proj.range; a >= 0; a = nvtx.parent[static_cast<size_t>(a)]) chain.push_back(a);
    std::string stack_text;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) stack_text += ":" + std::to_string(*it);
    const int32_t parent = nvtx.parent[j];
    return {
        Value(labels.Text(labels.LabelOf(j))),
        Value(proj.start),
        Value(proj.end - proj.start),
        Value(nvtx.start[j]),
        Value(nvtx.end[j] - nvtx.start[j]),
        Value(std::string(NvtxStyleName(nvtx.style[j]))),
        Value(int64_t{nvtx.pid[j]}),
        Value(int64_t{nvtx.tid[j]}),
        Value(int64_t{proj.ops}),
        Value(int64_t{nvtx.Depth(j)}),
        Value(int64_t{proj.children}),
        Value(int64_t{proj.range}),
        parent >= 0 ? Value(int64_t{parent}) : Value(),
        Value(std::move(stack_text)),
    };
  }

  static void AddNotes(Table& table, const OpsByLaunch& by_launch, int64_t ops_in_range) {
    const auto launched = static_cast<int64_t>(by_launch.op_ref.size());
    table.notes.push_back(
        "A GPU op (kernel, memcpy, memset, or a CUDA graph execution recorded whole) is contained by every NVTX range "
        "on its launching thread that contains "
        "its launch call; a range's projection spans its first contained op's start to its last one's end, children "
        "not subtracted. Ops are selected by their start inside the window. Timestamps are on the capture clock (ns).");
    table.notes.push_back(fmt::format(
        "Coverage: {} GPU ops; {} have a launch call; {} were launched inside at least one NVTX range. Ops without a "
        "launch call (cut by the capture window) cannot be projected.",
        by_launch.ops_total, launched, ops_in_range));
    table.notes.push_back(
        "rangeid/parentid/rangestack are this tool's NVTX row indexes (ranges sorted by start), not the export's "
        "rowids that nsys prints; lvl and parentid follow push/pop nesting (start/end ranges are at level 0).");
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeNvtxGpuProjection() {
  return std::make_shared<NvtxGpuProjection>();
}

}  // namespace nsys::skills::builtin
