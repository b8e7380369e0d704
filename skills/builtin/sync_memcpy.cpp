// sync_memcpy: memcpys that block the host (NVIDIA rule cuda-sync-memcpy).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common_cuda_api.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

// NVIDIA's rule exempts host-to-device copies of at most 64 KB, written as 64,000 bytes in its query.
constexpr int64_t kSmallHtoDBytes = 64000;

class SyncMemcpySkill final : public Skill {
 public:
  std::string name() const override { return "sync_memcpy"; }
  std::string description() const override {
    return "Synchronous cudaMemcpy calls (no Async suffix) that block the host, except small host-to-device and "
           "same-device copies.";
  }
  std::vector<ArgSpec> args() const override { return {RuleLimitArg(100)}; }
  engine::Need needs() const override { return engine::Need::kMemcpy | engine::Need::kRuntime; }
  std::string reference() const override { return "cuda-sync-memcpy"; }

  Expected<Table> run(const Context& ctx) const override {
    MemcpyRule rule;
    rule.what = "synchronous memcpys";
    rule.api_matches = [](std::string_view n) { return LikePrefix(n, "cudaMemcpy") && !LikeContains(n, "Async"); };
    rule.row_matches = [](const engine::MemcpyTable& m, size_t i) {
      const bool small_htod =
          m.bytes[i] <= kSmallHtoDBytes && m.copy_kind[i] == static_cast<uint8_t>(engine::CopyKind::kHtoD);
      const bool same_device = m.src_device[i] >= 0 && m.src_device[i] == m.dst_device[i];
      return !small_htod && !same_device;
    };
    rule.criteria_note =
        "Flags copies issued by cudaMemcpy* calls without an Async suffix, which return only when the copy is done, "
        "except host-to-device copies of 64,000 bytes or less and copies whose source and destination are the same "
        "device (NVIDIA's cuda-sync-memcpy criteria). Use cudaMemcpyAsync with pinned memory instead.";
    return RunMemcpyRule(ctx, rule);
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeSyncMemcpy() {
  return std::make_shared<SyncMemcpySkill>();
}

}  // namespace nsys::skills::builtin
