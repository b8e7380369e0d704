// api_phases against SQL: each process's CUDA API calls split into start-up (before its first GPU operation), its
// GPU span and after, summed per process and phase; and the a100_2proc_mpi reading it exists for.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <string>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

// Per pid: calls and Σ durations in each phase (start-up, span, after).
struct PhaseSums {
  std::array<int64_t, 3> calls{}, ns{};
};

std::map<int64_t, PhaseSums> PhasesFromSql(const std::string& fixture) {
  FixtureSql sql(fixture);
  std::string ops;
  for (const char* table : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"}) {
    if (sql.Int(std::string("SELECT count(*) FROM sqlite_master WHERE name = '") + table + "'") == 0) continue;
    ops += std::string(ops.empty() ? "" : " UNION ALL ") + "SELECT (globalPid >> 24) & 0xFFFFFF pid, start, end FROM " +
           table + " WHERE start > 0";
  }
  if (ops.empty()) ops = "SELECT 0 pid, 0 start, 0 end WHERE 0";
  std::map<int64_t, PhaseSums> out;
  const std::string phase = "CASE WHEN sp.f IS NULL OR r.start < sp.f THEN 0 WHEN r.start < sp.l THEN 1 ELSE 2 END";
  sql.Each("WITH ops AS (" + ops + "), sp AS (SELECT pid, min(start) f, max(end) l FROM ops GROUP BY pid) " +
               "SELECT (r.globalTid >> 24) & 0xFFFFFF p, " + phase +
               " ph, count(*), sum(max(0, r.end - r.start)) FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
               "LEFT JOIN sp ON sp.pid = (r.globalTid >> 24) & 0xFFFFFF GROUP BY 1, 2",
           [&](sqlite3_stmt* st) {
             PhaseSums& s = out[sqlite3_column_int64(st, 0)];
             const int ph = sqlite3_column_int(st, 1);
             s.calls[ph] = sqlite3_column_int64(st, 2);
             s.ns[ph] = sqlite3_column_int64(st, 3);
           });
  return out;
}

TEST(ApiPhases, PerProcessPhasesMatchSql) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* f : {"a100_2proc_mpi.sqlite", "h100_2gpu_1s.sqlite", "mfu_2gpu_before.sqlite", "v100_julia.sqlite",
                        "h200_nvfuser_nvtx.sqlite", "realworld/rtx4060_no_kernels_nsys2025_5.sqlite",
                        "realworld/titanrtx_pytorch_dnn_colocation_b.sqlite"}) {
    SCOPED_TRACE(f);
    NSYS_RUN_SKILL(t, f, "api_phases");
    ASSERT_FALSE(t.declined);
    std::map<int64_t, PhaseSums> got;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      PhaseSums& s = got[IntCell(t, r, "pid")];
      const char* calls[] = {"startup_calls", "span_calls", "after_calls"};
      const char* ns[] = {"startup_ns", "span_ns", "after_ns"};
      for (int ph = 0; ph < 3; ++ph) {
        s.calls[ph] += IntCell(t, r, calls[ph]);
        s.ns[ph] += IntCell(t, r, ns[ph]);
      }
      EXPECT_EQ(IntCell(t, r, "calls"),
                IntCell(t, r, "startup_calls") + IntCell(t, r, "span_calls") + IntCell(t, r, "after_calls"));
      if (r > 0) EXPECT_GE(IntCell(t, r - 1, "total_time_ns"), IntCell(t, r, "total_time_ns"));
    }
    const auto expected = PhasesFromSql(f);
    ASSERT_EQ(got.size(), expected.size());
    for (const auto& [pid, e] : expected) {
      SCOPED_TRACE(pid);
      ASSERT_TRUE(got.count(pid));
      EXPECT_EQ(got[pid].calls, e.calls);
      EXPECT_EQ(got[pid].ns, e.ns);
    }
  }
}

// a100_2proc_mpi's 1,108 cudaFree calls hold 3.49 s of host time, but almost all of it is two calls per rank before
// its first GPU operation (context creation and start-up): inside the GPU spans they take a few milliseconds.
TEST(ApiPhases, TheMpiRanksFreeTimeIsStartUp) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "a100_2proc_mpi.sqlite", "api_phases");
  int seen = 0;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (StringCell(t, r, "name") != "cudaFree") continue;
    ++seen;
    EXPECT_EQ(IntCell(t, r, "startup_calls"), 2);
    EXPECT_GT(IntCell(t, r, "startup_ns"), 1'690'000'000);  // 555.4 + 1220.1 ms (pid 1679), 494.7 + 1205.0 ms (1680)
    EXPECT_LT(IntCell(t, r, "span_ns"), 20'000'000);
    EXPECT_GT(IntCell(t, r, "span_calls"), 500);
  }
  EXPECT_EQ(seen, 2);
}

}  // namespace
}  // namespace nsys::testing
