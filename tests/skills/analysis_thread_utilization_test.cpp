// thread_utilization: per-thread CUDA API and NVTX time, checked against SQL plus a plain union.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

TEST(ThreadUtilization, H100MainThreadsMatchSql) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h100_2gpu_1s.sqlite", "thread_utilization");
  ASSERT_FALSE(t.declined);
  FixtureSql sql("h100_2gpu_1s.sqlite");
  ASSERT_EQ(t.rows.size(), 2u);  // the two ranks' main threads
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string thread = "((globalTid >> 24) & 0xFFFFFF) = " + std::to_string(IntCell(t, r, "pid")) +
                               " AND (globalTid & 0xFFFFFF) = " + std::to_string(IntCell(t, r, "tid"));
    EXPECT_EQ(IntCell(t, r, "cuda_api_ns"),
              UnionLengthOf(sql.Intervals("SELECT start, end FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE " + thread)));
    EXPECT_EQ(IntCell(t, r, "cuda_api_calls"),
              sql.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE " + thread));
    EXPECT_EQ(IntCell(t, r, "nvtx_ns"),
              UnionLengthOf(sql.Intervals("SELECT start, end FROM NVTX_EVENTS WHERE eventType = 59 AND " + thread)));
    EXPECT_EQ(
        IntCell(t, r, "sync_ns"),
        UnionLengthOf(sql.Intervals("SELECT r.start, r.end FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON "
                                    "s.id = r.nameId WHERE s.value LIKE 'cudaStreamSynchronize%' AND " +
                                    thread)));
    EXPECT_EQ(StringCell(t, r, "thread_name"), "python3");
    EXPECT_EQ(StringCell(t, r, "top_api"), "cudaStreamSynchronize_v3020");
    EXPECT_LE(DoubleCell(t, r, "cuda_api_pct"), 100.0);
  }
  // Pinned: rank 111's main thread spends 899765966 ns in CUDA calls over 2898 calls.
  EXPECT_EQ(IntCell(t, 0, "pid"), 111);
  EXPECT_EQ(IntCell(t, 0, "cuda_api_ns"), 899765966);
  EXPECT_EQ(IntCell(t, 0, "cuda_api_calls"), 2898);
}

// The one filter shape's thread set: thread_utilization honours it; a skill that cannot says so (kUnsupported).
TEST(ThreadUtilization, ThreadFilterSelectsOneThread) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(all, "h100_2gpu_1s.sqlite", "thread_utilization");
  ASSERT_EQ(all.rows.size(), 2u);
  const int64_t pid = IntCell(all, 1, "pid"), tid = IntCell(all, 1, "tid");
  auto profile = OpenFixture("h100_2gpu_1s.sqlite");
  ASSERT_NE(profile, nullptr);
  engine::FilterSpec filter;
  filter.threads = {(static_cast<uint64_t>(pid) << 24) | static_cast<uint64_t>(tid)};
  auto skill = Builtins().Find("thread_utilization");
  auto one = skills::Run(*skill, *profile, {}, filter);
  ASSERT_TRUE(one.ok()) << one.error().message;
  ASSERT_EQ(one->rows.size(), 1u);
  EXPECT_EQ(IntCell(*one, 0, "pid"), pid);
  EXPECT_EQ(IntCell(*one, 0, "tid"), tid);
  EXPECT_EQ(IntCell(*one, 0, "cuda_api_ns"), IntCell(all, 1, "cuda_api_ns"));
  EXPECT_EQ(one->notes.front(), fmt::format("Only thread {}.", filter.threads[0]));
  auto refused = skills::Run(*Builtins().Find("top_kernels"), *profile, {}, filter);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::kUnsupported);
  EXPECT_EQ(refused.error().message, "Skill 'top_kernels' cannot filter by thread; leave the filter's threads empty.");
}

TEST(ThreadUtilization, NvtxOnlyProfileAndLimit) {
  NSYS_REQUIRE_FIXTURES();
  // titanrtx_tensorrt_nvtx has NVTX but no CUDA trace: NVTX time only, said in the notes.
  NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "thread_utilization", {{"limit", Value(int64_t{0})}});
  ASSERT_FALSE(t.declined);
  ASSERT_FALSE(t.rows.empty());
  EXPECT_NE(JoinNotes(t).find("no CUDA API trace"), std::string::npos) << JoinNotes(t);
  FixtureSql sql("titanrtx_tensorrt_nvtx.sqlite");
  EXPECT_EQ(static_cast<int64_t>(t.rows.size()),
            sql.Int("SELECT count(DISTINCT globalTid) FROM NVTX_EVENTS WHERE eventType = 59 AND end > start"));
  NSYS_RUN_SKILL(one, "mfu_2gpu_before.sqlite", "thread_utilization", {{"limit", Value(int64_t{1})}});
  ASSERT_EQ(one.rows.size(), 1u);
  EXPECT_NE(JoinNotes(one).find("Showing the 1 busiest"), std::string::npos);
  NSYS_RUN_SKILL(none, "v100_julia.sqlite", "thread_utilization");  // CUDA trace, no NVTX: API time only
  EXPECT_FALSE(none.declined);
  EXPECT_NE(JoinNotes(none).find("no NVTX ranges"), std::string::npos) << JoinNotes(none);
}

}  // namespace
}  // namespace nsys::testing
