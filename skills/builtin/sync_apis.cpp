// sync_apis: every cudaDeviceSynchronize* / cudaStreamSynchronize* call (NVIDIA rule cuda-sync-api).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common_cuda_api.h"
#include "common_gpu_ops.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

class SyncApisSkill final : public Skill {
 public:
  std::string name() const override { return "sync_apis"; }
  std::string description() const override {
    return "CUDA calls that block the host until the GPU is done: cudaDeviceSynchronize and cudaStreamSynchronize.";
  }
  std::vector<ArgSpec> args() const override { return {RuleLimitArg(100)}; }
  engine::Need needs() const override { return engine::Need::kRuntime; }
  std::string reference() const override { return "cuda-sync-api"; }

  Expected<Table> run(const Context& ctx) const override {
    if (!ctx.profile.info().caps.runtime) {
      return Declined(
          "This profile has no CUDA runtime API trace (CUPTI_ACTIVITY_KIND_RUNTIME), so synchronization calls "
          "cannot be seen.");
    }
    const engine::RuntimeTable& rt = ctx.profile.runtime();
    NameClassCache is_sync(ctx.profile.strings(), [](std::string_view n) -> uint8_t {
      return LikePrefix(n, "cudaDeviceSynchronize") || LikePrefix(n, "cudaStreamSynchronize");
    });
    std::vector<size_t> hits;
    auto [first, last] = RowRange(rt, ctx.filter);
    for (size_t i = first; i < last; ++i) {
      if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return CancelledError();
      if (!ctx.filter.AcceptsProcess(rt.pid[i])) continue;
      if (is_sync(rt.name[i])) hits.push_back(i);
    }
    SortLongestFirst(hits, rt);

    Table t;
    t.columns = {IntCol("duration_ns", "Time the calling thread was blocked"),
                 IntCol("start_ns", "Call start on the capture clock"), IntCol("pid", "Process id"),
                 IntCol("tid", "Thread id"), StringCol("api_name", "Runtime API function")};
    std::map<std::string, std::pair<int64_t, Ns>> by_api;
    Ns total = 0;
    for (size_t i : hits) {
      std::string api(ctx.profile.strings().view(rt.name[i]));
      const Ns dur = rt.end[i] - rt.start[i];
      total += dur;
      auto& agg = by_api[api];
      ++agg.first;
      agg.second += dur;
      t.rows.push_back({I(dur), I(rt.start[i]), I(rt.pid[i]), I(rt.tid[i]), S(std::move(api))});
    }
    t.notes.push_back(
        "Lists every runtime call whose name starts with cudaDeviceSynchronize or cudaStreamSynchronize (as NVIDIA's "
        "cuda-sync-api rule), longest first. Each blocks its CPU thread until the GPU work it waits for finishes; "
        "prefer events (cudaStreamWaitEvent) to keep the host running ahead.");
    if (hits.empty()) {
      t.notes.push_back("No synchronization calls were found.");
    } else {
      std::string per_api;
      for (const auto& [name, agg] : by_api) {
        per_api +=
            fmt::format("{}{} x{} ({})", per_api.empty() ? "" : ", ", name, agg.first, FormatDuration(agg.second));
      }
      t.notes.push_back(fmt::format("{} synchronization calls blocked host threads for {} in total: {}.", hits.size(),
                                    FormatDuration(total), per_api));
    }
    if (!ctx.filter.devices.empty()) {
      t.notes.push_back(fmt::format(
          "CUDA API calls carry no device id, so the device filter ({}) does not narrow this list; use pid to select "
          "a process.",
          fmt::join(ctx.filter.devices, ", ")));
    }
    t.notes.push_back(WindowNote(ctx.filter));
    ApplyLimit(t, ArgInt(ctx, "limit"), "longest first");
    return t;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeSyncApis() {
  return std::make_shared<SyncApisSkill>();
}

}  // namespace nsys::skills::builtin
