// pageable_memcpy: async memcpys on pageable host memory, which run synchronously (NVIDIA rule cuda-async-memcpy).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common_cuda_api.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

class PageableMemcpySkill final : public Skill {
 public:
  std::string name() const override { return "pageable_memcpy"; }
  std::string description() const override {
    return "cudaMemcpyAsync calls whose source or destination is pageable host memory, so they silently run "
           "synchronously.";
  }
  std::vector<ArgSpec> args() const override { return {RuleLimitArg(100)}; }
  engine::Need needs() const override { return engine::Need::kMemcpy | engine::Need::kRuntime; }
  std::string reference() const override { return "cuda-async-memcpy"; }

  Expected<Table> run(const Context& ctx) const override {
    MemcpyRule rule;
    rule.what = "async memcpys on pageable memory";
    rule.api_matches = [](std::string_view n) {
      return LikePrefix(n, "cudaMemcpy") && LikeContains(n.substr(10), "Async");
    };
    rule.row_matches = [](const engine::MemcpyTable& m, size_t i) {
      return m.src_kind[i] == kPageable || m.dst_kind[i] == kPageable;
    };
    rule.criteria_note =
        "Flags copies issued by cudaMemcpy*Async* calls whose source or destination memory kind is pageable "
        "(NVIDIA's cuda-async-memcpy criteria): the driver stages them through a bounce buffer and the call blocks "
        "the host. Allocate the host side with cudaHostAlloc / pin_memory to make them asynchronous.";
    return RunMemcpyRule(ctx, rule);
  }
};

}  // namespace

std::shared_ptr<const Skill> MakePageableMemcpy() {
  return std::make_shared<PageableMemcpySkill>();
}

}  // namespace nsys::skills::builtin
