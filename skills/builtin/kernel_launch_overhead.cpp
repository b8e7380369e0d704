// kernel_launch_overhead: per launch, the API call time, queue time and kernel time, summarised per (thread,
// device, launch API, kernel), mirroring `nsys stats -r kernexecsum`.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "common_rows.h"
#include "nsys/skills/summary_table.h"

namespace nsys::skills::builtin {
namespace {

class KernelLaunchOverhead final : public Skill {
 public:
  std::string name() const override { return "kernel_launch_overhead"; }
  std::string description() const override {
    return "Kernel launch API time, queue time and execution time per thread, device, launch call and kernel (nsys "
           "stats kernexecsum).";
  }
  std::string reference() const override { return "kernexecsum"; }
  engine::Need needs() const override { return engine::Need::kKernels | engine::Need::kRuntime; }
  std::vector<ArgSpec> args() const override {
    return {
        {"base", ArgType::kBool, "Use kernel short (base) names instead of demangled names.", Value(false)},
        {"limit", ArgType::kInt, "Show only the first N rows (0 = all).", Value(int64_t{0})},
    };
  }

  Expected<Table> run(const Context& ctx) const override {
    const engine::ProfileInfo& info = ctx.profile.info();
    if (!info.caps.kernels) {
      return Declined(
          "This profile has no CUDA kernel data (no CUPTI_ACTIVITY_KIND_KERNEL table): kernels were not "
          "traced.");
    }
    if (!info.caps.runtime) {
      return Declined(
          "This profile has no CUDA API data (no CUPTI_ACTIVITY_KIND_RUNTIME table): without launch calls "
          "there is no launch or queue time to measure.");
    }
    const bool base = ArgBool(ctx, "base");
    const int64_t limit = ArgInt(ctx, "limit");
    if (limit < 0) return MakeError(ErrorKind::kInvalidArgument, "Argument 'limit' must be 0 (all) or positive.");

    const engine::KernelTable& k = ctx.profile.kernels();
    const engine::RuntimeTable& rt = ctx.profile.runtime();
    const engine::StringPool& strings = ctx.profile.strings();
    const auto& kernel_names = base ? k.short_name : k.name;
    const auto range = RowRange(k, ctx.filter);
    const auto first = range.first;
    const auto last = range.second;

    // API names map to groups once per name id (several ids can share a name once "_vNNNN" is dropped).
    std::vector<int32_t> api_of_name(strings.size(), -1);
    std::unordered_map<std::string_view, int32_t> api_of_text;
    std::vector<std::string_view> api_text;
    DenseIndex threads, thread_device, thread_device_api, groups;
    std::vector<size_t> representative;  // group -> kernel row
    std::vector<int32_t> group_api;
    std::vector<int32_t> group_of_row(last - first, -1);
    std::vector<int32_t> queue_group_of_row(last - first, -1);
    int64_t selected = 0, selected_time = 0, launched = 0, launched_time = 0;
    for (size_t i = first; i < last; ++i) {
      if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
      if (ctx.filter.device && *ctx.filter.device != k.device[i]) continue;
      if (ctx.filter.pid && *ctx.filter.pid != k.pid[i]) continue;
      ++selected;
      selected_time += k.end[i] - k.start[i];
      const int32_t r = k.launch[i];
      if (r < 0) continue;
      ++launched;
      launched_time += k.end[i] - k.start[i];
      const auto rr = static_cast<size_t>(r);
      const engine::StrId api_name = rt.name[rr];
      if (api_name >= api_of_name.size()) api_of_name.resize(static_cast<size_t>(api_name) + 1, -1);
      int32_t& api = api_of_name[api_name];
      if (api < 0) {
        const std::string_view text = StripApiVersionSuffix(strings.view(api_name));
        auto [it, inserted] = api_of_text.try_emplace(text, static_cast<int32_t>(api_text.size()));
        if (inserted) api_text.push_back(text);
        api = it->second;
      }
      // (pid, tid, device, api) in one 64-bit key when each fits its field (23/24/8/8 bits), else through a chain
      // of indexes whose keys set bit 63, so the two kinds never collide.
      const auto device = static_cast<uint32_t>(k.device[i]);
      int32_t tda;
      if (device < 256 && api < 256 && rt.pid[rr] < (1u << 23)) {
        tda = thread_device_api.IdOf((static_cast<uint64_t>(rt.pid[rr]) << 40) |
                                     (static_cast<uint64_t>(rt.tid[rr]) << 16) | (device << 8) |
                                     static_cast<uint32_t>(api));
      } else {
        const int32_t t = threads.IdOf(PackKey(rt.pid[rr], rt.tid[rr]));
        const int32_t td = thread_device.IdOf(PackKey(static_cast<uint32_t>(t), device));
        tda = thread_device_api.IdOf((uint64_t{1} << 63) |
                                     PackKey(static_cast<uint32_t>(td), static_cast<uint32_t>(api)));
      }
      const int32_t g = groups.IdOf(PackKey(static_cast<uint32_t>(tda), kernel_names[i]));
      if (static_cast<size_t>(g) == representative.size()) {
        representative.push_back(i);
        group_api.push_back(api);
      }
      group_of_row[i - first] = g;
      if (k.start[i] >= rt.end[rr]) queue_group_of_row[i - first] = g;
    }
    const size_t n_groups = groups.size();
    auto launch_of = [&](size_t row) { return static_cast<size_t>(k.launch[first + row]); };
    GroupedSamples samples(group_of_row, n_groups);
    const auto total = samples.Summarize([&](size_t row) {
      const size_t r = launch_of(row);
      return std::max(rt.end[r], k.end[first + row]) - rt.start[r];
    });
    const auto api = samples.Summarize([&](size_t row) {
      const size_t r = launch_of(row);
      return rt.end[r] - rt.start[r];
    });
    const auto queue = SummarizeGroups(queue_group_of_row, n_groups,
                                       [&](size_t row) { return k.start[first + row] - rt.end[launch_of(row)]; });
    const auto kernel = samples.Summarize([&](size_t row) { return k.end[first + row] - k.start[first + row]; });
    if (ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");

    std::vector<size_t> order(n_groups);
    for (size_t g = 0; g < n_groups; ++g) order[g] = g;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (total[a].avg != total[b].avg) return total[a].avg > total[b].avg;
      return a < b;
    });

    Table table;
    table.columns = {
        MakeColumn("pid", ColumnType::kInt, "Process that made the launch call"),
        MakeColumn("tid", ColumnType::kInt, "Thread that made the launch call"),
        MakeColumn("devid", ColumnType::kInt, "CUDA device that ran the kernel"),
        MakeColumn("count", ColumnType::kInt, "Kernel launches"),
        MakeColumn("qcount", ColumnType::kInt, "Launches whose kernel started at or after the call returned"),
    };
    AddStatColumns(table.columns, "t", "_ns", "total time: call start to the later of call end and kernel end");
    AddStatColumns(table.columns, "a", "_ns", "launch API call durations");
    AddStatColumns(table.columns, "q", "_ns", "queue times: kernel start minus call end, when not negative");
    AddStatColumns(table.columns, "k", "_ns", "kernel durations");
    table.columns.push_back(MakeColumn("api_name", ColumnType::kString, "Launch API function"));
    table.columns.push_back(MakeColumn("kernel_name", ColumnType::kString, base ? "Kernel short name" : "Kernel name"));
    const size_t shown = limit > 0 ? std::min(order.size(), static_cast<size_t>(limit)) : order.size();
    for (size_t n = 0; n < shown; ++n) {
      const size_t g = order[n];
      const size_t i = representative[g];
      const auto r = static_cast<size_t>(k.launch[i]);
      std::vector<Value> row{Value(int64_t{rt.pid[r]}), Value(int64_t{rt.tid[r]}), Value(int64_t{k.device[i]}),
                             Value(total[g].count), Value(queue[g].count)};
      AddStatCells(row, total[g]);
      AddStatCells(row, api[g]);
      if (queue[g].count > 0) {
        AddStatCells(row, queue[g]);
      } else {
        AddNullStatCells(row);
      }
      AddStatCells(row, kernel[g]);
      row.push_back(Value(std::string(api_text[static_cast<size_t>(group_api[g])])));
      row.push_back(Value(std::string(strings.view(kernel_names[i]))));
      table.rows.push_back(std::move(row));
    }

    const double pct =
        selected_time > 0 ? 100.0 * static_cast<double>(launched_time) / static_cast<double>(selected_time) : 0.0;
    table.notes.push_back(
        "Per launch: API time = the launch call's duration; queue time = kernel start minus call end, counted (qcount) "
        "only when not negative, since a kernel can start before its launch call returns; total = call start to the "
        "later of call end and kernel end. Rows are ordered by average total time.");
    table.notes.push_back(fmt::format(
        "Coverage: {} of {} kernels ({:.1f}% of kernel time) have a launch call in the same process and are "
        "included; the others (cut by the capture window, or launched through an API that was not traced) cannot "
        "be timed.",
        launched, selected, pct));
    if (shown < order.size())
      table.notes.push_back(fmt::format("Showing the first {} of {} rows.", shown, order.size()));
    if (order.empty()) table.notes.push_back("No launched kernels start inside the selected window and filters.");
    return table;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeKernelLaunchOverhead() {
  return std::make_shared<KernelLaunchOverhead>();
}

}  // namespace nsys::skills::builtin
