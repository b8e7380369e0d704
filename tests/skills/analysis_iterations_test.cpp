// iterations: kernel-periodicity detection checked against the device's kernel sequence in SQL; marker mode
// against the NVTX ranges and the launch join in SQL.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

TEST(Iterations, MfuKernelPeriodIs119KernelsOnEachDevice) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "iterations");
  ASSERT_FALSE(t.declined) << JoinNotes(t);
  EXPECT_NE(JoinNotes(t).find("kernel periodicity"), std::string::npos);
  EXPECT_NE(JoinNotes(t).find("recurs every 119 kernels"), std::string::npos) << JoinNotes(t);
  FixtureSql sql("mfu_2gpu_before.sqlite");
  for (int64_t device : {0, 1}) {
    // The device's kernels in start order, as SQL sees them.
    const auto kernels =
        sql.Intervals("SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " + std::to_string(device) +
                      " ORDER BY start, end");
    std::vector<size_t> rows;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      if (IntCell(t, r, "device_id") == device) rows.push_back(r);
    }
    ASSERT_EQ(rows.size(), 16u) << device;  // a layer-sized unit repeating 17 times: 16 complete iterations
    size_t offset = 0;
    while (offset < kernels.size() && kernels[offset].first < IntCell(t, rows[0], "start_ns")) ++offset;
    for (size_t j = 0; j < rows.size(); ++j) {
      const size_t first = offset + 119 * j, next = first + 119;
      ASSERT_LT(next, kernels.size());
      EXPECT_EQ(IntCell(t, rows[j], "iteration"), static_cast<int64_t>(j));
      EXPECT_EQ(IntCell(t, rows[j], "start_ns"), kernels[first].first);
      EXPECT_EQ(IntCell(t, rows[j], "duration_ns"), kernels[next].first - kernels[first].first);
      EXPECT_EQ(IntCell(t, rows[j], "kernels"), 119);
      EXPECT_EQ(IntCell(t, rows[j], "gpu_busy_ns"),
                UnionLengthOf({kernels.begin() + static_cast<std::ptrdiff_t>(first),
                               kernels.begin() + static_cast<std::ptrdiff_t>(next)}));
      // The iteration's GPU work: every kernel's own duration, overlaps counted on each kernel.
      int64_t work = 0;
      for (size_t i = first; i < next; ++i) work += kernels[i].second - kernels[i].first;
      EXPECT_EQ(IntCell(t, rows[j], "kernel_ns"), work);
      EXPECT_GE(IntCell(t, rows[j], "kernel_ns"), IntCell(t, rows[j], "gpu_busy_ns"));
    }
  }
}

TEST(Iterations, MarkerModeUsesNvtxRangesAndLaunchTimes) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h200_nvfuser_nvtx.sqlite", "iterations", {{"marker", Value(std::string("runFusionWithInputs"))}});
  ASSERT_FALSE(t.declined) << JoinNotes(t);
  FixtureSql sql("h200_nvfuser_nvtx.sqlite");
  std::vector<std::pair<int64_t, int64_t>> ranges = sql.Intervals(
      "SELECT e.start, e.end FROM NVTX_EVENTS e LEFT JOIN StringIds s ON s.id = e.textId WHERE e.eventType = 59 AND "
      "coalesce(e.text, s.value) LIKE '%runFusionWithInputs%' ORDER BY e.start");
  ASSERT_EQ(ranges.size(), 2u);
  ASSERT_EQ(t.rows.size(), 2u);
  for (size_t j = 0; j < 2; ++j) {
    EXPECT_EQ(IntCell(t, j, "start_ns"), ranges[j].first);
    EXPECT_EQ(IntCell(t, j, "duration_ns"), ranges[j].second - ranges[j].first);
    // Kernels whose launching call (same pid and correlationId) starts inside the range.
    const int64_t kernels = sql.Int(
        "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = "
        "k.correlationId AND ((r.globalTid >> 24) & 0xFFFFFF) = ((k.globalPid >> 24) & 0xFFFFFF) WHERE r.start >= " +
        std::to_string(ranges[j].first) + " AND r.start < " + std::to_string(ranges[j].second));
    EXPECT_EQ(IntCell(t, j, "kernels"), kernels);
    const int64_t work = sql.Int(
        "SELECT coalesce(sum(k.end - k.start), 0) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
        "ON r.correlationId = k.correlationId AND ((r.globalTid >> 24) & 0xFFFFFF) = ((k.globalPid >> 24) & 0xFFFFFF) "
        "WHERE r.start >= " +
        std::to_string(ranges[j].first) + " AND r.start < " + std::to_string(ranges[j].second));
    EXPECT_EQ(IntCell(t, j, "kernel_ns"), work);
  }
  EXPECT_EQ(IntCell(t, 0, "kernels"), 6);
  EXPECT_EQ(IntCell(t, 1, "kernels"), 2);
}

TEST(Iterations, DeclinesWithReasons) {
  NSYS_REQUIRE_FIXTURES();
  {
    // 18 kernels with no name repeating steadily: nothing to detect, and the note says how to mark steps.
    NSYS_RUN_SKILL(t, "h200_nvfuser_nvtx.sqlite", "iterations");
    EXPECT_TRUE(t.declined);
    EXPECT_NE(JoinNotes(t).find("marker="), std::string::npos);
  }
  {
    NSYS_RUN_SKILL(t, "h200_nvfuser_nvtx.sqlite", "iterations", {{"marker", Value(std::string("no_such_step"))}});
    EXPECT_TRUE(t.declined);
    EXPECT_NE(JoinNotes(t).find("no_such_step"), std::string::npos);
  }
  {
    NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "iterations");  // no kernels at all
    EXPECT_TRUE(t.declined);
  }
  NSYS_RUN_SKILL(t, "mock.sqlite", "iterations", {{"marker", Value(std::string("step"))}});  // no NVTX
  EXPECT_TRUE(t.declined);
  EXPECT_NE(JoinNotes(t).find("NVTX"), std::string::npos);
}

// Iterations found by kernel periodicity carry a confidence. gtx1650_keras_tf_darknet53 is TensorFlow autotuning,
// not a loop: its periodic Eigen kernel agrees on 83% of its spacings, and the last "iteration" alone lasts 3.67 s of
// the iterations' ~3.9 s (iterations within 3x the 1.3 ms median hold 5% of the time): low. mfu_2gpu_before is a
// steady training loop (every spacing agrees, every iteration near the median): high. Every row says the same.
TEST(Iterations, KernelPeriodCarriesAConfidence) {
  NSYS_REQUIRE_FIXTURES();
  const std::pair<const char*, const char*> cases[] = {{"realworld/gtx1650_keras_tf_darknet53.sqlite", "low"},
                                                       {"mfu_2gpu_before.sqlite", "high"}};
  for (const auto& [fixture, expected] : cases) {
    SCOPED_TRACE(fixture);
    for (const char* skill : {"iterations", "iteration_outliers"}) {
      NSYS_RUN_SKILL(t, fixture, skill);
      ASSERT_FALSE(t.declined);
      ASSERT_FALSE(t.rows.empty());
      for (size_t r = 0; r < t.rows.size(); ++r) EXPECT_EQ(StringCell(t, r, "confidence"), expected);
      EXPECT_NE(JoinNotes(t).find(std::string("steady loop: ") + expected), std::string::npos) << JoinNotes(t);
    }
  }
  NSYS_RUN_SKILL(t, "realworld/gtx1650_keras_tf_darknet53.sqlite", "iterations");
  EXPECT_NE(JoinNotes(t).find("83% of the repeating kernel's spacings agree"), std::string::npos);
  EXPECT_NE(JoinNotes(t).find("hold 5% of the iterations' time"), std::string::npos);
}

}  // namespace
}  // namespace nsys::testing
