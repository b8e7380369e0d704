// kernel_size_stats against SQL over the fixtures: counts, spans, medians and tiny kernels per (pid, device); the
// launch-bound rule re-derived from the kernels, copies and memsets with a window function and the launch calls
// joined on (pid, correlationId).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

constexpr const char* kPid = "((k.globalPid >> 24) & 0xFFFFFF)";

struct SizeStats {
  int64_t kernels = 0, window = 0, busy = 0, median = 0, tiny = 0, tiny_ns = 0, bound = 0, gap = 0;
};

// The expected row of every (pid, device), from SQL and a plain sort for the median.
std::map<std::pair<int64_t, int64_t>, SizeStats> FromSql(const std::string& fixture, int64_t tiny_ns) {
  FixtureSql sql(fixture);
  std::map<std::pair<int64_t, int64_t>, SizeStats> out;
  std::map<std::pair<int64_t, int64_t>, std::vector<int64_t>> durations;
  std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<int64_t, int64_t>>> intervals;
  sql.Each(std::string("SELECT ") + kPid + ", k.deviceId, k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k",
           [&](sqlite3_stmt* st) {
             const std::pair<int64_t, int64_t> key{sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1)};
             const int64_t start = sqlite3_column_int64(st, 2), end = sqlite3_column_int64(st, 3);
             durations[key].push_back(end - start);
             intervals[key].emplace_back(start, end);
           });
  for (auto& [key, d] : durations) {
    SizeStats& e = out[key];
    e.kernels = static_cast<int64_t>(d.size());
    std::sort(d.begin(), d.end());
    const size_t m = d.size() / 2;
    e.median = d.size() % 2 ? d[m] : (d[m - 1] + d[m] + 1) / 2;  // the mean of the middle two, rounded half up
    for (int64_t x : d) {
      if (x < tiny_ns) {
        ++e.tiny;
        e.tiny_ns += x;
      }
    }
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const auto& [s, en] : intervals[key]) {
      lo = std::min(lo, s);
      hi = std::max(hi, en);
    }
    e.window = hi - lo;
    e.busy = UnionLengthOf(intervals[key]);
  }
  // Every GPU op of the (pid, device) in start order (kernels before copies before memsets at one instant); prev =
  // the latest end before it. A kernel is launch-bound when it starts at most 10 µs after its launch call's end.
  const std::string op = "SELECT start, end, deviceId dev, (globalPid >> 24) & 0xFFFFFF pid, correlationId cid, ";
  std::string ops = "WITH ops AS (" + op + "0 kind FROM CUPTI_ACTIVITY_KIND_KERNEL";
  if (sql.Int("SELECT count(*) FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_MEMCPY'") > 0) {
    ops += " UNION ALL " + op + "1 FROM CUPTI_ACTIVITY_KIND_MEMCPY";
  }
  if (sql.Int("SELECT count(*) FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_MEMSET'") > 0) {
    ops += " UNION ALL " + op + "2 FROM CUPTI_ACTIVITY_KIND_MEMSET";
  }
  ops +=
      "), w AS (SELECT *, MAX(end) OVER (PARTITION BY pid, dev ORDER BY start, kind, end ROWS BETWEEN UNBOUNDED "
      "PRECEDING AND 1 PRECEDING) prev FROM ops WHERE start > 0) "
      "SELECT w.pid, w.dev, count(*), sum(min(max(coalesce(w.start - w.prev, 0), 0), 1000000)) FROM w JOIN "
      "CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = w.cid AND ((r.globalTid >> 24) & 0xFFFFFF) = w.pid "
      "WHERE w.kind = 0 AND w.start - r.end <= 10000 GROUP BY w.pid, w.dev";
  sql.Each(ops, [&](sqlite3_stmt* st) {
    SizeStats& e = out[{sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1)}];
    e.bound = sqlite3_column_int64(st, 2);
    e.gap = sqlite3_column_int64(st, 3);
  });
  return out;
}

void ExpectMatchesSql(const std::string& fixture, double tiny_us) {
  SCOPED_TRACE(fixture);
  NSYS_RUN_SKILL(t, fixture, "kernel_size_stats", {{"tiny_us", Value(tiny_us)}});
  ASSERT_FALSE(t.declined);
  const auto expected = FromSql(fixture, static_cast<int64_t>(tiny_us * 1000));
  ASSERT_EQ(t.rows.size(), expected.size());
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto key = std::make_pair(IntCell(t, r, "pid"), IntCell(t, r, "device_id"));
    ASSERT_TRUE(expected.count(key)) << key.first << "/" << key.second;
    const SizeStats& e = expected.at(key);
    SCOPED_TRACE("pid " + std::to_string(key.first) + " device " + std::to_string(key.second));
    EXPECT_EQ(IntCell(t, r, "kernels"), e.kernels);
    EXPECT_EQ(IntCell(t, r, "window_ns"), e.window);
    EXPECT_EQ(IntCell(t, r, "gpu_busy_ns"), e.busy);
    EXPECT_EQ(IntCell(t, r, "median_ns"), e.median);
    EXPECT_EQ(IntCell(t, r, "tiny_kernels"), e.tiny);
    EXPECT_EQ(IntCell(t, r, "tiny_gpu_ns"), e.tiny_ns);
    EXPECT_DOUBLE_EQ(DoubleCell(t, r, "tiny_share"), static_cast<double>(e.tiny) / static_cast<double>(e.kernels));
    EXPECT_EQ(IntCell(t, r, "launch_bound_kernels"), e.bound);
    EXPECT_EQ(IntCell(t, r, "launch_gap_ns"), e.gap);
    if (e.kernels > 1) {
      EXPECT_NEAR(DoubleCell(t, r, "launches_per_s"), static_cast<double>(e.kernels) * 1e9 / e.window, 1e-6);
    }
  }
}

TEST(KernelSizeStats, MatchesSqlOnTwoGpuTraining) {
  NSYS_REQUIRE_FIXTURES();
  ExpectMatchesSql("mfu_2gpu_before.sqlite", 10.0);
  ExpectMatchesSql("mfu_2gpu_after.sqlite", 10.0);
}

TEST(KernelSizeStats, MatchesSqlWhereCorrelationIdsRepeatAcrossProcesses) {
  NSYS_REQUIRE_FIXTURES();
  // Two MPI ranks on one GPU reuse correlation ids: a join on correlationId alone would double-count launches.
  ExpectMatchesSql("a100_2proc_mpi.sqlite", 10.0);
  ExpectMatchesSql("h100_2gpu_1s.sqlite", 5.0);
  ExpectMatchesSql("h200_nvfuser_nvtx.sqlite", 10.0);
}

TEST(KernelSizeStats, KnownFigures) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "kernel_size_stats");
  ASSERT_EQ(t.rows.size(), 2u);
  // Rows by (pid, device): 144 on device 0, 145 on device 1 (fixtures README: 4,010 kernels in all).
  EXPECT_EQ(IntCell(t, 0, "pid"), 144);
  EXPECT_EQ(IntCell(t, 1, "device_id"), 1);
  EXPECT_EQ(IntCell(t, 0, "kernels") + IntCell(t, 1, "kernels"), 4010);
  EXPECT_GT(IntCell(t, 1, "launch_bound_kernels"), IntCell(t, 0, "launch_bound_kernels"));
  // A lone kernel has no launch rate.
  NSYS_RUN_SKILL(one, "v100_julia.sqlite", "kernel_size_stats");
  ASSERT_EQ(one.rows.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(Cell(one, 0, "launches_per_s")));
  EXPECT_EQ(IntCell(one, 0, "kernels"), 1);
}

TEST(KernelSizeStats, ProcessFilterKeepsOneRank) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "a100_2proc_mpi.sqlite", "kernel_size_stats", {{"pid", Value(int64_t{1680})}});
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(IntCell(t, 0, "pid"), 1680);
  FixtureSql sql("a100_2proc_mpi.sqlite");
  EXPECT_EQ(IntCell(t, 0, "kernels"),
            sql.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE ((globalPid >> 24) & 0xFFFFFF) = 1680"));
  // The argument's bounds are the runner's: a negative size is refused, naming the argument.
  auto bad = RunSkill("a100_2proc_mpi.sqlite", "kernel_size_stats", {{"tiny_us", Value(-1.0)}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(bad.error().message.find("tiny_us"), std::string::npos) << bad.error().message;
}

TEST(KernelSizeStats, DeclinesWithoutKernels) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "kernel_size_stats");
  EXPECT_TRUE(t.declined);
  EXPECT_TRUE(t.rows.empty());
  EXPECT_NE(JoinNotes(t).find("CUPTI_ACTIVITY_KIND_KERNEL"), std::string::npos) << JoinNotes(t);
}

}  // namespace
}  // namespace nsys::testing
