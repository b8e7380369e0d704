// sync_apis ≡ nsys analyze cuda-sync-api. Expected rows are NVIDIA's output (`nsys analyze -r
// cuda-sync-api:rows=-1 -f csv` 2022.4.2 on a copy of the fixture), quoted at each assertion.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

struct SyncRow {
  int64_t duration, start, pid, tid;
  const char* api;
};

void ExpectRows(const skills::Table& t, const std::vector<SyncRow>& expected) {
  ASSERT_EQ(t.rows.size(), expected.size()) << JoinNotes(t);
  for (size_t r = 0; r < expected.size(); ++r) {
    EXPECT_EQ(IntCell(t, r, "duration_ns"), expected[r].duration) << "row " << r;
    EXPECT_EQ(IntCell(t, r, "start_ns"), expected[r].start) << "row " << r;
    EXPECT_EQ(IntCell(t, r, "pid"), expected[r].pid) << "row " << r;
    EXPECT_EQ(IntCell(t, r, "tid"), expected[r].tid) << "row " << r;
    EXPECT_EQ(StringCell(t, r, "api_name"), expected[r].api) << "row " << r;
  }
}

TEST(SyncApis, H100MatchesCudaSyncApiRowForRow) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h100_2gpu_1s.sqlite", "sync_apis", {{"limit", Value(int64_t{0})}});
  ASSERT_FALSE(t.declined);
  // nsys analyze cuda-sync-api, all 8 rows (longest first).
  ExpectRows(t, {{428468918, 155636047407, 111, 111, "cudaStreamSynchronize_v3020"},
                 {428424529, 155636203373, 112, 112, "cudaStreamSynchronize_v3020"},
                 {6833, 156065717419, 112, 112, "cudaStreamSynchronize_v3020"},
                 {6792, 156065751124, 111, 111, "cudaStreamSynchronize_v3020"},
                 {6033, 156065780131, 111, 111, "cudaStreamSynchronize_v3020"},
                 {5833, 156065742999, 112, 112, "cudaStreamSynchronize_v3020"},
                 {5567, 156064794875, 112, 112, "cudaStreamSynchronize_v3020"},
                 {4946, 156064775459, 111, 111, "cudaStreamSynchronize_v3020"}});
  EXPECT_NE(JoinNotes(t).find("8 synchronization calls"), std::string::npos) << JoinNotes(t);
}

TEST(SyncApis, H200FindsDeviceAndStreamSynchronize) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h200_nvfuser_nvtx.sqlite", "sync_apis");
  // nsys analyze cuda-sync-api: 3 rows.
  ExpectRows(t, {{1716513, 9033242700, 50556, 50556, "cudaDeviceSynchronize_v3020"},
                 {29210, 7498262970, 50556, 50556, "cudaStreamSynchronize_v3020"},
                 {8530, 8745865226, 50556, 50556, "cudaStreamSynchronize_v3020"}});
}

TEST(SyncApis, PidFilterAndLimit) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h100_2gpu_1s.sqlite", "sync_apis", {{"pid", Value(int64_t{112})}, {"limit", Value(int64_t{2})}});
  // The pid-112 rows of NVIDIA's list, longest first, cut to 2 with a note saying so.
  ExpectRows(t, {{428424529, 155636203373, 112, 112, "cudaStreamSynchronize_v3020"},
                 {6833, 156065717419, 112, 112, "cudaStreamSynchronize_v3020"}});
  EXPECT_NE(JoinNotes(t).find("Showing the first 2 of 4 rows"), std::string::npos) << JoinNotes(t);
}

TEST(SyncApis, CountsAgreeWithSqlOnEveryFixtureWithRuntime) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* fixture : {"a100_2proc_mpi.sqlite", "mfu_2gpu_before.sqlite", "mfu_2gpu_after.sqlite", "mock.sqlite",
                              "v100_julia.sqlite"}) {
    FixtureSql sql(fixture);
    const int64_t expected = sql.Int(
        "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
        "WHERE s.value LIKE 'cudaDeviceSynchronize%' OR s.value LIKE 'cudaStreamSynchronize%'");
    NSYS_RUN_SKILL(t, fixture, "sync_apis", {{"limit", Value(int64_t{0})}});
    EXPECT_FALSE(t.declined) << fixture;
    EXPECT_EQ(static_cast<int64_t>(t.rows.size()), expected) << fixture;
  }
}

TEST(SyncApis, DeclinesWithoutRuntimeTraceAndSaysDeviceDoesNotFilter) {
  NSYS_REQUIRE_FIXTURES();
  {
    // titanrtx_tensorrt_nvtx has no CUPTI_ACTIVITY_KIND_RUNTIME (NVIDIA: SKIPPED).
    NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "sync_apis");
    EXPECT_TRUE(t.declined);
    EXPECT_NE(JoinNotes(t).find("CUPTI_ACTIVITY_KIND_RUNTIME"), std::string::npos) << JoinNotes(t);
  }
  NSYS_RUN_SKILL(t, "h100_2gpu_1s.sqlite", "sync_apis", {{"device", Value(int64_t{1})}});
  EXPECT_EQ(t.rows.size(), 8u);
  EXPECT_NE(JoinNotes(t).find("carry no device id"), std::string::npos) << JoinNotes(t);
}

TEST(SyncApis, BadArgumentsAreErrors) {
  NSYS_REQUIRE_FIXTURES();
  auto wrong_type = RunSkill("h100_2gpu_1s.sqlite", "sync_apis", {{"limit", Value(std::string("ten"))}});
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_EQ(wrong_type.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(wrong_type.error().message.find("limit"), std::string::npos);
  auto no_device = RunSkill("h100_2gpu_1s.sqlite", "sync_apis", {{"device", Value(int64_t{7})}});
  ASSERT_FALSE(no_device.ok());
  EXPECT_EQ(no_device.error().kind, ErrorKind::kInvalidArgument);
  auto outside = RunSkill("h100_2gpu_1s.sqlite", "sync_apis", {{"start", Value(100.0)}, {"end", Value(200.0)}});
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.error().kind, ErrorKind::kInvalidArgument);
}

TEST(SyncApis, WindowKeepsCallsStartingInside) {
  NSYS_REQUIRE_FIXTURES();
  // The two 428 ms syncs start at 155636047407 and 155636203373; a capture-clock window around them keeps only them.
  NSYS_RUN_SKILL(
      t, "h100_2gpu_1s.sqlite", "sync_apis",
      {{"clock", Value(std::string("capture_ns"))}, {"start", Value(155636000000.0)}, {"end", Value(155636300000.0)}});
  ExpectRows(t, {{428468918, 155636047407, 111, 111, "cudaStreamSynchronize_v3020"},
                 {428424529, 155636203373, 112, 112, "cudaStreamSynchronize_v3020"}});
}

}  // namespace
}  // namespace nsys::testing
