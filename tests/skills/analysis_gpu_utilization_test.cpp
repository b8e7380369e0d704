// gpu_utilization ≡ gpu-low-util. Rows are NVIDIA's (`nsys analyze -r gpu-low-util:rows=-1` 2022.4.2); sums are
// checked with SQL. tests/conformance/analyze_rules_test.cpp covers every fixture and the a100 grouping quirk.
#include <gtest/gtest.h>

#include <string>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

TEST(GpuUtilization, MfuBeforeMatchesGpuLowUtil) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "gpu_utilization");
  ASSERT_FALSE(t.declined);
  // gpu-low-util: 1,36.0,9955386,60221022359,145,1 / 2,37.5,9994943,60401395176,144,0
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "in_use_pct"), 36.0);
  EXPECT_EQ(IntCell(t, 0, "duration_ns"), 9955386);
  EXPECT_EQ(IntCell(t, 0, "start_ns"), 60221022359);
  EXPECT_EQ(IntCell(t, 0, "pid"), 145);
  EXPECT_EQ(IntCell(t, 0, "device_id"), 1);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 1, "in_use_pct"), 37.5);
  EXPECT_EQ(IntCell(t, 1, "duration_ns"), 9994943);
  EXPECT_EQ(IntCell(t, 1, "start_ns"), 60401395176);
  EXPECT_EQ(IntCell(t, 1, "pid"), 144);
  EXPECT_EQ(IntCell(t, 1, "device_id"), 0);
  EXPECT_EQ(IntCell(t, 1, "first_chunk"), 29);  // the last of 30 chunks
  // One stream per device, so summed and union measures agree here.
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "busy_pct"), 36.0);
  EXPECT_NE(JoinNotes(t).find("Denominators"), std::string::npos);
}

TEST(GpuUtilization, ChunksViewAddsUpToSqlTotals) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "a100_2proc_mpi.sqlite", "gpu_utilization", {{"view", Value(std::string("chunks"))}});
  // Two ranks share device 0: 30 chunks each.
  ASSERT_EQ(t.rows.size(), 60u);
  FixtureSql sql("a100_2proc_mpi.sqlite");
  for (int64_t pid : {1679, 1680}) {
    const std::string where = " WHERE start > 0 AND ((globalPid >> 24) & 0xFFFFFF) = " + std::to_string(pid);
    // Σ op time (kernels, memcpys, memsets) plus the counted overhead rows inside the span (NVIDIA's
    // "CUDA profiling data flush" rows in this export are not among the counted names).
    const int64_t summed = sql.Int(
        "SELECT sum(end - start) FROM (SELECT start, end, globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL"
        " UNION ALL SELECT start, end, globalPid FROM CUPTI_ACTIVITY_KIND_MEMCPY"
        " UNION ALL SELECT start, end, globalPid FROM CUPTI_ACTIVITY_KIND_MEMSET)" +
        where);
    auto intervals = sql.Intervals(
        "SELECT start, end FROM (SELECT start, end, globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL"
        " UNION ALL SELECT start, end, globalPid FROM CUPTI_ACTIVITY_KIND_MEMCPY"
        " UNION ALL SELECT start, end, globalPid FROM CUPTI_ACTIVITY_KIND_MEMSET)" +
        where);
    int64_t in_use = 0, busy = 0, duration = 0, chunks = 0;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      if (IntCell(t, r, "pid") != pid) continue;
      in_use += IntCell(t, r, "in_use_ns");
      busy += IntCell(t, r, "busy_ns");
      duration += IntCell(t, r, "duration_ns");
      EXPECT_LE(DoubleCell(t, r, "busy_pct"), 100.0);
      ++chunks;
    }
    EXPECT_EQ(chunks, 30);
    EXPECT_EQ(in_use, summed) << pid;
    EXPECT_EQ(busy, UnionLengthOf(intervals)) << pid;
    EXPECT_EQ(duration, sql.Int("SELECT max(end) - min(start) FROM (SELECT start, end, globalPid FROM "
                                "CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, end, globalPid FROM "
                                "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end, globalPid FROM "
                                "CUPTI_ACTIVITY_KIND_MEMSET)" +
                                where));
  }
}

TEST(GpuUtilization, A100KeepsEachRanksChunks) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "a100_2proc_mpi.sqlite", "gpu_utilization");
  // Every chunk of both ranks is under 50%: one merged region per (pid, device). NVIDIA prints pid 1679's region
  // (15.1, 478068246, 5771350395) identically; it splits pid 1680's into two rows because of a grouping quirk
  // (see tests/conformance/analyze_rules_test.cpp, which reproduces NVIDIA's rows from our chunks).
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "in_use_pct"), 11.9);
  EXPECT_EQ(IntCell(t, 0, "duration_ns"), 477991637);
  EXPECT_EQ(IntCell(t, 0, "start_ns"), 5771200474);
  EXPECT_EQ(IntCell(t, 0, "pid"), 1680);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 1, "in_use_pct"), 15.1);
  EXPECT_EQ(IntCell(t, 1, "duration_ns"), 478068246);
  EXPECT_EQ(IntCell(t, 1, "start_ns"), 5771350395);
  EXPECT_EQ(IntCell(t, 1, "pid"), 1679);
}

TEST(GpuUtilization, BadChunksAndDeclines) {
  NSYS_REQUIRE_FIXTURES();
  for (int64_t chunks : {int64_t{0}, int64_t{1001}}) {
    auto r = RunSkill("mock.sqlite", "gpu_utilization", {{"chunks", Value(chunks)}});
    ASSERT_FALSE(r.ok()) << chunks;
    EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
    EXPECT_NE(r.error().message.find("chunks"), std::string::npos);
  }
  NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "gpu_utilization");
  EXPECT_TRUE(t.declined);
  // mock: 2 kernels and a memcpy over 22.45 ms; gpu-low-util: 1,0.0,22453059,1517727052,91186,0
  NSYS_RUN_SKILL(m, "mock.sqlite", "gpu_utilization");
  ASSERT_EQ(m.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(DoubleCell(m, 0, "in_use_pct"), 0.0);
  EXPECT_EQ(IntCell(m, 0, "duration_ns"), 22453059);
  EXPECT_EQ(IntCell(m, 0, "start_ns"), 1517727052);
  EXPECT_EQ(IntCell(m, 0, "in_use_ns"), 1440 + 2689 + 1632);
}

}  // namespace
}  // namespace nsys::testing
