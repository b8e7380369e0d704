// Performance budgets of the nsys-stats mirror skills on the L benchmark export (h100_2gpu_1s x 1000: 3.44M
// kernels, 5.8M API calls, 16.8M NVTX ranges) once it is loaded. Opt-in like AnalysisPerf: set
// NSYS_AI_SCALED_PROFILE to an export made with
//   ../shared/tools/scale_profile.py ../shared/fixtures/h100_2gpu_1s.sqlite OUT.sqlite --factor 1000
// and use an optimized build. Budgets are on the thread's CPU time (best of 3); wall time is printed next to it.
// The kernel/API/memcpy skills have the 100 ms budget and nvtx_kernel_map 1 s. nvtx_summary (every one of the
// 16.8M ranges, exact medians) and nvtx_gpu_projection (3.2M projected ranges) are held to 500 ms: they do not
// meet 100 ms on this 2-core machine.
#include <gtest/gtest.h>
#include <time.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "skill_test_util.h"

namespace nsys::testing {
namespace {

double CpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

TEST(MirrorPerf, BudgetsOnTheScaledProfile) {
  const char* path = std::getenv("NSYS_AI_SCALED_PROFILE");
  if (!path || !std::filesystem::exists(path)) {
    GTEST_SKIP() << "set NSYS_AI_SCALED_PROFILE to a scale_profile.py --factor 1000 export to run the budget check";
  }
#ifndef NDEBUG
  GTEST_SKIP() << "the budgets apply to optimized builds; this is a debug build";
#endif
  engine::OpenOptions options;
  options.use_cache = false;
  options.load_all_in_background = false;
  auto profile = engine::Profile::Open(path, options);
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  ASSERT_TRUE((*profile)->Require(engine::kAllTables).ok());
  ASSERT_GE((*profile)->kernels().size(), 3'000'000u) << "not the 1000x profile";
  const std::vector<std::pair<std::string, double>> budgets = {
      {"top_kernels", 100},    {"cuda_api_summary", 100}, {"memory_transfers", 100}, {"kernel_launch_overhead", 100},
      {"schema_inspect", 100}, {"nvtx_kernel_map", 1000}, {"nvtx_summary", 500},     {"nvtx_gpu_projection", 500},
  };
  for (const auto& [name, budget] : budgets) {
    double best_cpu = 1e18, best_wall = 1e18;
    for (int rep = 0; rep < 3; ++rep) {
      const double cpu0 = CpuMs();
      const auto wall0 = std::chrono::steady_clock::now();
      auto table = skills::RunByName(Builtins(), name, **profile, {});
      const auto wall1 = std::chrono::steady_clock::now();
      ASSERT_TRUE(table.ok()) << name << ": " << table.error().message;
      best_cpu = std::min(best_cpu, CpuMs() - cpu0);
      best_wall = std::min(best_wall, std::chrono::duration<double, std::milli>(wall1 - wall0).count());
    }
    std::cout << "[perf] " << name << ": cpu " << best_cpu << " ms, wall " << best_wall << " ms (budget " << budget
              << " ms)" << std::endl;
    EXPECT_LE(best_cpu, budget) << name;
  }
}

}  // namespace
}  // namespace nsys::testing
