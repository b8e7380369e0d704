// gpu_idle_gaps ≡ gpu-starv (gaps view) and HTA's idle breakdown (streams view). Gap rows are NVIDIA's
// (`nsys analyze -r gpu-starv:rows=-1[:gap=N]` 2022.4.2); the breakdown is checked against one SQL query.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

TEST(GpuIdleGaps, H200At500MsMatchesGpuStarv) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h200_nvfuser_nvtx.sqlite", "gpu_idle_gaps", {{"threshold_ms", Value(500.0)}});
  ASSERT_FALSE(t.declined);
  // gpu-starv: 1,1628903372,5848029032,50556,0 / 2,651948302,7517030171 / 3,566109186,8171259120
  ASSERT_EQ(t.rows.size(), 3u);
  const int64_t durations[] = {1628903372, 651948302, 566109186};
  const int64_t starts[] = {5848029032, 7517030171, 8171259120};
  for (size_t r = 0; r < 3; ++r) {
    EXPECT_EQ(IntCell(t, r, "duration_ns"), durations[r]);
    EXPECT_EQ(IntCell(t, r, "start_ns"), starts[r]);
    EXPECT_EQ(IntCell(t, r, "end_ns"), starts[r] + durations[r]);
    EXPECT_EQ(IntCell(t, r, "pid"), 50556);
    EXPECT_EQ(IntCell(t, r, "device_id"), 0);
  }
  // The ops around the first gap (SQL: the kernel ending at 5848029032 is distribution_elementwise_grid_stride_kernel;
  // an HtoD memcpy starts at 7476932404, launched 122910 ns after the gap began).
  FixtureSql sql("h200_nvfuser_nvtx.sqlite");
  EXPECT_EQ(sql.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
                    "WHERE k.end = 5848029032 AND s.value = 'distribution_elementwise_grid_stride_kernel'"),
            1);
  EXPECT_EQ(StringCell(t, 0, "op_before"), "distribution_elementwise_grid_stride_kernel");
  EXPECT_EQ(StringCell(t, 0, "op_after"), "[CUDA memcpy HtoD]");
  const int64_t launch = sql.Int(
      "SELECT r.start FROM CUPTI_ACTIVITY_KIND_MEMCPY m JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = "
      "m.correlationId AND ((r.globalTid >> 24) & 0xFFFFFF) = ((m.globalPid >> 24) & 0xFFFFFF) WHERE m.start = "
      "7476932404");
  EXPECT_EQ(IntCell(t, 0, "launch_after_gap_ns"), launch - 5848029032);
  EXPECT_GT(IntCell(t, 0, "launch_after_gap_ns"), 0);
}

// Each gap's share of its GPU's idle time and span, and what the host was doing during it. The idle time is the sum of
// the gaps at threshold 0 (NVIDIA's gpu-starv:gap=0 rows, checked by the conformance test); the host's CUDA calls
// come from SQL over the runtime table.
TEST(GpuIdleGaps, EachGapSaysItsShareOfTheIdleTimeAndWhatTheHostDid) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(all, "h200_nvfuser_nvtx.sqlite", "gpu_idle_gaps",
                 {{"threshold_ms", Value(0.0)}, {"limit", Value(int64_t{0})}});
  int64_t idle = 0;
  for (size_t r = 0; r < all.rows.size(); ++r) idle += IntCell(all, r, "duration_ns");
  NSYS_RUN_SKILL(t, "h200_nvfuser_nvtx.sqlite", "gpu_idle_gaps", {{"threshold_ms", Value(500.0)}});
  ASSERT_EQ(IntCell(t, 0, "duration_ns"), 1628903372);
  EXPECT_NEAR(DoubleCell(t, 0, "idle_share_pct"), 100.0 * 1628903372 / static_cast<double>(idle), 1e-9);
  FixtureSql sql("h200_nvfuser_nvtx.sqlite");
  const int64_t span = sql.Int(
      "SELECT MAX(e) - MIN(s) FROM (SELECT start AS s, end AS e FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT "
      "start, "
      "end FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET)");
  EXPECT_NEAR(DoubleCell(t, 0, "span_pct"), 100.0 * 1628903372 / static_cast<double>(span), 1e-9);
  // The process's CUDA calls cover little of the gap: the host was outside CUDA for the rest (the calls' union,
  // clipped to the gap, from SQL).
  int64_t covered = 0, until = 5848029032;
  sql.Each(
      "SELECT MAX(start, 5848029032), MIN(end, 7476932404) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE start < 7476932404 "
      "AND end > 5848029032 AND ((globalTid >> 24) & 16777215) = 50556 ORDER BY start",
      [&](sqlite3_stmt* st) {
        const int64_t from = sqlite3_column_int64(st, 0), to = sqlite3_column_int64(st, 1);
        if (to > until) {
          covered += to - std::max(from, until);
          until = to;
        }
      });
  EXPECT_GT(covered, 0);
  EXPECT_EQ(StringCell(t, 0, "host_call"), "no CUDA call");
  EXPECT_EQ(IntCell(t, 0, "host_call_ns"), 1628903372 - covered);
}

TEST(GpuIdleGaps, MfuAt1MsMatchesGpuStarvGap1) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "gpu_idle_gaps");  // default threshold_ms = 1
  // gpu-starv:gap=1 prints 5 rows; the first three: 4492845,60401707567,144,0 / 2433526,60362815885,144,0 /
  // 1099069,60362302826,145,1
  ASSERT_EQ(t.rows.size(), 5u);
  EXPECT_EQ(IntCell(t, 0, "duration_ns"), 4492845);
  EXPECT_EQ(IntCell(t, 0, "start_ns"), 60401707567);
  EXPECT_EQ(IntCell(t, 0, "device_id"), 0);
  EXPECT_EQ(IntCell(t, 1, "duration_ns"), 2433526);
  EXPECT_EQ(IntCell(t, 2, "duration_ns"), 1099069);
  EXPECT_EQ(IntCell(t, 2, "pid"), 145);
  EXPECT_EQ(IntCell(t, 2, "device_id"), 1);
  // One note per (process, device): never only device 0.
  const std::string notes = JoinNotes(t);
  EXPECT_NE(notes.find("pid 144 device 0"), std::string::npos) << notes;
  EXPECT_NE(notes.find("pid 145 device 1"), std::string::npos) << notes;
}

TEST(GpuIdleGaps, StreamBreakdownMatchesSql) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "gpu_idle_gaps", {{"view", Value(std::string("streams"))}});
  // HTA's rule in SQL: per stream, the gap before an op is start - max(end of earlier ops); host wait when the op's
  // launching call (same pid and correlationId) began after that, kernel wait when shorter than 30 ns, else other.
  FixtureSql sql("mfu_2gpu_before.sqlite");
  const std::string join =
      " LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = o.correlationId AND "
      "((r.globalTid >> 24) & 0xFFFFFF) = ((o.globalPid >> 24) & 0xFFFFFF)";
  const std::string cols = "SELECT o.start, o.end, o.streamId st, (o.globalPid >> 24) & 0xFFFFFF pid, r.start ls FROM ";
  const std::string query =
      "WITH ops AS (" + cols + "CUPTI_ACTIVITY_KIND_KERNEL o" + join + " UNION ALL " + cols +
      "CUPTI_ACTIVITY_KIND_MEMCPY o" + join + " UNION ALL " + cols + "CUPTI_ACTIVITY_KIND_MEMSET o" + join +
      "), w AS (SELECT *, MAX(end) OVER (PARTITION BY pid, st ORDER BY start, end ROWS BETWEEN UNBOUNDED PRECEDING AND "
      "1 PRECEDING) prev FROM ops) SELECT st, sum(CASE WHEN start > prev AND ls > prev THEN start - prev ELSE 0 END), "
      "sum(CASE WHEN start > prev AND NOT coalesce(ls > prev, 0) AND start - prev < 30 THEN start - prev ELSE 0 END), "
      "sum(CASE WHEN start > prev AND NOT coalesce(ls > prev, 0) AND start - prev >= 30 THEN start - prev ELSE 0 END) "
      "FROM w GROUP BY st ORDER BY st";
  std::map<int64_t, std::array<int64_t, 3>> expected;
  sql.Each(query, [&](sqlite3_stmt* st) {
    expected[sqlite3_column_int64(st, 0)] = {sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
                                             sqlite3_column_int64(st, 3)};
  });
  ASSERT_EQ(expected.size(), 2u);
  ASSERT_EQ(t.rows.size(), 2u);
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto& e = expected.at(IntCell(t, r, "stream_id"));
    EXPECT_EQ(IntCell(t, r, "host_wait_ns"), e[0]);
    EXPECT_EQ(IntCell(t, r, "kernel_wait_ns"), e[1]);
    EXPECT_EQ(IntCell(t, r, "other_ns"), e[2]);
    EXPECT_EQ(IntCell(t, r, "idle_ns"), e[0] + e[1] + e[2]);
    EXPECT_EQ(IntCell(t, r, "busy_ns") + IntCell(t, r, "idle_ns"), IntCell(t, r, "span_ns"));
  }
  // Known values for stream 7 (pid 144, device 0): 21464402 ns host wait, 4566623 ns other.
  EXPECT_EQ(expected.at(7)[0], 21464402);
  EXPECT_EQ(expected.at(7)[2], 4566623);
}

TEST(GpuIdleGaps, DeclinesAndRejectsBadArguments) {
  NSYS_REQUIRE_FIXTURES();
  {
    NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "gpu_idle_gaps");  // no GPU ops (NVIDIA: SKIPPED)
    EXPECT_TRUE(t.declined);
    EXPECT_NE(JoinNotes(t).find("no GPU operations"), std::string::npos) << JoinNotes(t);
  }
  auto negative = RunSkill("h200_nvfuser_nvtx.sqlite", "gpu_idle_gaps", {{"threshold_ms", Value(-1.0)}});
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.error().kind, ErrorKind::kInvalidArgument);
  auto bad_view = RunSkill("h200_nvfuser_nvtx.sqlite", "gpu_idle_gaps", {{"view", Value(std::string("bogus"))}});
  ASSERT_FALSE(bad_view.ok());
  EXPECT_NE(bad_view.error().message.find("view"), std::string::npos);
  auto bad_type = RunSkill("h200_nvfuser_nvtx.sqlite", "gpu_idle_gaps", {{"threshold_ms", Value(true)}});
  ASSERT_FALSE(bad_type.ok());
  EXPECT_EQ(bad_type.error().kind, ErrorKind::kInvalidArgument);
  // A device filter keeps that device only.
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "gpu_idle_gaps", {{"device", Value(int64_t{1})}});
  for (size_t r = 0; r < t.rows.size(); ++r) EXPECT_EQ(IntCell(t, r, "device_id"), 1);
  ASSERT_EQ(t.rows.size(), 3u);  // gpu-starv:gap=1 rows 3, 4 and 5
  EXPECT_EQ(IntCell(t, 1, "duration_ns"), 1033821);
  EXPECT_EQ(IntCell(t, 2, "start_ns"), 60402184413);
}

}  // namespace
}  // namespace nsys::testing
