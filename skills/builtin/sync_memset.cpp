// sync_memset: non-async cudaMemset on pinned or managed memory (NVIDIA rule cuda-sync-memset).
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common_cuda_api.h"
#include "common_gpu_ops.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

constexpr int8_t kPinned = 1;  // ENUM_CUDA_MEM_KIND
constexpr int8_t kManaged = 4;

class SyncMemsetSkill final : public Skill {
 public:
  std::string name() const override { return "sync_memset"; }
  std::string description() const override {
    return "Synchronous cudaMemset calls on pinned host or managed (unified) memory, which block the host.";
  }
  std::vector<ArgSpec> args() const override { return {RuleLimitArg(100)}; }
  engine::Need needs() const override { return engine::Need::kMemset | engine::Need::kRuntime; }
  std::string reference() const override { return "cuda-sync-memset"; }

  Expected<Table> run(const Context& ctx) const override {
    const engine::ProfileInfo& info = ctx.profile.info();
    if (!info.caps.memset) {
      return Declined(
          "This profile has no CUDA memset activity (no CUPTI_ACTIVITY_KIND_MEMSET rows), so there is no "
          "synchronous memset to find.");
    }
    if (!info.caps.runtime) {
      return Declined(
          "This profile has no CUDA runtime API trace (CUPTI_ACTIVITY_KIND_RUNTIME), so memsets cannot be matched "
          "to the API call that issued them.");
    }
    const engine::MemsetTable& m = ctx.profile.memsets();
    const engine::RuntimeTable& rt = ctx.profile.runtime();
    NameClassCache api(ctx.profile.strings(), [](std::string_view n) -> uint8_t {
      return LikePrefix(n, "cudaMemset") && !LikeContains(n, "async");
    });
    std::vector<size_t> hits;
    int64_t considered = 0, without_launch = 0;
    auto [first, last] = RowRange(m, ctx.filter);
    for (size_t i = first; i < last; ++i) {
      if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return CancelledError();
      if (!ctx.filter.AcceptsDevice(m.device[i]) || !ctx.filter.AcceptsProcess(m.pid[i])) {
        continue;
      }
      ++considered;
      if (m.launch[i] < 0) {
        ++without_launch;
        continue;
      }
      if ((m.mem_kind[i] == kPinned || m.mem_kind[i] == kManaged) && api(rt.name[static_cast<size_t>(m.launch[i])])) {
        hits.push_back(i);
      }
    }
    SortLongestFirst(hits, m);

    Table t;
    t.columns = {IntCol("duration_ns", "Duration of the memset on the GPU"),
                 IntCol("start_ns", "GPU start on the capture clock"),
                 StringCol("memory_kind", "Pinned or Managed"),
                 IntCol("bytes", "Bytes set"),
                 IntCol("pid", "Process id"),
                 IntCol("device_id", "GPU device id"),
                 IntCol("stream_id", "CUDA stream id"),
                 StringCol("api_name", "The runtime call that issued the memset")};
    Ns total = 0;
    for (size_t i : hits) {
      total += m.end[i] - m.start[i];
      t.rows.push_back({I(m.end[i] - m.start[i]), I(m.start[i]), S(MemKindName(m.mem_kind[i])), I(m.bytes[i]),
                        I(m.pid[i]), I(m.device[i]), I(m.stream[i]),
                        S(std::string(ctx.profile.strings().view(rt.name[static_cast<size_t>(m.launch[i])])))});
    }
    t.notes.push_back(
        "Flags memsets issued by cudaMemset* calls without 'async' in the name whose memory kind is pinned host "
        "memory or managed memory (NVIDIA's cuda-sync-memset criteria); such calls block the host. Use "
        "cudaMemsetAsync.");
    t.notes.push_back(hits.empty() ? fmt::format("No synchronous memsets found among {} memsets.", considered)
                                   : fmt::format("{} synchronous memsets of {} memsets, {} on the GPU.", hits.size(),
                                                 considered, FormatDuration(total)));
    if (without_launch > 0) {
      t.notes.push_back(fmt::format(
          "Coverage: {} of {} memsets have no launching runtime call in this export, so their API is unknown and "
          "they were not checked.",
          without_launch, considered));
    }
    t.notes.push_back(
        "Memsets are matched to their API call on (pid, correlationId); NVIDIA's rule joins on correlationId alone. "
        "The context id column of NVIDIA's output is not reproduced.");
    t.notes.push_back(WindowNote(ctx.filter));
    ApplyLimit(t, ArgInt(ctx, "limit"), "longest first");
    return t;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeSyncMemset() {
  return std::make_shared<SyncMemsetSkill>();
}

}  // namespace nsys::skills::builtin
