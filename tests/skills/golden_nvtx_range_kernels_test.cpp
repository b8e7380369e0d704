// Golden tests of nvtx_range_kernels and ComputeNvtxCoverage on real fixtures, cross-checked with the sqlite3 CLI.
//
// The (range instance, kernel) pairs on h200_nvfuser_nvtx.sqlite, as a view (kernel joined to its launch call by
// correlationId in the same process; ranges on the launch's thread containing the call):
//   CREATE TEMP VIEW pairs AS
//   SELECT n.rowid AS nid, COALESCE(n.text, s.value) AS name, n.start AS ns, n.end AS ne, k.rowid AS kid,
//          k.end - k.start AS dur, ks.value AS kname
//   FROM CUPTI_ACTIVITY_KIND_KERNEL k
//   JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId
//        AND ((r.globalTid >> 24) & 16777215) = ((k.globalPid >> 24) & 16777215)
//   JOIN NVTX_EVENTS n ON n.globalTid = r.globalTid AND n.eventType IN (59, 60)
//        AND n.start <= r.start AND n.end >= r.end
//   LEFT JOIN StringIds s ON s.id = n.textId JOIN StringIds ks ON ks.id = k.shortName;
// Per name: SELECT name, count(DISTINCT nid), count(*), sum(dur), count(DISTINCT kname) FROM pairs GROUP BY name;
// instances and wall time: count(*) and sum(end - start) of NVTX_EVENTS rows of that name (eventType 59/60);
// per-instance GPU time: sum(dur) of pairs per nid (0 for instances without kernels); innermost: every pair of the
// name is its kernel's pair with the latest range start (shortest on ties). All kernels: SELECT count(*),
// sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL -> 18, 10167602.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "nsys/skills/nvtx_coverage.h"
#include "nsys/skills/nvtx_range_breakdown.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

constexpr const char* kH200 = "h200_nvfuser_nvtx.sqlite";

TEST(NvtxRangeKernels, H200NestedRangesAndInnermost) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH200, "nvtx_range_kernels");
  ASSERT_FALSE(t.declined);
  ASSERT_GE(t.rows.size(), 9u);
  // Sorted by gpu_ns: the six enclosing ranges hold all 8 kernels launched inside a range (3134397 ns).
  EXPECT_EQ(IntCell(t, 0, "gpu_ns"), 3134397);
  EXPECT_EQ(IntCell(t, 0, "kernels"), 8);

  const int run = FindRow(t, "name", "KernelExecutor::runFusion");
  ASSERT_GE(run, 0);
  EXPECT_EQ(IntCell(t, run, "instances"), 6);
  EXPECT_EQ(IntCell(t, run, "threads"), 1);
  EXPECT_EQ(IntCell(t, run, "wall_ns"), 10137353);
  EXPECT_EQ(IntCell(t, run, "gpu_ns"), 3134397);
  EXPECT_EQ(IntCell(t, run, "kernels"), 8);
  EXPECT_EQ(IntCell(t, run, "distinct_kernels"), 7);
  EXPECT_EQ(IntCell(t, run, "max_kernels_per_call"), 3);
  EXPECT_DOUBLE_EQ(DoubleCell(t, run, "kernels_per_call"), 1.333);
  EXPECT_EQ(std::get<bool>(Cell(t, run, "innermost")), false);
  // Per-instance GPU times 13375, 380732, 383931, 694040, 761016, 901303: nearest-rank p50 and p90.
  EXPECT_EQ(IntCell(t, run, "gpu_p50_ns"), 383931);
  EXPECT_EQ(IntCell(t, run, "gpu_p90_ns"), 901303);
  EXPECT_EQ(StringCell(t, run, "top_kernel"), "nvfuser_inner_persistent_f1_c1_r0_g2");

  const int launch = FindRow(t, "name", "ExecutorRunFusion::cuLaunchKernel");
  ASSERT_GE(launch, 0);
  EXPECT_EQ(IntCell(t, launch, "instances"), 6);
  EXPECT_EQ(IntCell(t, launch, "threads"), 1);  // SELECT count(DISTINCT globalTid) of its NVTX_EVENTS rows
  EXPECT_EQ(IntCell(t, launch, "wall_ns"), 154899);
  EXPECT_EQ(IntCell(t, launch, "gpu_ns"), 3131549);
  EXPECT_EQ(IntCell(t, launch, "kernels"), 6);
  EXPECT_EQ(IntCell(t, launch, "max_kernels_per_call"), 1);
  EXPECT_EQ(std::get<bool>(Cell(t, launch, "innermost")), true);
  EXPECT_EQ(IntCell(t, launch, "gpu_p50_ns"), 383931);

  // Innermost too, but one of its 6 instances launches 2 kernels (2848 ns) and the others none.
  const int inter = FindRow(t, "name", "KernelExecutor::runFusion::intermediates");
  ASSERT_GE(inter, 0);
  EXPECT_EQ(IntCell(t, inter, "instances"), 6);
  EXPECT_EQ(IntCell(t, inter, "kernels"), 2);
  EXPECT_EQ(IntCell(t, inter, "gpu_ns"), 2848);
  EXPECT_EQ(IntCell(t, inter, "max_kernels_per_call"), 2);
  EXPECT_EQ(std::get<bool>(Cell(t, inter, "innermost")), true);
  EXPECT_EQ(IntCell(t, inter, "gpu_p50_ns"), 0);

  // Coverage: only cuLaunchKernel is innermost with exactly one kernel per call: 3131549 of 10167602 ns.
  EXPECT_NE(JoinNotes(t).find("30.8% of kernel time (3131549 of 10167602 ns)"), std::string::npos) << JoinNotes(t);
}

TEST(NvtxRangeKernels, CoverageFunctionMatchesTheSkill) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture(kH200);
  ASSERT_TRUE(profile);
  ASSERT_TRUE(profile->Require(engine::Need::kAttribution).ok());
  auto coverage = skills::ComputeNvtxCoverage(*profile, engine::Filter{}, CancelToken{});
  ASSERT_TRUE(coverage.ok());
  EXPECT_EQ(coverage.value().kernel_ns_total, 10167602);
  EXPECT_EQ(coverage.value().mapped_ns, 3131549);
  EXPECT_NEAR(coverage.value().share, 3131549.0 / 10167602.0, 1e-12);
}

TEST(NvtxRangeKernels, DeclinesWithoutKernels) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "nvtx_range_kernels");
  EXPECT_TRUE(t.declined);
  EXPECT_NE(JoinNotes(t).find("no CUDA kernel data"), std::string::npos);
}

TEST(NvtxRangeKernels, AgreesWithNvtxKernelMap) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "nvtx_range_kernels");
  NSYS_RUN_SKILL(map, kH100, "nvtx_kernel_map", {{"limit", Value(int64_t{0})}});
  ASSERT_FALSE(t.rows.empty());
  for (size_t r = 0; r < 3 && r < t.rows.size(); ++r) {
    const std::string name = StringCell(t, r, "name");
    int64_t total = 0, kernels = 0;
    for (size_t m = 0; m < map.rows.size(); ++m) {
      const auto* range = std::get_if<std::string>(&Cell(map, m, "nvtx_range"));
      if (!range || *range != name) continue;
      total += IntCell(map, m, "total_time_ns");
      kernels += IntCell(map, m, "kern_inst");
    }
    EXPECT_GT(total, 0) << name;
    EXPECT_EQ(IntCell(t, r, "gpu_ns"), total) << name;
    EXPECT_EQ(IntCell(t, r, "kernels"), kernels) << name;
  }
}

// ComputeNvtxRangeBreakdown (the source mapping's per-range kernels, longest instances and kernel stacks) on the
// same pairs.
const skills::NvtxRangeBreakdown::Range* RangeNamed(const skills::NvtxRangeBreakdown& b, const std::string& label) {
  for (const auto& r : b.ranges) {
    if (r.label == label) return &r;
  }
  return nullptr;
}

TEST(NvtxRangeBreakdown, H200RangesKernelsAndStacks) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture(kH200);
  ASSERT_TRUE(profile);
  ASSERT_TRUE(profile->Require(engine::Need::kAttribution).ok());
  auto b = skills::ComputeNvtxRangeBreakdown(*profile, CancelToken{});
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_TRUE(b->nvtx_data);
  EXPECT_TRUE(b->kernel_data);
  EXPECT_TRUE(b->percentiles);
  // All kernels: 18, 10167602 ns (see the top of this file).
  int64_t calls = 0, gpu = 0;
  for (const auto& k : b->kernels) {
    calls += k.calls;
    gpu += k.gpu_ns;
  }
  EXPECT_EQ(calls, 18);
  EXPECT_EQ(gpu, 10167602);

  // ExecutorRunFusion::cuLaunchKernel: 6 instances, 154899 ns, the longest 42960 ns (SELECT max(end - start) ...);
  // 6 kernels of 6 kinds (pairs: count(*), count(DISTINCT kname)), 3131549 ns.
  const auto* launch = RangeNamed(*b, "ExecutorRunFusion::cuLaunchKernel");
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(launch->text, "ExecutorRunFusion::cuLaunchKernel");
  EXPECT_EQ(launch->instances, 6);
  EXPECT_EQ(launch->threads, 1);  // SELECT count(DISTINCT globalTid) ... -> 1
  EXPECT_EQ(launch->wall_ns, 154899);
  EXPECT_EQ(launch->longest_end - launch->longest_start, 42960);
  ASSERT_EQ(launch->kernels.size(), 6u);
  int64_t launched = 0;
  for (const auto& k : launch->kernels) {
    EXPECT_EQ(k.calls, 1);
    EXPECT_EQ(k.p50_ns, k.gpu_ns);  // one launch: every percentile is it
    launched += k.gpu_ns;
  }
  EXPECT_EQ(launched, 3131549);
  // KernelExecutor::runFusion: 8 kernels of 7 kinds, 3134397 ns; the top one as the skill's top_kernel.
  const auto* run = RangeNamed(*b, "KernelExecutor::runFusion");
  ASSERT_NE(run, nullptr);
  ASSERT_EQ(run->kernels.size(), 7u);
  EXPECT_EQ(b->kernels[static_cast<size_t>(run->kernels.front().kernel)].short_name,
            "nvfuser_inner_persistent_f1_c1_r0_g2");
  int64_t run_calls = 0, run_gpu = 0;
  for (const auto& k : run->kernels) {
    run_calls += k.calls;
    run_gpu += k.gpu_ns;
  }
  EXPECT_EQ(run_calls, 8);
  EXPECT_EQ(run_gpu, 3134397);
  // The 6 kernels launched inside cuLaunchKernel have it innermost, under runFusion::execute_kernel and runFusion.
  int64_t innermost_launch = 0;
  for (const auto& s : b->stacks) {
    ASSERT_FALSE(s.ranges.empty());
    if (b->ranges[static_cast<size_t>(s.ranges.front())].label != launch->label) continue;
    innermost_launch += s.calls;
    std::vector<std::string> labels;
    for (int32_t r : s.ranges) labels.push_back(b->ranges[static_cast<size_t>(r)].label);
    EXPECT_NE(std::find(labels.begin(), labels.end(), "KernelExecutor::runFusion"), labels.end());
  }
  EXPECT_EQ(innermost_launch, 6);
}

TEST(NvtxRangeBreakdown, WithoutKernelsOnlyRangesAreKnown) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture("titanrtx_tensorrt_nvtx.sqlite");
  ASSERT_TRUE(profile);
  ASSERT_TRUE(profile->Require(engine::Need::kNvtx).ok());
  auto b = skills::ComputeNvtxRangeBreakdown(*profile, CancelToken{});
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_FALSE(b->kernel_data);
  EXPECT_TRUE(b->stacks.empty());
  // reader: 188 instances, 270222955 ns, the longest 4517559 ns (sqlite3 over NVTX_EVENTS joined to StringIds).
  const auto* reader = RangeNamed(*b, "reader");
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->instances, 188);
  EXPECT_EQ(reader->wall_ns, 270222955);
  EXPECT_EQ(reader->longest_end - reader->longest_start, 4517559);
}

TEST(NvtxRangeBreakdown, AgreesWithTheSkillOnEveryRange) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "nvtx_range_kernels");
  auto profile = OpenFixture(kH100);
  ASSERT_TRUE(profile);
  ASSERT_TRUE(profile->Require(engine::Need::kAttribution).ok());
  auto b = skills::ComputeNvtxRangeBreakdown(*profile, CancelToken{});
  ASSERT_TRUE(b.ok());
  ASSERT_FALSE(t.rows.empty());
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string name = StringCell(t, r, "name");
    const auto* range = RangeNamed(*b, name);
    ASSERT_NE(range, nullptr) << name;
    EXPECT_EQ(range->instances, IntCell(t, r, "instances")) << name;
    EXPECT_EQ(range->wall_ns, IntCell(t, r, "wall_ns")) << name;
    EXPECT_EQ(range->threads, IntCell(t, r, "threads")) << name;
    int64_t kernels = 0, gpu = 0;
    for (const auto& k : range->kernels) {
      kernels += k.calls;
      gpu += k.gpu_ns;
    }
    EXPECT_EQ(static_cast<int64_t>(range->kernels.size()), IntCell(t, r, "distinct_kernels")) << name;
    // The skill counts a kernel once per enclosing instance, so under a range nested in a same-named one
    // (PyTorch's aten::arange calling aten::arange) it counts twice; the breakdown counts each launch once per name.
    EXPECT_LE(kernels, IntCell(t, r, "kernels")) << name;
    EXPECT_LE(gpu, IntCell(t, r, "gpu_ns")) << name;
    if (!std::get<bool>(Cell(t, r, "innermost"))) continue;
    EXPECT_EQ(kernels, IntCell(t, r, "kernels")) << name;  // innermost: no range nested in it launches anything
    EXPECT_EQ(gpu, IntCell(t, r, "gpu_ns")) << name;
  }
}

}  // namespace
}  // namespace nsys::testing
