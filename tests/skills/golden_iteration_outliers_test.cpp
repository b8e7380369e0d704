// iteration_outliers: the iterations are the iterations skill's (same detection, same rows); the robust z-scores
// are recomputed here from those durations, and the GPU idle before each iteration from the kernels in SQL.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// Rows [first, last) are one (device, pid) group of the kernel-periodicity iterations.
void ExpectGroup(const skills::Table& t, const skills::Table& its, size_t first, size_t last, double threshold,
                 const FixtureSql& sql) {
  std::vector<double> d;
  for (size_t r = first; r < last; ++r) d.push_back(static_cast<double>(IntCell(its, r, "duration_ns")));
  const double median = Median(d);
  std::vector<double> dev;
  for (double x : d) dev.push_back(std::fabs(x - median));
  const double mad = Median(dev);
  ASSERT_GT(mad, 0);
  for (size_t r = first; r < last; ++r) {
    SCOPED_TRACE("iteration row " + std::to_string(r));
    EXPECT_EQ(IntCell(t, r, "start_ns"), IntCell(its, r, "start_ns"));
    EXPECT_EQ(IntCell(t, r, "duration_ns"), IntCell(its, r, "duration_ns"));
    EXPECT_EQ(IntCell(t, r, "median_ns"), std::llround(median));
    const double z = (d[r - first] - median) / (1.4826 * mad);
    EXPECT_NEAR(DoubleCell(t, r, "robust_z"), z, 1e-9);
    EXPECT_EQ(std::get<bool>(Cell(t, r, "outlier")), z > threshold);
    EXPECT_EQ(IntCell(t, r, "excess_ns"), std::max<int64_t>(0, IntCell(t, r, "duration_ns") - std::llround(median)));
    if (r == first) {
      EXPECT_TRUE(std::holds_alternative<std::monostate>(Cell(t, r, "gap_before_ns")));
      continue;
    }
    // The previous iteration's kernels on this device and process: the latest end among them.
    const int64_t prev_end = sql.Int("SELECT max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " +
                                     std::to_string(IntCell(t, r, "device_id")) +
                                     " AND ((globalPid >> 24) & 0xFFFFFF) = " + std::to_string(IntCell(t, r, "pid")) +
                                     " AND start >= " + std::to_string(IntCell(its, r - 1, "start_ns")) +
                                     " AND start < " + std::to_string(IntCell(its, r, "start_ns")));
    EXPECT_EQ(IntCell(t, r, "gap_before_ns"), std::max<int64_t>(0, IntCell(t, r, "start_ns") - prev_end));
  }
}

void ExpectOutliersMatch(const std::string& fixture, double threshold) {
  SCOPED_TRACE(fixture);
  NSYS_RUN_SKILL(t, fixture, "iteration_outliers", {{"threshold", Value(threshold)}});
  NSYS_RUN_SKILL(its, fixture, "iterations");
  ASSERT_FALSE(t.declined);
  ASSERT_EQ(t.rows.size(), its.rows.size());
  FixtureSql sql(fixture);
  for (size_t first = 0; first < t.rows.size();) {
    size_t last = first;
    while (last < t.rows.size() && IntCell(t, last, "device_id") == IntCell(t, first, "device_id") &&
           IntCell(t, last, "pid") == IntCell(t, first, "pid")) {
      ++last;
    }
    ExpectGroup(t, its, first, last, threshold, sql);
    first = last;
  }
}

TEST(IterationOutliers, RobustZMatchesRecomputation) {
  NSYS_REQUIRE_FIXTURES();
  ExpectOutliersMatch("mfu_2gpu_before.sqlite", 3.5);
  ExpectOutliersMatch("mfu_2gpu_after.sqlite", 2.0);
  ExpectOutliersMatch("h100_2gpu_1s.sqlite", 3.5);
}

TEST(IterationOutliers, KnownOutliers) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "iteration_outliers");
  // Device 0's seventh step (start 60212392761) took 22.3 ms against a median of about 16.7 ms.
  int found = -1;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (IntCell(t, r, "start_ns") == 60212392761) found = static_cast<int>(r);
  }
  ASSERT_GE(found, 0);
  EXPECT_TRUE(std::get<bool>(Cell(t, static_cast<size_t>(found), "outlier")));
  EXPECT_EQ(IntCell(t, static_cast<size_t>(found), "duration_ns"), 22311001);
  EXPECT_GT(DoubleCell(t, static_cast<size_t>(found), "robust_z"), 10.0);
  // h100's steps are steady: none stands out.
  NSYS_RUN_SKILL(h, "h100_2gpu_1s.sqlite", "iteration_outliers");
  for (size_t r = 0; r < h.rows.size(); ++r) EXPECT_FALSE(std::get<bool>(Cell(h, r, "outlier")));
}

TEST(IterationOutliers, MarkerModeGroupsByProcess) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h200_nvfuser_nvtx.sqlite", "iteration_outliers",
                 {{"marker", Value(std::string("runFusionWithInputs"))}});
  ASSERT_EQ(t.rows.size(), 2u);
  // Two iterations: the median is their mean, the MAD is half their difference; z = ±1/1.4826.
  const double d0 = static_cast<double>(IntCell(t, 0, "duration_ns"));
  const double d1 = static_cast<double>(IntCell(t, 1, "duration_ns"));
  EXPECT_EQ(IntCell(t, 0, "median_ns"), std::llround((d0 + d1) / 2));
  EXPECT_NEAR(std::fabs(DoubleCell(t, 0, "robust_z")), 1 / 1.4826, 1e-9);
  EXPECT_FALSE(std::get<bool>(Cell(t, 0, "outlier")));
}

TEST(IterationOutliers, DeclinesWithReasons) {
  NSYS_REQUIRE_FIXTURES();
  {
    NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "iteration_outliers");
    EXPECT_TRUE(t.declined);
    EXPECT_NE(JoinNotes(t).find("no CUDA kernel"), std::string::npos) << JoinNotes(t);
  }
  NSYS_RUN_SKILL(t, "v100_julia.sqlite", "iteration_outliers");
  EXPECT_TRUE(t.declined);
  EXPECT_NE(JoinNotes(t).find("marker="), std::string::npos) << JoinNotes(t);
}

}  // namespace
}  // namespace nsys::testing
