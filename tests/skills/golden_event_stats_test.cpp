// event_stats against SQL over the fixtures: per-device kernel statistics (count, total, median, nearest-rank p90 and
// p99, min, max, busy and span), copies of one kind with their bytes, one API call by name, NVTX ranges by name, and
// the kernels launched inside an NVTX range (the launch call joined on (pid, correlationId), enclosed on its thread).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

struct Stats {
  int64_t count = 0, total = 0, min = 0, max = 0, p90 = 0, p99 = 0, busy = 0, span = 0;
  double median = 0;
};

// `devices`: the GPU of each interval (empty: one timeline). Busy and span are each GPU's, summed over the GPUs.
Stats StatsOf(std::vector<std::pair<int64_t, int64_t>> intervals, const std::vector<int64_t>& devices = {}) {
  Stats s;
  std::vector<int64_t> d;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const auto& [a, b] : intervals) {
    d.push_back(b - a);
    lo = std::min(lo, a);
    hi = std::max(hi, b);
  }
  std::sort(d.begin(), d.end());
  s.count = static_cast<int64_t>(d.size());
  for (int64_t x : d) s.total += x;
  s.min = d.front();
  s.max = d.back();
  const size_t m = d.size() / 2;
  s.median = d.size() % 2 ? static_cast<double>(d[m]) : (static_cast<double>(d[m - 1]) + static_cast<double>(d[m])) / 2;
  const auto rank = [&](double p) {
    return d[static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(d.size()))) - 1];
  };
  s.p90 = rank(90);
  s.p99 = rank(99);
  if (devices.empty()) {
    s.busy = UnionLengthOf(intervals);
    s.span = hi - lo;
    return s;
  }
  std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> by_device;
  for (size_t i = 0; i < intervals.size(); ++i) by_device[devices[i]].push_back(intervals[i]);
  for (const auto& [device, each] : by_device) {
    const Stats one = StatsOf(each);
    s.busy += one.busy;
    s.span += one.span;
  }
  return s;
}

// The rows of `query` (start, end, deviceId) as StatsOf reads them.
Stats StatsOfQuery(const FixtureSql& sql, const std::string& query) {
  return StatsOf(sql.Intervals(query), sql.ThirdColumn(query));
}

void ExpectRow(const skills::Table& t, size_t row, const Stats& want) {
  EXPECT_EQ(IntCell(t, row, "count"), want.count);
  EXPECT_EQ(IntCell(t, row, "total_ns"), want.total);
  EXPECT_EQ(IntCell(t, row, "min_ns"), want.min);
  EXPECT_EQ(IntCell(t, row, "max_ns"), want.max);
  EXPECT_DOUBLE_EQ(DoubleCell(t, row, "med_ns"), want.median);
  EXPECT_EQ(IntCell(t, row, "p90_ns"), want.p90);
  EXPECT_EQ(IntCell(t, row, "p99_ns"), want.p99);
  EXPECT_EQ(IntCell(t, row, "busy_ns"), want.busy);
  EXPECT_EQ(IntCell(t, row, "span_ns"), want.span);
  EXPECT_EQ(IntCell(t, row, "idle_ns"), want.span - want.busy);
}

TEST(GoldenEventStats, KernelsPerDeviceMatchSql) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "event_stats", {{"group_by", Value(std::string("device"))}});
  FixtureSql sql(kH100);
  ASSERT_EQ(t.rows.size(), 2u);
  int64_t all = 0;
  for (int device : {0, 1}) {
    const Stats want = StatsOf(
        sql.Intervals("SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " + std::to_string(device)));
    const int row = FindRow(t, "group", "device " + std::to_string(device));
    ASSERT_GE(row, 0);
    ExpectRow(t, static_cast<size_t>(row), want);
    all += want.total;
  }
  // Shares of every kernel: the two rows add up to 100%.
  EXPECT_NEAR(DoubleCell(t, 0, "share_pct") + DoubleCell(t, 1, "share_pct"), 100.0, 0.02);
  EXPECT_EQ(all, sql.Int("SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
}

TEST(GoldenEventStats, CopiesOfOneKindAndTheirBytes) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "event_stats",
                 {{"events", Value(std::string("memcpy"))}, {"copy_kind", Value(std::string("HtoD"))}});
  FixtureSql sql(kH100);
  ASSERT_EQ(t.rows.size(), 1u);
  ExpectRow(t, 0, StatsOfQuery(sql, "SELECT start, end, deviceId FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1"));
  EXPECT_EQ(IntCell(t, 0, "bytes"), sql.Int("SELECT SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1"));
  EXPECT_GT(DoubleCell(t, 0, "gb_per_s"), 1.0);
}

TEST(GoldenEventStats, OneApiCallByNameAnyCase) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "event_stats",
                 {{"events", Value(std::string("api"))},
                  {"name", Value(std::string("cudastreamsynchronize"))},
                  {"group_by", Value(std::string("name"))}});
  FixtureSql sql(kH100);
  ASSERT_EQ(t.rows.size(), 1u);
  // The export's own name, with its version suffix.
  EXPECT_EQ(StringCell(t, 0, "group").rfind("cudaStreamSynchronize", 0), 0u) << StringCell(t, 0, "group");
  ExpectRow(t, 0,
            StatsOf(sql.Intervals("SELECT r.start, r.end FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON "
                                  "s.id = r.nameId WHERE s.value LIKE 'cudaStreamSynchronize%'")));
}

TEST(GoldenEventStats, NvtxRangesByName) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h200_nvfuser_nvtx.sqlite", "event_stats",
                 {{"events", Value(std::string("nvtx"))}, {"name", Value(std::string("isResharding"))}});
  FixtureSql sql("h200_nvfuser_nvtx.sqlite");
  ASSERT_EQ(t.rows.size(), 1u);
  ExpectRow(
      t, 0,
      StatsOf(sql.Intervals("SELECT n.start, n.end FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId "
                            "WHERE n.eventType IN (59, 60) AND COALESCE(n.text, s.value) LIKE '%isResharding%'")));
}

// Kernels whose launch call an `aten::linear` range encloses on the calling thread, at any depth.
TEST(GoldenEventStats, KernelsInsideAnNvtxRange) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "event_stats", {{"inside", Value(std::string("aten::linear"))}});
  FixtureSql sql(kH100);
  const auto want = StatsOfQuery(
      sql,
      "SELECT start, end, deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid IN (SELECT k.rowid FROM "
      "CUPTI_ACTIVITY_KIND_KERNEL "
      "k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId AND ((r.globalTid >> 24) & 0xFFFFFF) "
      "= ((k.globalPid >> 24) & 0xFFFFFF) JOIN NVTX_EVENTS n ON n.globalTid = r.globalTid AND n.start <= r.start AND "
      "n.end >= r.end AND n.eventType IN (59, 60) LEFT JOIN StringIds s ON s.id = n.textId WHERE COALESCE(n.text, "
      "s.value) LIKE '%aten::linear%')");
  ASSERT_GT(want.count, 0);
  ASSERT_EQ(t.rows.size(), 1u);
  ExpectRow(t, 0, want);
  const int64_t all = sql.Int("SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  EXPECT_NEAR(DoubleCell(t, 0, "share_pct"), 100.0 * static_cast<double>(want.total) / static_cast<double>(all), 0.01);
}

// Kernels outside every `aten::linear` range: the complement of those inside (KernelsInsideAnNvtxRange holds the
// inside ones to SQL's join), so that inside and outside together are every kernel, count and time.
TEST(GoldenEventStats, KernelsOutsideAnNvtxRange) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "event_stats", {{"outside", Value(std::string("aten::linear"))}});
  NSYS_RUN_SKILL(in, kH100, "event_stats", {{"inside", Value(std::string("aten::linear"))}});
  FixtureSql sql(kH100);
  ASSERT_EQ(t.rows.size(), 1u);
  ASSERT_GT(IntCell(in, 0, "count"), 0);
  ASSERT_GT(IntCell(t, 0, "count"), 0);
  EXPECT_EQ(IntCell(t, 0, "count") + IntCell(in, 0, "count"),
            sql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_EQ(IntCell(t, 0, "total_ns") + IntCell(in, 0, "total_ns"),
            sql.Int("SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  // NVTX ranges outside `aten::linear`: neither one of them nor nested in one.
  NSYS_RUN_SKILL(ranges, kH100, "event_stats",
                 {{"events", Value(std::string("nvtx"))}, {"outside", Value(std::string("aten::linear"))}});
  const int64_t named_or_nested = sql.Int(
      "WITH RECURSIVE r(id, s, e, tid, name) AS (SELECT n.rowid, n.start, n.end, n.globalTid, COALESCE(n.text, "
      "t.value) FROM NVTX_EVENTS n LEFT JOIN StringIds t ON t.id = n.textId WHERE n.eventType IN (59, 60)) "
      "SELECT COUNT(*) FROM r a WHERE a.name LIKE '%aten::linear%' OR EXISTS (SELECT 1 FROM r b WHERE b.tid = a.tid "
      "AND b.name LIKE '%aten::linear%' AND b.s <= a.s AND b.e >= a.e AND b.id != a.id)");
  EXPECT_EQ(IntCell(ranges, 0, "count"),
            sql.Int("SELECT COUNT(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60)") - named_or_nested);
}

// share_of_profile: the share of one device's or one stream's kernels is of every kernel in the profile (SQL's sum
// over the whole table), not of the device's own (100 %); without it the base is what the selection keeps.
TEST(GoldenEventStats, ShareOfTheProfileIsOfEveryEventOfTheKind) {
  NSYS_REQUIRE_FIXTURES();
  const char* kColo = "realworld/titanrtx_pytorch_dnn_colocation_b.sqlite";
  FixtureSql sql(kColo);
  NSYS_RUN_SKILL(on_stream, kColo, "event_stats",
                 {{"stream", Value(int64_t{14})}, {"share_of_profile", Value(true)}, {"gpu_share", Value(true)}});
  ASSERT_EQ(on_stream.rows.size(), 1u);
  const int64_t all = sql.Int("SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  const int64_t stream = sql.Int("SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE streamId = 14");
  ASSERT_GT(all, stream);
  EXPECT_EQ(IntCell(on_stream, 0, "total_ns"), stream);
  EXPECT_EQ(IntCell(on_stream, 0, "all_ns"), all);
  EXPECT_NEAR(DoubleCell(on_stream, 0, "share_pct"), 100.0 * static_cast<double>(stream) / static_cast<double>(all),
              0.005);  // the skill rounds shares to two decimals
  EXPECT_EQ(IntCell(on_stream, 0, "all_count"), sql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  const int64_t gpu_all = all + sql.Int("SELECT COALESCE(SUM(end - start), 0) FROM CUPTI_ACTIVITY_KIND_MEMCPY") +
                          sql.Int("SELECT COALESCE(SUM(end - start), 0) FROM CUPTI_ACTIVITY_KIND_MEMSET");
  EXPECT_EQ(IntCell(on_stream, 0, "gpu_all_ns"), gpu_all);
  NSYS_RUN_SKILL(within, kColo, "event_stats", {{"stream", Value(int64_t{14})}});
  EXPECT_EQ(IntCell(within, 0, "all_ns"), stream);
  // One device of two, by the common device argument.
  NSYS_RUN_SKILL(device, kH100, "event_stats", {{"device", Value(int64_t{1})}, {"share_of_profile", Value(true)}});
  FixtureSql h100(kH100);
  EXPECT_EQ(IntCell(device, 0, "total_ns"),
            h100.Int("SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = 1"));
  EXPECT_EQ(IntCell(device, 0, "all_ns"), h100.Int("SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
}

// A share of the bytes: each copy kind's bytes over every copy's (SQL's sums), and over the profile's with
// share_of_profile; kernels move none (null).
TEST(GoldenEventStats, EachCopyKindsShareOfTheBytes) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "event_stats",
                 {{"events", Value(std::string("memcpy"))}, {"group_by", Value(std::string("name"))}});
  FixtureSql sql(kH100);
  const int64_t all = sql.Int("SELECT SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY");
  ASSERT_GT(t.rows.size(), 1u);
  double shares = 0;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    EXPECT_EQ(IntCell(t, r, "all_bytes"), all);
    EXPECT_NEAR(DoubleCell(t, r, "bytes_share_pct"),
                100.0 * static_cast<double>(IntCell(t, r, "bytes")) / static_cast<double>(all), 0.005);
    shares += DoubleCell(t, r, "bytes_share_pct");
  }
  EXPECT_NEAR(shares, 100.0, 0.05);
  NSYS_RUN_SKILL(htod, kH100, "event_stats",
                 {{"events", Value(std::string("memcpy"))},
                  {"copy_kind", Value(std::string("HtoD"))},
                  {"device", Value(int64_t{1})},
                  {"share_of_profile", Value(true)}});
  EXPECT_EQ(IntCell(htod, 0, "bytes"),
            sql.Int("SELECT SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1 AND deviceId = 1"));
  EXPECT_EQ(IntCell(htod, 0, "all_bytes"), all);
  NSYS_RUN_SKILL(kernels, kH100, "event_stats", {});
  EXPECT_TRUE(std::holds_alternative<std::monostate>(Cell(kernels, 0, "all_bytes")));
}

// Kernels, calls and ranges whose name contains a text left out: SQL's NOT LIKE on the kernel's short and demangled
// names, and on a call's name; alternatives split at '|'.
TEST(GoldenEventStats, NamesLeftOutAsSqlLeavesThemOut) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "event_stats", {{"except", Value(std::string("gemm"))}});
  FixtureSql sql(kH100);
  ASSERT_EQ(t.rows.size(), 1u);
  const auto want = StatsOfQuery(
      sql,
      "SELECT k.start, k.end, k.deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds a ON a.id = k.shortName "
      "JOIN StringIds d ON d.id = k.demangledName WHERE a.value NOT LIKE '%gemm%' AND d.value NOT LIKE '%gemm%'");
  ASSERT_GT(want.count, 0);
  ExpectRow(t, 0, want);
  NSYS_RUN_SKILL(api, kH100, "event_stats",
                 {{"events", Value(std::string("api"))}, {"except", Value(std::string("cudaLaunchKernel|Memcpy"))}});
  ASSERT_EQ(api.rows.size(), 1u);
  EXPECT_EQ(IntCell(api, 0, "count"),
            sql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId WHERE "
                    "s.value NOT LIKE '%cudaLaunchKernel%' AND s.value NOT LIKE '%Memcpy%'"));
}

// Bounds on each event and NVIDIA's class of a call: SQL with the same bounds; the syncs of the llama export are its
// cudaDeviceSynchronize calls (512) and its cudaStreamSynchronize calls.
TEST(GoldenEventStats, BoundsAndApiClassesSelectWhatSqlSelects) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(longer, kH100, "event_stats", {{"longer_than_ns", Value(int64_t{100000})}});
  FixtureSql sql(kH100);
  ASSERT_EQ(longer.rows.size(), 1u);
  ExpectRow(
      longer, 0,
      StatsOfQuery(sql, "SELECT start, end, deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE end - start > 100000"));
  NSYS_RUN_SKILL(large, kH100, "event_stats",
                 {{"events", Value(std::string("memcpy"))}, {"larger_than_bytes", Value(int64_t{100000000})}});
  ASSERT_EQ(large.rows.size(), 1u);
  EXPECT_EQ(IntCell(large, 0, "count"),
            sql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE bytes > 100000000"));
  EXPECT_EQ(IntCell(large, 0, "bytes"),
            sql.Int("SELECT SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE bytes > 100000000"));
  const char* llama = "realworld/rtx4060ti_pytorch_llama_infer_sim.sqlite";
  NSYS_RUN_SKILL(syncs, llama, "event_stats",
                 {{"events", Value(std::string("api"))}, {"api_class", Value(std::string("sync"))}});
  FixtureSql lsql(llama);
  ASSERT_EQ(syncs.rows.size(), 1u);
  EXPECT_EQ(
      IntCell(syncs, 0, "count"),
      lsql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId WHERE "
               "s.value LIKE 'cudaDeviceSynchronize%' OR s.value LIKE 'cudaStreamSynchronize%' OR s.value LIKE "
               "'cudaEventSynchronize%' OR s.value LIKE 'cudaThreadSynchronize%' OR s.value LIKE 'cuCtxSynchronize%' "
               "OR s.value LIKE 'cuStreamSynchronize%' OR s.value LIKE 'cuEventSynchronize%'"));
}

// A GPU's work is its kernels, copies and memsets together: its busy time is the union of all three (idle as
// guides/analysis.md defines it when copies count as work).
TEST(GoldenEventStats, AGpusWorkIsItsKernelsCopiesAndMemsets) {
  NSYS_REQUIRE_FIXTURES();
  const std::string keras = "realworld/gtx1650_keras_tf_darknet53.sqlite";
  NSYS_RUN_SKILL(t, keras, "event_stats", {{"events", Value(std::string("gpu"))}});
  FixtureSql sql(keras);
  ASSERT_EQ(t.rows.size(), 1u);
  ExpectRow(t, 0,
            StatsOf(sql.Intervals("SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, end FROM "
                                  "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end FROM "
                                  "CUPTI_ACTIVITY_KIND_MEMSET")));
  // By name: kernels by name, copies by operation, memsets as one, each as the kind-alone run counts them.
  NSYS_RUN_SKILL(by_name, keras, "event_stats",
                 {{"events", Value(std::string("gpu"))}, {"group_by", Value(std::string("name"))}});
  const int memsets = FindRow(by_name, "group", "[CUDA memset]");
  const int uploads = FindRow(by_name, "group", "[CUDA memcpy HtoD]");
  ASSERT_GE(memsets, 0);
  ASSERT_GE(uploads, 0);
  EXPECT_EQ(IntCell(by_name, static_cast<size_t>(memsets), "count"),
            sql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"));
  EXPECT_EQ(IntCell(by_name, static_cast<size_t>(uploads), "count"),
            sql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1"));
}

// Idle gaps of a group: the intervals between the pieces of its union, counted and the longest, by SQL's running
// maximum of the ends before each start; their sum is idle_ns. The H100's kernels per device, and a GPU's work.
TEST(GoldenEventStats, IdleGapsAreTheHolesOfTheUnion) {
  NSYS_REQUIRE_FIXTURES();
  // What of the gaps `what` selects (COUNT(*), MAX(gap), SUM(gap)) among the intervals `ops` selects.
  const auto gaps_sql = [](const std::string& what, const std::string& ops) {
    return "WITH k AS (" + ops +
           "), o AS (SELECT s, e, MAX(e) OVER (ORDER BY s, e ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) pm "
           "FROM k) SELECT " +
           what + " FROM o WHERE pm IS NOT NULL AND s > pm";
  };
  NSYS_RUN_SKILL(t, kH100, "event_stats", {{"group_by", Value(std::string("device"))}});
  FixtureSql sql(kH100);
  for (int device : {0, 1}) {
    const int row = FindRow(t, "group", "device " + std::to_string(device));
    ASSERT_GE(row, 0);
    const std::string ops =
        "SELECT start s, end e FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " + std::to_string(device);
    EXPECT_EQ(IntCell(t, static_cast<size_t>(row), "gaps"), sql.Int(gaps_sql("COUNT(*)", ops)));
    EXPECT_EQ(IntCell(t, static_cast<size_t>(row), "max_gap_ns"), sql.Int(gaps_sql("MAX(s - pm)", ops)));
    EXPECT_EQ(IntCell(t, static_cast<size_t>(row), "idle_ns"), sql.Int(gaps_sql("SUM(s - pm)", ops)));
  }
  // 1,720 gaps on device 1, the longest 155,770,060 ns (the same SQL, run by hand).
  const int one = FindRow(t, "group", "device 1");
  ASSERT_GE(one, 0);
  EXPECT_EQ(IntCell(t, static_cast<size_t>(one), "gaps"), 1720);
  EXPECT_EQ(IntCell(t, static_cast<size_t>(one), "max_gap_ns"), 155770060);
  // Without detail, no gaps (nulls), as no busy or idle time.
  NSYS_RUN_SKILL(quick, kH100, "event_stats", {{"detail", Value(false)}});
  EXPECT_TRUE(std::holds_alternative<std::monostate>(Cell(quick, 0, "gaps")));
}

// Kernels by base name, as nsys stats' :base: SELECT s.value, COUNT(*), SUM(end - start) ... GROUP BY shortName on
// mfu_2gpu_after -> flash_fwd_kernel 60, 240,755,667 ns first; elementwise_kernel 78,833,704 ns. By (demangled)
// name the template instances of one kernel are apart.
TEST(GoldenEventStats, KernelsByBaseNameAsNsysStatsBase) {
  NSYS_REQUIRE_FIXTURES();
  const std::string mfu = "mfu_2gpu_after.sqlite";
  NSYS_RUN_SKILL(t, mfu, "event_stats", {{"group_by", Value(std::string("base_name"))}});
  FixtureSql sql(mfu);
  EXPECT_EQ(static_cast<int64_t>(t.rows.size()),
            sql.Int("SELECT COUNT(DISTINCT shortName) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  for (const std::string name : {"flash_fwd_kernel", "elementwise_kernel", "vectorized_elementwise_kernel"}) {
    const int row = FindRow(t, "group", name);
    ASSERT_GE(row, 0) << name;
    const std::string where =
        "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName WHERE s.value = '" + name + "'";
    EXPECT_EQ(IntCell(t, static_cast<size_t>(row), "count"), sql.Int("SELECT COUNT(*) " + where)) << name;
    EXPECT_EQ(IntCell(t, static_cast<size_t>(row), "total_ns"), sql.Int("SELECT SUM(k.end - k.start) " + where));
  }
  EXPECT_EQ(IntCell(t, static_cast<size_t>(FindRow(t, "group", "flash_fwd_kernel")), "total_ns"), 240755667);
  NSYS_RUN_SKILL(by_name, mfu, "event_stats", {{"group_by", Value(std::string("name"))}});
  EXPECT_GT(by_name.rows.size(), t.rows.size());
}

// Unified-memory migrations are copies of their own kinds (11, 12, 13), apart from explicit copies; the host side's
// memory kind (srcKind of a host-to-device copy) selects pageable or pinned copies; the largest copy's size.
TEST(GoldenEventStats, MigrationsHostMemoryAndTheLargestCopy) {
  NSYS_REQUIRE_FIXTURES();
  const std::string uvm = "realworld/a100_perlmutter_uvm_vecadd.sqlite";
  FixtureSql usql(uvm);
  NSYS_RUN_SKILL(back, uvm, "event_stats",
                 {{"events", Value(std::string("memcpy"))}, {"copy_kind", Value(std::string("Unified DtoH"))}});
  EXPECT_EQ(IntCell(back, 0, "count"), usql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 12"));
  EXPECT_EQ(IntCell(back, 0, "bytes"),
            usql.Int("SELECT SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 12"));
  NSYS_RUN_SKILL(all, uvm, "event_stats",
                 {{"events", Value(std::string("memcpy"))}, {"copy_kind", Value(std::string("unified"))}});
  EXPECT_EQ(IntCell(all, 0, "count"),
            usql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind IN (11, 12, 13)"));
  NSYS_RUN_SKILL(explicit_htod, uvm, "event_stats",
                 {{"events", Value(std::string("memcpy"))}, {"copy_kind", Value(std::string("HtoD"))}});
  EXPECT_EQ(IntCell(explicit_htod, 0, "count"),
            usql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1"));

  FixtureSql sql(kH100);
  NSYS_RUN_SKILL(pageable, kH100, "event_stats",
                 {{"events", Value(std::string("memcpy"))},
                  {"copy_kind", Value(std::string("HtoD"))},
                  {"memory", Value(std::string("pageable"))}});
  EXPECT_EQ(IntCell(pageable, 0, "count"),
            sql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1 AND srcKind = 0"));
  EXPECT_EQ(IntCell(pageable, 0, "max_bytes"),
            sql.Int("SELECT MAX(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1 AND srcKind = 0"));
  NSYS_RUN_SKILL(copies, kH100, "event_stats", {{"events", Value(std::string("memcpy"))}});
  EXPECT_EQ(IntCell(copies, 0, "max_bytes"), sql.Int("SELECT MAX(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
  EXPECT_EQ(IntCell(copies, 0, "min_bytes"), sql.Int("SELECT MIN(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
}

// A name pattern: a family of ranges by its placeholder, as SQL's LIKE 'layer\_%\_computation' selects it.
TEST(GoldenEventStats, ANamePatternSelectsAFamily) {
  NSYS_REQUIRE_FIXTURES();
  const std::string llama = "realworld/rtx4060ti_pytorch_llama_infer_sim.sqlite";
  NSYS_RUN_SKILL(t, llama, "event_stats",
                 {{"events", Value(std::string("nvtx"))}, {"name", Value(std::string("layer_*_computation"))}});
  FixtureSql sql(llama);
  const std::string family =
      "FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId WHERE n.eventType = 59 AND "
      "COALESCE(n.text, s.value) LIKE '%layer\\_%\\_computation%' ESCAPE '\\'";
  EXPECT_EQ(IntCell(t, 0, "count"), sql.Int("SELECT COUNT(*) " + family));
  EXPECT_EQ(IntCell(t, 0, "total_ns"), sql.Int("SELECT SUM(n.end - n.start) " + family));
  EXPECT_GT(IntCell(t, 0, "count"), 64);  // more than one member: layer_0_computation alone has 64
}

// The launch latency: from the start of the call that launched a kernel (same process and correlationId) to the
// kernel's start, a negative one (clocks a little apart) counted as 0; kernels without a launch call have none.
// Launches whose grid has fewer blocks than their GPU has SMs: SQL's join of each kernel with its GPU's row of
// TARGET_INFO_GPU (the H200's 132 SMs); a bound on kernel launches asked of other events is refused.
TEST(GoldenEventStats, GridBelowTheSmsSelectsWhatSqlSelects) {
  NSYS_REQUIRE_FIXTURES();
  const char* h200 = "h200_nvfuser_nvtx.sqlite";
  NSYS_RUN_SKILL(below, h200, "event_stats", {{"grid_below_sms", Value(true)}});
  FixtureSql sql(h200);
  ASSERT_EQ(below.rows.size(), 1u);
  ExpectRow(below, 0,
            StatsOf(sql.Intervals("SELECT k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN TARGET_INFO_GPU g ON "
                                  "g.id = k.deviceId WHERE k.gridX * k.gridY * k.gridZ < g.smCount")));
  EXPECT_EQ(IntCell(below, 0, "count"), 7);
  EXPECT_EQ(IntCell(below, 0, "matched_count"), sql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  auto api = ::nsys::testing::RunSkill(h200, "event_stats",
                                       {{"events", Value(std::string("api"))}, {"grid_below_sms", Value(true)}});
  ASSERT_FALSE(api.ok());
  EXPECT_EQ(api.error().message, "grid_below_sms bounds kernel launches: use it with events=kernels");
}

// Copies grouped by their host side's memory kind (the source of a host-to-device copy, the destination of a
// device-to-host one, else the source), as SQL groups them; memsets by theirs; kernels have none.
TEST(GoldenEventStats, CopiesAndMemsetsByTheirHostMemoryKind) {
  NSYS_REQUIRE_FIXTURES();
  FixtureSql sql(kH100);
  NSYS_RUN_SKILL(t, kH100, "event_stats",
                 {{"events", Value(std::string("memcpy"))}, {"group_by", Value(std::string("memory"))}});
  const std::string host = "CASE WHEN copyKind = 2 THEN dstKind ELSE srcKind END";
  size_t rows = 0;
  sql.Each("SELECT " + host + ", COUNT(*), SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1",
           [&](sqlite3_stmt* row) {
             const int64_t kind = sqlite3_column_int64(row, 0);
             const std::string name = kind == 0 ? "pageable" : kind == 1 ? "pinned" : kind == 2 ? "device" : "other";
             bool found = false;
             for (size_t r = 0; r < t.rows.size(); ++r) {
               if (StringCell(t, r, "group") != name) continue;
               found = true;
               EXPECT_EQ(IntCell(t, r, "count"), sqlite3_column_int64(row, 1)) << name;
               EXPECT_EQ(IntCell(t, r, "bytes"), sqlite3_column_int64(row, 2)) << name;
             }
             EXPECT_TRUE(found) << name;
             ++rows;
           });
  EXPECT_EQ(t.rows.size(), rows);
  EXPECT_EQ(rows, 3u);  // pageable, pinned and device on this export
  auto kernels = ::nsys::testing::RunSkill(kH100, "event_stats", {{"group_by", Value(std::string("memory"))}});
  ASSERT_FALSE(kernels.ok());
  EXPECT_EQ(kernels.error().message, "group_by memory groups copies and memsets: events memcpy or memset");
}

// The launch relation, by correlation id within a process (the README's join trap: correlation ids repeat across
// processes): kernels by the call that launched them, calls by the kernels they launched.
TEST(GoldenEventStats, TheLaunchRelationSelectsWhatSqlJoins) {
  NSYS_REQUIRE_FIXTURES();
  const std::string h200 = "h200_nvfuser_nvtx.sqlite";
  FixtureSql sql(h200);
  const std::string by_call =
      "SELECT k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = "
      "k.correlationId AND (r.globalTid >> 24) = (k.globalPid >> 24) JOIN StringIds s ON s.id = r.nameId WHERE "
      "s.value ";
  // A whole call name: cuLaunchKernel is not cuLaunchKernelEx; cudaLaunchKernel is cudaLaunchKernel_v7000.
  for (const auto& [call, like] :
       std::vector<std::pair<std::string, std::string>>{{"cuLaunchKernel", "= 'cuLaunchKernel'"},
                                                        {"cuLaunchKernelEx", "= 'cuLaunchKernelEx'"},
                                                        {"cudaLaunchKernel", "LIKE 'cudaLaunchKernel_v%'"}}) {
    NSYS_RUN_SKILL(t, h200, "event_stats", {{"launched_by", Value(call)}});
    ASSERT_EQ(t.rows.size(), 1u) << call;
    ExpectRow(t, 0, StatsOf(sql.Intervals(by_call + like)));
  }
  EXPECT_EQ(sql.Int("SELECT COUNT(*) FROM (" + by_call + "= 'cuLaunchKernel')"), 6);
  const std::string mpi = "a100_2proc_mpi.sqlite";
  NSYS_RUN_SKILL(calls, mpi, "event_stats",
                 {{"events", Value(std::string("api"))}, {"launches", Value(std::string("trsm_right_kernel"))}});
  FixtureSql mpi_sql(mpi);
  ASSERT_EQ(calls.rows.size(), 1u);
  ExpectRow(calls, 0,
            StatsOf(mpi_sql.Intervals(
                "SELECT r.start, r.end FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE EXISTS (SELECT 1 FROM "
                "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName WHERE s.value LIKE "
                "'%trsm_right_kernel%' AND k.correlationId = r.correlationId AND (k.globalPid >> 24) = (r.globalTid >> "
                "24))")));
  EXPECT_EQ(IntCell(calls, 0, "count"), 362);
  auto wrong = ::nsys::testing::RunSkill(mpi, "event_stats", {{"launches", Value(std::string("trsm"))}});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().message,
            "launched_by selects GPU work (kernels, copies, memsets), launches selects API calls");
}

// A family by the kernel-name decoder: FlashAttention's kernels (flash_fwd_kernel, whose name never says
// "attention"), the GEMMs of the decoder's libraries (nvjet's cuBLAS GEMMs hold no "gemm"), and a library with its
// operation; a family of other events is refused.
TEST(GoldenEventStats, AFamilySelectsWhatTheKernelDecoderClassifies) {
  NSYS_REQUIRE_FIXTURES();
  const std::string mfu = "mfu_2gpu_before.sqlite";
  FixtureSql sql(mfu);
  const std::string kernels =
      "SELECT k.start, k.end, k.deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
      "WHERE "
      "s.value ";
  NSYS_RUN_SKILL(flash, mfu, "event_stats", {{"family", Value(std::string("FlashAttention"))}});
  ASSERT_EQ(flash.rows.size(), 1u);
  ExpectRow(flash, 0, StatsOfQuery(sql, kernels + "LIKE '%flash_fwd_kernel%'"));
  EXPECT_EQ(IntCell(flash, 0, "count"), 68);
  NSYS_RUN_SKILL(forward, mfu, "event_stats", {{"family", Value(std::string("flashattention fwd"))}});
  EXPECT_EQ(IntCell(forward, 0, "count"), 68);
  NSYS_RUN_SKILL(backward, mfu, "event_stats", {{"family", Value(std::string("flashattention bwd"))}});
  EXPECT_EQ(IntCell(backward, 0, "count"), 0);
  NSYS_RUN_SKILL(nvjet, mfu, "event_stats",
                 {{"family", Value(std::string("gemm"))}, {"name", Value(std::string("nvjet"))}});
  ExpectRow(nvjet, 0, StatsOfQuery(sql, kernels + "LIKE 'nvjet%'"));
  EXPECT_EQ(IntCell(nvjet, 0, "count"), 337);
  auto copies = ::nsys::testing::RunSkill(
      mfu, "event_stats", {{"events", Value(std::string("memcpy"))}, {"family", Value(std::string("gemm"))}});
  ASSERT_FALSE(copies.ok());
  EXPECT_EQ(copies.error().message, "family selects kernels: use it with events=kernels");
}

// share_within_group: each GPU's NCCL kernels as a share of that GPU's own kernel time (SQL over the MFU export:
// 6.34% and 3.11%), where by default the base is every kernel of both GPUs.
TEST(GoldenEventStats, ASharePerDeviceOfItsOwnKernelTime) {
  NSYS_REQUIRE_FIXTURES();
  const std::string mfu = "mfu_2gpu_before.sqlite";
  FixtureSql sql(mfu);
  const skills::Args args = {{"name", Value(std::string("nccl"))},
                             {"group_by", Value(std::string("device"))},
                             {"share_within_group", Value(true)}};
  NSYS_RUN_SKILL(t, mfu, "event_stats", args);
  ASSERT_EQ(t.rows.size(), 2u);
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string device = StringCell(t, r, "group").substr(std::string("device ").size());
    const int64_t all = sql.Int("SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " + device);
    const int64_t nccl = sql.Int(
        "SELECT SUM(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
        "WHERE s.value LIKE '%nccl%' AND k.deviceId = " +
        device);
    EXPECT_EQ(IntCell(t, r, "all_ns"), all) << device;
    EXPECT_EQ(IntCell(t, r, "total_ns"), nccl) << device;
    EXPECT_NEAR(DoubleCell(t, r, "share_pct"), 100.0 * static_cast<double>(nccl) / static_cast<double>(all), 0.01);
  }
  NSYS_RUN_SKILL(global, mfu, "event_stats",
                 {{"name", Value(std::string("nccl"))}, {"group_by", Value(std::string("device"))}});
  EXPECT_EQ(IntCell(global, 0, "all_ns"), sql.Int("SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
}

TEST(GoldenEventStats, LaunchLatencyFromTheLaunchCall) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "event_stats", {{"latency", Value(true)}});
  FixtureSql sql(kH100);
  const std::string joined =
      "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId AND "
      "(r.globalTid >> 24) = (k.globalPid >> 24)";
  double average = -1;
  sql.Each("SELECT AVG(MAX(0, k.start - r.start)) " + joined,
           [&](sqlite3_stmt* row) { average = sqlite3_column_double(row, 0); });
  EXPECT_NEAR(DoubleCell(t, 0, "avg_latency_ns"), average, 0.1);
  EXPECT_EQ(IntCell(t, 0, "max_latency_ns"), sql.Int("SELECT MAX(k.start - r.start) " + joined));
  NSYS_RUN_SKILL(without, kH100, "event_stats");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(Cell(without, 0, "avg_latency_ns")));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(Cell(without, 0, "avg_delay_ns")));
}

// The launch delay (analysis.md's launch statistics, HTA's): from the end of the launching call to the kernel's
// start, 0 when the kernel started before the call returned. On two MPI processes, per process, as SQL joins them.
TEST(GoldenEventStats, LaunchDelayFromTheEndOfTheLaunchCall) {
  NSYS_REQUIRE_FIXTURES();
  const std::string mpi = "a100_2proc_mpi.sqlite";
  NSYS_RUN_SKILL(t, mpi, "event_stats",
                 {{"latency", Value(true)}, {"name", Value(std::string("splitKreduce_kernel"))}});
  FixtureSql sql(mpi);
  const std::string joined =
      "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId AND "
      "(r.globalTid >> 24) = (k.globalPid >> 24) JOIN StringIds s ON s.id = k.demangledName "
      "WHERE s.value LIKE '%splitKreduce_kernel%'";
  double average = -1;
  sql.Each("SELECT AVG(MAX(0, k.start - r.end)) " + joined,
           [&](sqlite3_stmt* row) { average = sqlite3_column_double(row, 0); });
  EXPECT_NEAR(DoubleCell(t, 0, "avg_delay_ns"), average, 0.1);
  EXPECT_NEAR(average, 133872.9, 0.1);  // sqlite3 over the fixture: 85 kernels
  EXPECT_EQ(IntCell(t, 0, "max_delay_ns"), sql.Int("SELECT MAX(MAX(0, k.start - r.end)) " + joined));
  EXPECT_LT(DoubleCell(t, 0, "avg_delay_ns"), DoubleCell(t, 0, "avg_latency_ns"));  // the call's own time apart
}

TEST(GoldenEventStats, NothingInsideARangeOfAnExportWithoutNvtxAndAbsentTablesDecline) {
  NSYS_REQUIRE_FIXTURES();
  // Nothing selected, one group asked for: one row that says 0, with the kernels there are.
  NSYS_RUN_SKILL(none, "realworld/rtx2080ti_cufcm_cufft.sqlite", "event_stats", {{"stream", Value(int64_t{999999})}});
  ASSERT_EQ(none.rows.size(), 1u);
  EXPECT_EQ(IntCell(none, 0, "count"), 0);
  NSYS_RUN_SKILL(grouped, "realworld/rtx2080ti_cufcm_cufft.sqlite", "event_stats",
                 {{"stream", Value(int64_t{999999})}, {"group_by", Value(std::string("device"))}});
  EXPECT_TRUE(grouped.rows.empty());
  NSYS_RUN_SKILL(no_kernels, "titanrtx_tensorrt_nvtx.sqlite", "event_stats");
  EXPECT_TRUE(no_kernels.declined);
}

// A share by number: the events' count over every event of the kind the filter keeps, bounds and names aside.
TEST(GoldenEventStats, AShareOfTheCountIsOfEveryEventOfTheKind) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "event_stats", {{"shorter_than_ns", Value(int64_t{10000})}});
  FixtureSql sql(kH100);
  ASSERT_EQ(t.rows.size(), 1u);
  const int64_t shorter = sql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE end - start < 10000");
  const int64_t all = sql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  EXPECT_EQ(IntCell(t, 0, "count"), shorter);
  EXPECT_EQ(IntCell(t, 0, "all_count"), all);
  EXPECT_NEAR(DoubleCell(t, 0, "count_share_pct"), 100.0 * static_cast<double>(shorter) / static_cast<double>(all),
              0.005);
  NSYS_RUN_SKILL(calls, kH100, "event_stats",
                 {{"events", Value(std::string("api"))}, {"name", Value(std::string("cudaLaunchKernel"))}});
  const int64_t launches = sql.Int(
      "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId WHERE s.value "
      "LIKE 'cudaLaunchKernel%'");
  const int64_t api = sql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME");
  EXPECT_EQ(IntCell(calls, 0, "all_count"), api);
  EXPECT_NEAR(DoubleCell(calls, 0, "count_share_pct"), 100.0 * static_cast<double>(launches) / static_cast<double>(api),
              0.005);
}

// A group's share of its GPUs' span (gpu_share): its busy time over the span of every GPU op (kernel, copy, memset)
// on each GPU it ran on, summed over those GPUs: the T4 solver's kernels against copy-bound traffic, and the H100's
// kernels per device.
TEST(GoldenEventStats, AGroupsShareOfItsGpusSpan) {
  NSYS_REQUIRE_FIXTURES();
  const std::string t4 = "realworld/t4_openmp_offload_solver.sqlite";
  NSYS_RUN_SKILL(t, t4, "event_stats", {{"name", Value(std::string("solve"))}, {"gpu_share", Value(true)}});
  FixtureSql sql(t4);
  ASSERT_EQ(t.rows.size(), 1u);
  const std::string all_ops =
      "SELECT start, end, deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, end, deviceId FROM "
      "CUPTI_ACTIVITY_KIND_MEMCPY";
  const Stats gpu = StatsOfQuery(sql, all_ops);
  const Stats solver =
      StatsOfQuery(sql,
                   "SELECT k.start, k.end, k.deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
                   "k.demangledName WHERE s.value LIKE '%solve%'");
  EXPECT_EQ(IntCell(t, 0, "gpu_span_ns"), gpu.span);
  EXPECT_NEAR(DoubleCell(t, 0, "gpu_span_share_pct"),
              100.0 * static_cast<double>(solver.busy) / static_cast<double>(gpu.span), 0.005);
  NSYS_RUN_SKILL(h100, kH100, "event_stats", {{"group_by", Value(std::string("device"))}, {"gpu_share", Value(true)}});
  FixtureSql h(kH100);
  ASSERT_EQ(h100.rows.size(), 2u);
  for (size_t row = 0; row < 2; ++row) {
    const std::string device = StringCell(h100, row, "group").substr(7);  // "device N"
    const Stats ops = StatsOfQuery(
        h, "SELECT start, end, deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " + device +
               " UNION ALL SELECT start, end, deviceId FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE deviceId = " + device +
               " UNION ALL SELECT start, end, deviceId FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE deviceId = " + device);
    const Stats kernels =
        StatsOfQuery(h, "SELECT start, end, deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " + device);
    EXPECT_EQ(IntCell(h100, row, "gpu_span_ns"), ops.span) << device;
    EXPECT_NEAR(DoubleCell(h100, row, "gpu_span_share_pct"),
                100.0 * static_cast<double>(kernels.busy) / static_cast<double>(ops.span), 0.005)
        << device;
  }
}

// `nth`: one event by start time, the second runFusionWithInputs range and the last kernel to start on GPU 1, as SQL
// orders them (start, then end); a place past the last selects nothing.
TEST(GoldenEventStats, TheNthEventByStartTime) {
  NSYS_REQUIRE_FIXTURES();
  const std::string ranges =
      "SELECT n.start, n.end FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId "
      "WHERE n.eventType IN (59, 60) AND COALESCE(n.text, s.value) LIKE '%runFusionWithInputs%' "
      "ORDER BY n.start, n.end";
  FixtureSql nvf("h200_nvfuser_nvtx.sqlite");
  ASSERT_GE(nvf.Int("SELECT COUNT(*) FROM (" + ranges + ")"), 2);
  for (int64_t nth : {1, 2, -1}) {
    NSYS_RUN_SKILL(t, "h200_nvfuser_nvtx.sqlite", "event_stats",
                   {{"events", Value(std::string("nvtx"))},
                    {"name", Value(std::string("runFusionWithInputs"))},
                    {"nth", Value(nth)}});
    ASSERT_EQ(t.rows.size(), 1u);
    const std::string one = nth > 0 ? ranges + " LIMIT 1 OFFSET " + std::to_string(nth - 1)
                                    : "SELECT * FROM (" + ranges + ") ORDER BY start DESC, end DESC LIMIT 1";
    EXPECT_EQ(IntCell(t, 0, "count"), 1) << nth;
    EXPECT_EQ(IntCell(t, 0, "first_start_ns"), nvf.Int("SELECT start FROM (" + one + ")")) << nth;
    EXPECT_EQ(IntCell(t, 0, "last_end_ns"), nvf.Int("SELECT end FROM (" + one + ")")) << nth;
    EXPECT_EQ(IntCell(t, 0, "total_ns"), nvf.Int("SELECT end - start FROM (" + one + ")")) << nth;
  }
  FixtureSql h100(kH100);
  NSYS_RUN_SKILL(last, kH100, "event_stats", {{"nth", Value(int64_t{-1})}});
  ASSERT_EQ(last.rows.size(), 1u);
  EXPECT_EQ(IntCell(last, 0, "first_start_ns"), h100.Int("SELECT MAX(start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  NSYS_RUN_SKILL(past, "h200_nvfuser_nvtx.sqlite", "event_stats",
                 {{"events", Value(std::string("nvtx"))},
                  {"name", Value(std::string("runFusionWithInputs"))},
                  {"nth", Value(int64_t{1000000})}});
  ASSERT_EQ(past.rows.size(), 1u);
  EXPECT_EQ(IntCell(past, 0, "count"), 0);
}

// `skip`: the first N (or the last -N) selected events by start time are left out, as SQL's OFFSET over the same order
// leaves them; with `nth` it is refused.
TEST(GoldenEventStats, TheFirstOrLastEventsLeftOut) {
  NSYS_REQUIRE_FIXTURES();
  const std::string ranges =
      "SELECT n.start, n.end FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId "
      "WHERE n.eventType IN (59, 60) AND COALESCE(n.text, s.value) LIKE '%ExpressionEvaluator::evaluate%' "
      "ORDER BY n.start, n.end";
  FixtureSql nvf("h200_nvfuser_nvtx.sqlite");
  const int64_t all = nvf.Int("SELECT COUNT(*) FROM (" + ranges + ")");
  ASSERT_GE(all, 3);
  for (int64_t skip : {1, 2, -1}) {
    NSYS_RUN_SKILL(t, "h200_nvfuser_nvtx.sqlite", "event_stats",
                   {{"events", Value(std::string("nvtx"))},
                    {"name", Value(std::string("ExpressionEvaluator::evaluate"))},
                    {"skip", Value(skip)}});
    ASSERT_EQ(t.rows.size(), 1u);
    const int64_t n = skip > 0 ? skip : -skip;
    const std::string kept =
        skip > 0 ? ranges + " LIMIT -1 OFFSET " + std::to_string(n) : ranges + " LIMIT " + std::to_string(all - n);
    EXPECT_EQ(IntCell(t, 0, "count"), all - n) << skip;
    EXPECT_EQ(IntCell(t, 0, "total_ns"), nvf.Int("SELECT SUM(end - start) FROM (" + kept + ")")) << skip;
    EXPECT_EQ(IntCell(t, 0, "first_start_ns"), nvf.Int("SELECT MIN(start) FROM (" + kept + ")")) << skip;
    EXPECT_EQ(IntCell(t, 0, "last_end_ns"), nvf.Int("SELECT MAX(end) FROM (" + kept + ")")) << skip;
  }
  FixtureSql h100(kH100);
  NSYS_RUN_SKILL(warm, kH100, "event_stats", {{"skip", Value(int64_t{10})}});
  EXPECT_EQ(IntCell(warm, 0, "count"), h100.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") - 10);
  auto both =
      ::nsys::testing::RunSkill(kH100, "event_stats", {{"nth", Value(int64_t{1})}, {"skip", Value(int64_t{1})}});
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(both.error().message, "nth picks one event and skip leaves some out: use one of them");
}

}  // namespace
}  // namespace nsys::testing

namespace nsys::testing {
namespace {

// Unified-memory migrations by the driver's cause, as the export classifies them (migrationCause, NVIDIA's
// ENUM_CUDA_UNIF_MEM_MIGRATION: 2 page fault, 3 speculative prefetch): selected and grouped as SQL selects and groups
// them; kernels have no cause.
TEST(GoldenEventStats, MigrationsByTheirCause) {
  NSYS_REQUIRE_FIXTURES();
  const std::string uvm = "realworld/a100_perlmutter_uvm_vecadd.sqlite";
  FixtureSql sql(uvm);
  NSYS_RUN_SKILL(faults, uvm, "event_stats",
                 {{"events", Value(std::string("memcpy"))},
                  {"copy_kind", Value(std::string("Unified DtoH"))},
                  {"cause", Value(std::string("page_fault"))}});
  const std::string where = "FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 12 AND migrationCause = 2";
  EXPECT_EQ(IntCell(faults, 0, "count"), sql.Int("SELECT COUNT(*) " + where));
  EXPECT_EQ(IntCell(faults, 0, "bytes"), sql.Int("SELECT SUM(bytes) " + where));
  EXPECT_EQ(IntCell(faults, 0, "total_ns"), sql.Int("SELECT SUM(end - start) " + where));
  EXPECT_GT(IntCell(faults, 0, "count"), 0);
  NSYS_RUN_SKILL(by_cause, uvm, "event_stats",
                 {{"events", Value(std::string("memcpy"))}, {"group_by", Value(std::string("cause"))}});
  size_t rows = 0;
  sql.Each("SELECT migrationCause, COUNT(*), SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1",
           [&](sqlite3_stmt* row) {
             const int64_t cause = sqlite3_column_int64(row, 0);
             const std::string name = cause == 1   ? "user prefetch"
                                      : cause == 2 ? "page fault"
                                      : cause == 3 ? "speculative prefetch"
                                                   : "other";
             const int r = FindRow(by_cause, "group", name);
             ASSERT_GE(r, 0) << name;
             EXPECT_EQ(IntCell(by_cause, static_cast<size_t>(r), "count"), sqlite3_column_int64(row, 1)) << name;
             EXPECT_EQ(IntCell(by_cause, static_cast<size_t>(r), "bytes"), sqlite3_column_int64(row, 2)) << name;
             ++rows;
           });
  EXPECT_EQ(by_cause.rows.size(), rows);
  EXPECT_EQ(rows, 3u);  // user prefetch, page fault and speculative prefetch on this export
  auto kernels = RunSkill(uvm, "event_stats", {{"cause", Value(std::string("page_fault"))}});
  ASSERT_FALSE(kernels.ok());
  EXPECT_EQ(kernels.error().message, "cause and group_by cause select unified-memory migrations: events memcpy");
  // A GPU's work keys its kernels by name: grouped by cause, a kernel's name would stand as a cause.
  auto gpu =
      RunSkill(uvm, "event_stats", {{"events", Value(std::string("gpu"))}, {"group_by", Value(std::string("cause"))}});
  ASSERT_FALSE(gpu.ok());
  EXPECT_EQ(gpu.error().message, "group_by cause groups copies: events memcpy");
}

// Gap bounds: `gaps`, `max_gap_ns` and `avg_gap_ns` count only the idle gaps of each GPU's kernel union within them, as
// SQL finds them (each kernel's start after the latest end before it on its GPU); without detail they are refused.
TEST(GoldenEventStats, IdleGapsWithinBounds) {
  NSYS_REQUIRE_FIXTURES();
  FixtureSql sql(kH100);
  const auto gap_sql = [&](const std::string& device, const std::string& what, const std::string& bound) {
    return sql.Int(
        "WITH r AS (SELECT start s, MAX(end) OVER (ORDER BY start, end ROWS BETWEEN UNBOUNDED PRECEDING AND 1 "
        "PRECEDING) pe FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " +
        device + ") SELECT COALESCE(" + what + ", 0) FROM r WHERE pe IS NOT NULL AND s > pe AND " + bound);
  };
  NSYS_RUN_SKILL(over, kH100, "event_stats",
                 {{"group_by", Value(std::string("device"))},
                  {"detail", Value(true)},
                  {"gap_longer_than_ns", Value(int64_t{1000000})}});
  NSYS_RUN_SKILL(under, kH100, "event_stats",
                 {{"group_by", Value(std::string("device"))},
                  {"detail", Value(true)},
                  {"gap_longer_than_ns", Value(int64_t{10000})},
                  {"gap_shorter_than_ns", Value(int64_t{50000})}});
  ASSERT_EQ(over.rows.size(), 2u);
  ASSERT_EQ(under.rows.size(), 2u);
  for (size_t row = 0; row < 2; ++row) {
    const std::string device = StringCell(over, row, "group").substr(7);  // "device N"
    EXPECT_EQ(IntCell(over, row, "gaps"), gap_sql(device, "COUNT(*)", "s - pe > 1000000")) << device;
    EXPECT_EQ(IntCell(over, row, "max_gap_ns"), gap_sql(device, "MAX(s - pe)", "s - pe > 1000000")) << device;
    EXPECT_GT(IntCell(over, row, "gaps"), 0) << device;
    // The mean of the gaps counted: their sum over how many.
    EXPECT_NEAR(DoubleCell(over, row, "avg_gap_ns"),
                static_cast<double>(gap_sql(device, "SUM(s - pe)", "s - pe > 1000000")) /
                    static_cast<double>(IntCell(over, row, "gaps")),
                0.05)
        << device;
    const std::string d2 = StringCell(under, row, "group").substr(7);
    EXPECT_EQ(IntCell(under, row, "gaps"), gap_sql(d2, "COUNT(*)", "s - pe > 10000 AND s - pe < 50000")) << d2;
    EXPECT_EQ(IntCell(under, row, "max_gap_ns"), gap_sql(d2, "MAX(s - pe)", "s - pe > 10000 AND s - pe < 50000")) << d2;
  }
  EXPECT_FALSE(
      RunSkill(kH100, "event_stats", {{"detail", Value(false)}, {"gap_longer_than_ns", Value(int64_t{1000})}}).ok());
}

}  // namespace
}  // namespace nsys::testing
