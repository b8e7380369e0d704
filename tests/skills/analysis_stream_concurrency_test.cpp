// stream_concurrency: per-device levels and per-stream busy time, checked against SQL plus a plain union.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

std::string OpsOf(const std::string& where) {
  return "SELECT start, end FROM (SELECT start, end, deviceId, streamId FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL "
         "SELECT start, end, deviceId, streamId FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end, deviceId, "
         "streamId FROM CUPTI_ACTIVITY_KIND_MEMSET) WHERE " +
         where;
}

TEST(StreamConcurrency, SingleStreamDevicesSplitIntoIdleAndOne) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h100_2gpu_1s.sqlite", "stream_concurrency");
  ASSERT_FALSE(t.declined);
  FixtureSql sql("h100_2gpu_1s.sqlite");
  ASSERT_EQ(t.rows.size(), 4u);  // devices 0 and 1, levels 0 and 1 each
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string dev = "deviceId = " + std::to_string(IntCell(t, r, "device_id"));
    const int64_t busy = UnionLengthOf(sql.Intervals(OpsOf(dev)));
    const int64_t span = sql.Int("SELECT max(end) - min(start) FROM (" + OpsOf(dev) + ")");
    EXPECT_EQ(IntCell(t, r, "time_ns"), IntCell(t, r, "streams_busy") == 1 ? busy : span - busy) << "row " << r;
  }
  // Device 0: 962890247 ns busy of 969447605 (SQL union of its kernels, memcpys and memsets).
  EXPECT_EQ(IntCell(t, 1, "time_ns"), 962890247);
  EXPECT_EQ(IntCell(t, 0, "time_ns"), 969447605 - 962890247);
}

TEST(StreamConcurrency, StreamsViewMatchesSqlPerStream) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "a100_2proc_mpi.sqlite", "stream_concurrency", {{"view", Value(std::string("streams"))}});
  FixtureSql sql("a100_2proc_mpi.sqlite");
  // Two ranks on device 0, each with its own streams.
  const int64_t streams = sql.Int(
      "SELECT count(*) FROM (SELECT DISTINCT (globalPid >> 24) & 0xFFFFFF, streamId FROM (SELECT globalPid, streamId "
      "FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT globalPid, streamId FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL "
      "SELECT globalPid, streamId FROM CUPTI_ACTIVITY_KIND_MEMSET))");
  ASSERT_EQ(static_cast<int64_t>(t.rows.size()), streams);
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string where = "streamId = " + std::to_string(IntCell(t, r, "stream_id"));
    // Stream ids here are unique across the two ranks' (pid, stream) pairs only with the pid; OpsOf has no pid column,
    // so compare with the pid-qualified query.
    const std::string pid = std::to_string(IntCell(t, r, "pid"));
    const auto intervals = sql.Intervals(
        "SELECT start, end FROM (SELECT start, end, globalPid, streamId FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL "
        "SELECT start, end, globalPid, streamId FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end, "
        "globalPid, "
        "streamId FROM CUPTI_ACTIVITY_KIND_MEMSET) WHERE ((globalPid >> 24) & 0xFFFFFF) = " +
        pid + " AND " + where);
    EXPECT_EQ(IntCell(t, r, "busy_ns"), UnionLengthOf(intervals)) << "row " << r;
    EXPECT_EQ(IntCell(t, r, "ops"), static_cast<int64_t>(intervals.size())) << "row " << r;
  }
  // Two processes on one device: the levels view reports concurrency above 1 when their streams overlap.
  NSYS_RUN_SKILL(levels, "a100_2proc_mpi.sqlite", "stream_concurrency");
  int64_t total = 0;
  for (size_t r = 0; r < levels.rows.size(); ++r) total += IntCell(levels, r, "time_ns");
  EXPECT_EQ(total, sql.Int("SELECT max(end) - min(start) FROM (" + OpsOf("1") + ")"));  // levels partition the span
}

// Levels on a100_2proc_mpi's shared device 0 against a plain event sweep written here: per (pid, stream) union of
// the SQL intervals, then +1/-1 events sorted by time (ends first at ties).
TEST(StreamConcurrency, LevelsMatchAnIndependentSweep) {
  NSYS_REQUIRE_FIXTURES();
  FixtureSql sql("a100_2proc_mpi.sqlite");
  std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<int64_t, int64_t>>> by_stream;
  sql.Each(
      "SELECT (globalPid >> 24) & 0xFFFFFF, streamId, start, end FROM (SELECT globalPid, streamId, start, end FROM "
      "CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT globalPid, streamId, start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY "
      "UNION ALL SELECT globalPid, streamId, start, end FROM CUPTI_ACTIVITY_KIND_MEMSET) WHERE start > 0",
      [&](sqlite3_stmt* st) {
        by_stream[{sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1)}].emplace_back(sqlite3_column_int64(st, 2),
                                                                                           sqlite3_column_int64(st, 3));
      });
  std::vector<std::pair<int64_t, int>> events;  // (time, +1 / -1)
  int64_t from = INT64_MAX, to = INT64_MIN;
  for (auto& [key, v] : by_stream) {
    std::sort(v.begin(), v.end());
    int64_t cs = 0, ce = INT64_MIN;
    for (const auto& [s, e] : v) {
      from = std::min(from, s);
      to = std::max(to, e);
      if (e <= s) continue;
      if (s > ce) {
        if (ce != INT64_MIN) events.insert(events.end(), {{cs, +1}, {ce, -1}});
        cs = s;
        ce = e;
      } else {
        ce = std::max(ce, e);
      }
    }
    if (ce != INT64_MIN) events.insert(events.end(), {{cs, +1}, {ce, -1}});
  }
  std::sort(events.begin(), events.end());
  std::map<int, int64_t> levels;
  int busy = 0;
  int64_t now = from;
  for (const auto& [time, delta] : events) {
    levels[busy] += time - now;
    now = time;
    busy += delta;
  }
  levels[0] += to - now;
  ASSERT_GE(levels.size(), 3u);  // the two ranks' streams do overlap: level 2 occurs
  NSYS_RUN_SKILL(t, "a100_2proc_mpi.sqlite", "stream_concurrency");
  std::map<int, int64_t> got;
  for (size_t r = 0; r < t.rows.size(); ++r)
    got[static_cast<int>(IntCell(t, r, "streams_busy"))] = IntCell(t, r, "time_ns");
  for (auto it = levels.begin(); it != levels.end();) it = it->second == 0 ? levels.erase(it) : std::next(it);
  for (auto it = got.begin(); it != got.end();) it = it->second == 0 ? got.erase(it) : std::next(it);
  EXPECT_EQ(got, levels);
}

TEST(StreamConcurrency, Declines) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "stream_concurrency");
  EXPECT_TRUE(t.declined);
  auto bad = RunSkill("h100_2gpu_1s.sqlite", "stream_concurrency", {{"view", Value(int64_t{3})}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace nsys::testing
