// sync_memcpy ≡ cuda-sync-memcpy, pageable_memcpy ≡ cuda-async-memcpy, sync_memset ≡ cuda-sync-memset.
// Expected rows are NVIDIA's (`nsys analyze -r <rule>:rows=-1 -f csv:mem=B`, 2022.4.2) or independent SQL that
// joins on (pid, correlationId); tests/conformance/analyze_rules_test.cpp compares every fixture live.
#include <gtest/gtest.h>

#include <string>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

TEST(PageableMemcpy, H100MatchesCudaAsyncMemcpy) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h100_2gpu_1s.sqlite", "pageable_memcpy");
  ASSERT_FALSE(t.declined);
  // nsys analyze cuda-async-memcpy: 4 rows, all 784-byte pageable HtoD cudaMemcpyAsync.
  ASSERT_EQ(t.rows.size(), 4u);
  const int64_t durations[] = {928, 864, 800, 768};
  const int64_t starts[] = {156065716629, 156065743253, 156065780619, 156065750091};
  const int64_t pids[] = {112, 112, 111, 111};
  const int64_t devices[] = {1, 1, 0, 0};
  const int64_t streams[] = {15, 15, 7, 7};
  for (size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(IntCell(t, r, "duration_ns"), durations[r]);
    EXPECT_EQ(IntCell(t, r, "start_ns"), starts[r]);
    EXPECT_EQ(IntCell(t, r, "pid"), pids[r]);
    EXPECT_EQ(IntCell(t, r, "device_id"), devices[r]);
    EXPECT_EQ(IntCell(t, r, "stream_id"), streams[r]);
    EXPECT_EQ(IntCell(t, r, "bytes"), 784);
    EXPECT_EQ(StringCell(t, r, "src_kind"), "Pageable");
    EXPECT_EQ(StringCell(t, r, "dst_kind"), "Device");
    EXPECT_EQ(StringCell(t, r, "copy_kind"), "HtoD");
    EXPECT_EQ(StringCell(t, r, "api_name"), "cudaMemcpyAsync_v3020");
  }
  // 466 of the 904 memcpys have no runtime row in this cut window (SQL: memcpys without a (pid, correlationId) match).
  FixtureSql sql("h100_2gpu_1s.sqlite");
  const int64_t unmatched = sql.Int(
      "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY m WHERE NOT EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
      "WHERE r.correlationId = m.correlationId AND ((r.globalTid >> 24) & 0xFFFFFF) = ((m.globalPid >> 24) & "
      "0xFFFFFF))");
  EXPECT_EQ(unmatched, 466);
  EXPECT_NE(JoinNotes(t).find("466 of 904 memcpys have no launching runtime call"), std::string::npos) << JoinNotes(t);
}

TEST(PageableMemcpy, H200LargePageableCopy) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h200_nvfuser_nvtx.sqlite", "pageable_memcpy");
  // nsys analyze cuda-async-memcpy: 21355637,7476932404,Pageable,Device,394002432 B,50556,0,1,7,cudaMemcpyAsync_v3020
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(IntCell(t, 0, "duration_ns"), 21355637);
  EXPECT_EQ(IntCell(t, 0, "start_ns"), 7476932404);
  EXPECT_EQ(IntCell(t, 0, "bytes"), 394002432);
  EXPECT_EQ(IntCell(t, 1, "bytes"), 2);
}

TEST(SyncMemcpy, A100JoinsOnPidAndCorrelationId) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "a100_2proc_mpi.sqlite", "sync_memcpy", {{"limit", Value(int64_t{0})}});
  ASSERT_FALSE(t.declined);
  // NVIDIA's query with the join fixed to (pid, correlationId): two MPI ranks reuse correlationIds, so NVIDIA's own
  // output (1383 rows) pairs some copies with the other rank's calls.
  FixtureSql sql("a100_2proc_mpi.sqlite");
  const int64_t expected = sql.Int(
      "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY m JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
      "ON r.correlationId = m.correlationId AND ((r.globalTid >> 24) & 0xFFFFFF) = ((m.globalPid >> 24) & 0xFFFFFF) "
      "JOIN StringIds s ON s.id = r.nameId WHERE s.value LIKE 'cudaMemcpy%' AND s.value NOT LIKE '%Async%' "
      "AND NOT (m.bytes <= 64000 AND m.copyKind = 1) AND NOT (m.srcDeviceId IS NOT NULL AND m.srcDeviceId = "
      "m.dstDeviceId)");
  EXPECT_EQ(expected, 1139);
  EXPECT_EQ(static_cast<int64_t>(t.rows.size()), expected);
  // The longest one is NVIDIA's first row too: 4169086,5999987658,Pageable,Device,13617152
  // B,1679,0,1,7,cudaMemcpy_v3020
  EXPECT_EQ(IntCell(t, 0, "duration_ns"), 4169086);
  EXPECT_EQ(IntCell(t, 0, "start_ns"), 5999987658);
  EXPECT_EQ(StringCell(t, 0, "src_kind"), "Pageable");
  EXPECT_EQ(StringCell(t, 0, "dst_kind"), "Device");
  EXPECT_EQ(IntCell(t, 0, "pid"), 1679);
  EXPECT_EQ(StringCell(t, 0, "api_name"), "cudaMemcpy_v3020");
  // No exempt copy slipped in: HtoD of <= 64,000 bytes never appears.
  for (size_t r = 0; r < t.rows.size(); ++r) {
    EXPECT_FALSE(StringCell(t, r, "copy_kind") == "HtoD" && IntCell(t, r, "bytes") <= 64000) << "row " << r;
  }
}

TEST(SyncMemcpy, DeclinesWithoutMemcpyAndFindsNoneInAsyncOnlyProfiles) {
  NSYS_REQUIRE_FIXTURES();
  {
    NSYS_RUN_SKILL(t, "v100_julia.sqlite", "sync_memcpy");  // NVIDIA: SKIPPED, no CUDA memcpy data
    EXPECT_TRUE(t.declined);
    EXPECT_NE(JoinNotes(t).find("CUPTI_ACTIVITY_KIND_MEMCPY"), std::string::npos);
  }
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "sync_memcpy");  // NVIDIA: no rows
  EXPECT_FALSE(t.declined);
  EXPECT_TRUE(t.rows.empty());
}

TEST(SyncMemset, NoFixtureHasPinnedOrManagedMemsets) {
  NSYS_REQUIRE_FIXTURES();
  // Every memset in the fixtures is on device memory (memKind 2: SQL below), so NVIDIA's rule and the skill find none.
  FixtureSql sql("a100_2proc_mpi.sqlite");
  EXPECT_EQ(sql.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE memKind IN (1, 4)"), 0);
  EXPECT_EQ(sql.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"), 45);
  NSYS_RUN_SKILL(t, "a100_2proc_mpi.sqlite", "sync_memset");
  EXPECT_FALSE(t.declined);
  EXPECT_TRUE(t.rows.empty());
  EXPECT_NE(JoinNotes(t).find("among 45 memsets"), std::string::npos) << JoinNotes(t);
  NSYS_RUN_SKILL(m, "mock.sqlite", "sync_memset");  // no memset table (NVIDIA: SKIPPED)
  EXPECT_TRUE(m.declined);
}

}  // namespace
}  // namespace nsys::testing
