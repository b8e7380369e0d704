// Runtime call -> innermost enclosing NVTX range, and the coverage figures, against independent computations.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::Fixture;
using ::nsys::testing::OpenOrDie;
using ::nsys::testing::Sql;
using ::nsys::testing::TempDir;
using ::nsys::testing::TestOptions;

// Coverage in one SQL statement: the kernel's launch by (pid, correlationId), and whether a push/pop range on
// the launching thread encloses that call.
AttributionCoverage SqlCoverage(const std::string& path) {
  AttributionCoverage c;
  Sql(path).Each(
      "WITH kr AS (SELECT k.start ks, k.end ke, r.start rs, r.end re, r.globalTid rg "
      "FROM CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
      "ON r.correlationId = k.correlationId AND ((r.globalTid >> 24) & 16777215) = ((k.globalPid >> 24) & 16777215)), "
      "kn AS (SELECT *, (rs IS NOT NULL AND EXISTS (SELECT 1 FROM NVTX_EVENTS n WHERE n.globalTid = rg "
      "AND n.eventType = 59 AND n.start <= rs AND n.end >= re)) hasn FROM kr) "
      "SELECT count(*), sum(ke - ks), sum(rs IS NOT NULL), sum(CASE WHEN rs IS NOT NULL THEN ke - ks ELSE 0 END), "
      "sum(hasn), sum(CASE WHEN hasn THEN ke - ks ELSE 0 END) FROM kn",
      [&](sqlite3_stmt* s) {
        c.kernels = sqlite3_column_int64(s, 0);
        c.kernel_time_ns = sqlite3_column_int64(s, 1);
        c.with_launch = sqlite3_column_int64(s, 2);
        c.with_launch_time_ns = sqlite3_column_int64(s, 3);
        c.with_nvtx = sqlite3_column_int64(s, 4);
        c.with_nvtx_time_ns = sqlite3_column_int64(s, 5);
      });
  return c;
}

void ExpectEq(const AttributionCoverage& a, const AttributionCoverage& b) {
  EXPECT_EQ(a.kernels, b.kernels);
  EXPECT_EQ(a.kernel_time_ns, b.kernel_time_ns);
  EXPECT_EQ(a.with_launch, b.with_launch);
  EXPECT_EQ(a.with_launch_time_ns, b.with_launch_time_ns);
  EXPECT_EQ(a.with_nvtx, b.with_nvtx);
  EXPECT_EQ(a.with_nvtx_time_ns, b.with_nvtx_time_ns);
}

TEST(Attribution, H100CoverageMatchesSql) {
  NSYS_REQUIRE_FIXTURES();
  const std::string path = Fixture("h100_2gpu_1s.sqlite");
  auto p = OpenOrDie(path, TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kAttribution).ok());
  const AttributionCoverage c = p->coverage();
  ExpectEq(c, SqlCoverage(path));
  // The figures themselves (SQL above, run once by hand): under half the kernel time has a launch row in
  // this 1 s window cut from a longer capture, and every launched kernel sits under an NVTX range.
  EXPECT_EQ(c.kernels, 3442);
  EXPECT_EQ(c.kernel_time_ns, 44829522);
  EXPECT_EQ(c.with_launch, 1632);
  EXPECT_EQ(c.with_launch_time_ns, 23147229);
  EXPECT_EQ(c.with_nvtx, 1632);
  EXPECT_EQ(c.with_nvtx_time_ns, 23147229);
}

// The same figures computed here from raw rows (a hash join on (pid, correlationId) and a scan of the
// thread's ranges), for the exports where the one-statement SQL above would take minutes.
AttributionCoverage RawCoverage(const std::string& path) {
  Sql sql(path);
  struct Call {
    int64_t start, end;
    uint32_t tid;
  };
  std::map<std::pair<uint32_t, int64_t>, Call> calls;  // (pid, correlationId)
  sql.Each(
      "SELECT (globalTid >> 24) & 16777215, correlationId, start, end, globalTid & 16777215 "
      "FROM CUPTI_ACTIVITY_KIND_RUNTIME",
      [&](sqlite3_stmt* s) {
        calls.emplace(std::make_pair(static_cast<uint32_t>(sqlite3_column_int64(s, 0)), sqlite3_column_int64(s, 1)),
                      Call{sqlite3_column_int64(s, 2), sqlite3_column_int64(s, 3),
                           static_cast<uint32_t>(sqlite3_column_int64(s, 4))});
      });
  std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<int64_t, int64_t>>> ranges;
  sql.Each(
      "SELECT (globalTid >> 24) & 16777215, globalTid & 16777215, start, end FROM NVTX_EVENTS WHERE eventType = 59",
      [&](sqlite3_stmt* s) {
        ranges[{static_cast<uint32_t>(sqlite3_column_int64(s, 0)), static_cast<uint32_t>(sqlite3_column_int64(s, 1))}]
            .emplace_back(sqlite3_column_int64(s, 2), sqlite3_column_int64(s, 3));
      });
  AttributionCoverage c;
  sql.Each("SELECT (globalPid >> 24) & 16777215, correlationId, end - start FROM CUPTI_ACTIVITY_KIND_KERNEL",
           [&](sqlite3_stmt* s) {
             const int64_t d = sqlite3_column_int64(s, 2);
             ++c.kernels;
             c.kernel_time_ns += d;
             const uint32_t pid = static_cast<uint32_t>(sqlite3_column_int64(s, 0));
             auto it = calls.find({pid, sqlite3_column_int64(s, 1)});
             if (it == calls.end()) return;
             ++c.with_launch;
             c.with_launch_time_ns += d;
             for (const auto& [rs, re] : ranges[{pid, it->second.tid}]) {
               if (rs <= it->second.start && re >= it->second.end) {
                 ++c.with_nvtx;
                 c.with_nvtx_time_ns += d;
                 break;
               }
             }
           });
  return c;
}

TEST(Attribution, OtherFixturesCoverageMatchesRawRows) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* name : {"mfu_2gpu_before.sqlite", "mfu_2gpu_after.sqlite", "h200_nvfuser_nvtx.sqlite"}) {
    SCOPED_TRACE(name);
    auto p = OpenOrDie(Fixture(name), TestOptions());
    ASSERT_TRUE(p);
    ASSERT_TRUE(p->Require(Need::kAttribution).ok());
    ExpectEq(p->coverage(), RawCoverage(Fixture(name)));
    EXPECT_GT(p->coverage().with_nvtx, 0);
  }
}

// runtime.nvtx against a brute-force search over the raw NVTX rows of the call's thread.
TEST(Attribution, RuntimeNvtxIsInnermostEnclosingRange) {
  NSYS_REQUIRE_FIXTURES();
  const std::string path = Fixture("mfu_2gpu_before.sqlite");
  auto p = OpenOrDie(path, TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kAttribution).ok());
  const RuntimeTable& rt = p->runtime();
  const NvtxTable& n = p->nvtx();
  struct R {
    int64_t start, end;
  };
  std::map<std::pair<uint32_t, uint32_t>, std::vector<R>> ranges;
  Sql(path).Each(
      "SELECT start, end, (globalTid >> 24) & 16777215, globalTid & 16777215 FROM NVTX_EVENTS WHERE eventType = 59",
      [&](sqlite3_stmt* s) {
        ranges[{static_cast<uint32_t>(sqlite3_column_int64(s, 2)), static_cast<uint32_t>(sqlite3_column_int64(s, 3))}]
            .push_back(R{sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1)});
      });
  size_t attributed = 0;
  for (size_t i = 0; i < rt.size(); ++i) {
    const R* best = nullptr;
    for (const R& r : ranges[{rt.pid[i], rt.tid[i]}]) {
      if (r.start > rt.start[i] || r.end < rt.end[i]) continue;
      if (!best || r.start > best->start || (r.start == best->start && r.end < best->end)) best = &r;
    }
    if (!best) {
      ASSERT_EQ(rt.nvtx[i], kNone) << "call " << i;
      continue;
    }
    ASSERT_NE(rt.nvtx[i], kNone) << "call " << i;
    EXPECT_EQ(n.start[rt.nvtx[i]], best->start);
    EXPECT_EQ(n.end[rt.nvtx[i]], best->end);
    EXPECT_EQ(n.pid[rt.nvtx[i]], rt.pid[i]);
    EXPECT_EQ(n.tid[rt.nvtx[i]], rt.tid[i]);
    ++attributed;
  }
  EXPECT_GT(attributed, rt.size() / 2);
}

// The same brute-force check on a made export whose ranges overlap without nesting, share start times, and
// interleave over three threads of two processes: the cases where a range that is not an ancestor sits on a
// thread's stack. 2000 ranges and 3000 calls, from a fixed seed.
TEST(Attribution, RuntimeNvtxOnOverlappingRangesIsInnermostEnclosingRange) {
  TempDir dir;
  const std::string path = dir / "overlap.sqlite";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  auto exec = [db](const std::string& sql) {
    char* err = nullptr;
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "") << " in " << sql;
  };
  exec("CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)");
  exec("INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel')");
  exec(
      "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, text TEXT, "
      "globalTid INTEGER)");
  exec(
      "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, "
      "globalTid INTEGER NOT NULL, correlationId INTEGER, nameId INTEGER)");
  const int64_t threads[] = {(int64_t{7} << 24) | 1, (int64_t{7} << 24) | 2, (int64_t{9} << 24) | 1};
  std::mt19937_64 rng(20261124);
  auto pick = [&rng](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  exec("BEGIN");
  for (int i = 0; i < 2000; ++i) {
    const int64_t start = pick(0, 400) * 25;  // coarse starts: many equal ones
    exec(fmt::format("INSERT INTO NVTX_EVENTS VALUES ({}, {}, {}, 'r{}', {})", start, start + pick(0, 3000),
                     i % 10 == 0 ? 60 : 59, i, threads[pick(0, 2)]));
  }
  for (int i = 0; i < 3000; ++i) {
    const int64_t start = pick(0, 11000);
    exec(fmt::format("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES ({}, {}, {}, {}, 1)", start, start + pick(0, 400),
                     threads[pick(0, 2)], i + 1));
  }
  exec("COMMIT");
  sqlite3_close(db);

  auto p = OpenOrDie(path, TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kAttribution).ok());
  const RuntimeTable& rt = p->runtime();
  const NvtxTable& n = p->nvtx();
  ASSERT_EQ(rt.size(), 3000u);
  size_t attributed = 0, outer_skipped = 0;
  for (size_t i = 0; i < rt.size(); ++i) {
    int32_t best = kNone;
    size_t containing = 0;
    for (size_t r = 0; r < n.size(); ++r) {
      if (n.style[r] != NvtxStyle::kPushPop || n.pid[r] != rt.pid[i] || n.tid[r] != rt.tid[i]) continue;
      if (n.start[r] > rt.start[i] || n.end[r] < rt.end[i]) continue;
      ++containing;
      if (best == kNone || n.start[r] > n.start[best] || (n.start[r] == n.start[best] && n.end[r] < n.end[best]))
        best = static_cast<int32_t>(r);
    }
    if (best == kNone) {
      ASSERT_EQ(rt.nvtx[i], kNone) << "call " << i;
      continue;
    }
    ASSERT_NE(rt.nvtx[i], kNone) << "call " << i;
    EXPECT_EQ(n.start[rt.nvtx[i]], n.start[best]) << "call " << i;
    EXPECT_EQ(n.end[rt.nvtx[i]], n.end[best]) << "call " << i;
    EXPECT_EQ(n.pid[rt.nvtx[i]], rt.pid[i]);
    EXPECT_EQ(n.tid[rt.nvtx[i]], rt.tid[i]);
    ++attributed;
    outer_skipped += containing > 1;
  }
  // The made rows exercise what they are meant to: most calls have a range, many have several around them.
  EXPECT_GT(attributed, 2000u);
  EXPECT_GT(outer_skipped, 1000u);
}

}  // namespace
}  // namespace nsys::engine
