// kernel_launch_overhead: per launch, the API call time, queue time and kernel time, summarised per (thread,
// device, launch API, kernel), mirroring `nsys stats -r kernexecsum`.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common_rows.h"
#include "nsys/skills/summary_table.h"

namespace nsys::skills::builtin {
namespace {

// Launch API names as dense ids, mapped once per name id (several ids can share a name once "_vNNNN" is dropped).
class ApiNames {
 public:
  explicit ApiNames(const engine::StringPool& strings) : strings_(strings), api_of_name_(strings.size(), -1) {}

  int32_t IdOf(engine::StrId api_name) {
    if (api_name >= api_of_name_.size()) api_of_name_.resize(static_cast<size_t>(api_name) + 1, -1);
    int32_t& api = api_of_name_[api_name];
    if (api < 0) {
      const std::string_view text = StripApiVersionSuffix(strings_.view(api_name));
      auto [it, inserted] = api_of_text_.try_emplace(text, static_cast<int32_t>(api_text_.size()));
      if (inserted) api_text_.push_back(text);
      api = it->second;
    }
    return api;
  }
  std::string_view Text(int32_t api) const { return api_text_[static_cast<size_t>(api)]; }

 private:
  const engine::StringPool& strings_;
  std::vector<int32_t> api_of_name_;
  std::unordered_map<std::string_view, int32_t> api_of_text_;
  std::vector<std::string_view> api_text_;
};

struct LaunchSummaries {
  std::vector<SampleSummary> total, api, queue, kernel;
};

// The selected kernels grouped by (launching thread, device, launch API, kernel name).
class LaunchGroups {
 public:
  LaunchGroups(const engine::KernelTable& k, const engine::RuntimeTable& rt, const engine::StringPool& strings,
               const engine::Column<engine::StrId>& kernel_names, std::pair<size_t, size_t> rows)
      : k_(k),
        rt_(rt),
        strings_(strings),
        kernel_names_(kernel_names),
        first_(rows.first),
        last_(rows.second),
        apis_(strings),
        group_of_row_(last_ - first_, -1),
        queue_group_of_row_(last_ - first_, -1) {}

  // False when cancelled.
  bool Build(const engine::Filter& filter, const CancelToken& cancel) {
    for (size_t i = first_; i < last_; ++i) {
      if ((i & 0xFFFF) == 0 && cancel.cancelled()) return false;
      if (!filter.AcceptsDevice(k_.device[i])) continue;
      if (!filter.AcceptsProcess(k_.pid[i])) continue;
      ++selected_;
      selected_time_ += k_.end[i] - k_.start[i];
      const int32_t r = k_.launch[i];
      if (r < 0) continue;
      ++launched_;
      launched_time_ += k_.end[i] - k_.start[i];
      const auto rr = static_cast<size_t>(r);
      const int32_t api = apis_.IdOf(rt_.name[rr]);
      const int32_t tda = ThreadDeviceApi(rr, static_cast<uint32_t>(k_.device[i]), api);
      const int32_t g = groups_.IdOf(PackKey(static_cast<uint32_t>(tda), kernel_names_[i]));
      if (static_cast<size_t>(g) == representative_.size()) {
        representative_.push_back(i);
        group_api_.push_back(api);
      }
      group_of_row_[i - first_] = g;
      if (k_.start[i] >= rt_.end[rr]) queue_group_of_row_[i - first_] = g;
    }
    return true;
  }

  LaunchSummaries Summarize() const {
    const size_t first = first_;
    const engine::KernelTable& k = k_;
    const engine::RuntimeTable& rt = rt_;
    auto launch_of = [&](size_t row) { return static_cast<size_t>(k.launch[first + row]); };
    GroupedSamples samples(group_of_row_, groups_.size());
    LaunchSummaries out;
    out.total = samples.Summarize([&](size_t row) {
      const size_t r = launch_of(row);
      return std::max(rt.end[r], k.end[first + row]) - rt.start[r];
    });
    out.api = samples.Summarize([&](size_t row) {
      const size_t r = launch_of(row);
      return rt.end[r] - rt.start[r];
    });
    out.queue = SummarizeGroups(queue_group_of_row_, groups_.size(),
                                [&](size_t row) { return k.start[first + row] - rt.end[launch_of(row)]; });
    out.kernel = samples.Summarize([&](size_t row) { return k.end[first + row] - k.start[first + row]; });
    return out;
  }

  std::vector<Value> Row(size_t g, const LaunchSummaries& s) const {
    const size_t i = representative_[g];
    const auto r = static_cast<size_t>(k_.launch[i]);
    std::vector<Value> row{Value(int64_t{rt_.pid[r]}), Value(int64_t{rt_.tid[r]}), Value(int64_t{k_.device[i]}),
                           Value(s.total[g].count), Value(s.queue[g].count)};
    AddStatCells(row, s.total[g]);
    AddStatCells(row, s.api[g]);
    if (s.queue[g].count > 0) {
      AddStatCells(row, s.queue[g]);
    } else {
      AddNullStatCells(row);
    }
    AddStatCells(row, s.kernel[g]);
    row.push_back(Value(std::string(apis_.Text(group_api_[g]))));
    row.push_back(Value(std::string(strings_.view(kernel_names_[i]))));
    return row;
  }

  int64_t selected() const { return selected_; }
  int64_t selected_time() const { return selected_time_; }
  int64_t launched() const { return launched_; }
  int64_t launched_time() const { return launched_time_; }

 private:
  // (pid, tid, device, api) in one 64-bit key when each fits its field (23/24/8/8 bits), else through a chain
  // of indexes whose keys set bit 63, so the two kinds never collide.
  int32_t ThreadDeviceApi(size_t rr, uint32_t device, int32_t api) {
    if (device < 256 && api < 256 && rt_.pid[rr] < (1u << 23)) {
      return thread_device_api_.IdOf((static_cast<uint64_t>(rt_.pid[rr]) << 40) |
                                     (static_cast<uint64_t>(rt_.tid[rr]) << 16) | (device << 8) |
                                     static_cast<uint32_t>(api));
    }
    const int32_t t = threads_.IdOf(PackKey(rt_.pid[rr], rt_.tid[rr]));
    const int32_t td = thread_device_.IdOf(PackKey(static_cast<uint32_t>(t), device));
    return thread_device_api_.IdOf((uint64_t{1} << 63) |
                                   PackKey(static_cast<uint32_t>(td), static_cast<uint32_t>(api)));
  }

  const engine::KernelTable& k_;
  const engine::RuntimeTable& rt_;
  const engine::StringPool& strings_;
  const engine::Column<engine::StrId>& kernel_names_;
  size_t first_, last_;
  ApiNames apis_;
  DenseIndex threads_, thread_device_, thread_device_api_, groups_;
  std::vector<size_t> representative_;  // group -> kernel row
  std::vector<int32_t> group_api_;
  std::vector<int32_t> group_of_row_;
  std::vector<int32_t> queue_group_of_row_;
  int64_t selected_ = 0, selected_time_ = 0, launched_ = 0, launched_time_ = 0;
};

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
        {"base", ValueType::kBool, "Use kernel short (base) names instead of demangled names.", Value(false)},
        LimitArg(0, "Show only the first N rows (0 = all)."),
    };
  }

  Expected<Table> run(const Context& ctx) const override {
    if (auto declined = MissingData(ctx.profile.info())) return *declined;
    const bool base = ArgBool(ctx, "base");
    const int64_t limit = ArgInt(ctx, "limit");

    const engine::KernelTable& k = ctx.profile.kernels();
    const engine::RuntimeTable& rt = ctx.profile.runtime();
    const auto& kernel_names = base ? k.short_name : k.name;
    LaunchGroups groups(k, rt, ctx.profile.strings(), kernel_names, RowRange(k, ctx.filter));
    if (!groups.Build(ctx.filter, ctx.cancel)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    const LaunchSummaries summaries = groups.Summarize();
    if (ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    const std::vector<size_t> order = ByAverageTotal(summaries.total);

    Table table = EmptyTable(base);
    const size_t shown = limit > 0 ? std::min(order.size(), static_cast<size_t>(limit)) : order.size();
    for (size_t n = 0; n < shown; ++n) table.rows.push_back(groups.Row(order[n], summaries));
    AddNotes(table, groups);
    if (shown < order.size())
      table.notes.push_back(fmt::format("Showing the first {} of {} rows.", shown, order.size()));
    if (order.empty()) table.notes.push_back("No launched kernels start inside the selected window and filters.");
    return table;
  }

 private:
  static std::optional<Table> MissingData(const engine::ProfileInfo& info) {
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
    return std::nullopt;
  }

  static std::vector<size_t> ByAverageTotal(const std::vector<SampleSummary>& total) {
    std::vector<size_t> order(total.size());
    for (size_t g = 0; g < order.size(); ++g) order[g] = g;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (total[a].avg != total[b].avg) return total[a].avg > total[b].avg;
      return a < b;
    });
    return order;
  }

  static Table EmptyTable(bool base) {
    Table table;
    table.columns = {
        MakeColumn("pid", ValueType::kInt, "Process that made the launch call"),
        MakeColumn("tid", ValueType::kInt, "Thread that made the launch call"),
        MakeColumn("devid", ValueType::kInt, "CUDA device that ran the kernel"),
        MakeColumn("count", ValueType::kInt, "Kernel launches"),
        MakeColumn("qcount", ValueType::kInt, "Launches whose kernel started at or after the call returned"),
    };
    AddStatColumns(table.columns, "t", "_ns", "total time: call start to the later of call end and kernel end");
    AddStatColumns(table.columns, "a", "_ns", "launch API call durations");
    AddStatColumns(table.columns, "q", "_ns", "queue times: kernel start minus call end, when not negative");
    AddStatColumns(table.columns, "k", "_ns", "kernel durations");
    table.columns.push_back(MakeColumn("api_name", ValueType::kString, "Launch API function"));
    table.columns.push_back(MakeColumn("kernel_name", ValueType::kString, base ? "Kernel short name" : "Kernel name"));
    return table;
  }

  static void AddNotes(Table& table, const LaunchGroups& groups) {
    const double pct = groups.selected_time() > 0 ? 100.0 * static_cast<double>(groups.launched_time()) /
                                                        static_cast<double>(groups.selected_time())
                                                  : 0.0;
    table.notes.push_back(
        "Per launch: API time = the launch call's duration; queue time = kernel start minus call end, counted (qcount) "
        "only when not negative, since a kernel can start before its launch call returns; total = call start to the "
        "later of call end and kernel end. Rows are ordered by average total time.");
    table.notes.push_back(fmt::format(
        "Coverage: {} of {} kernels ({:.1f}% of kernel time) have a launch call in the same process and are "
        "included; the others (cut by the capture window, or launched through an API that was not traced) cannot "
        "be timed.",
        groups.launched(), groups.selected(), pct));
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeKernelLaunchOverhead() {
  return std::make_shared<KernelLaunchOverhead>();
}

}  // namespace nsys::skills::builtin
