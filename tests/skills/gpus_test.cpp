// gpus against SQL: every GPU TARGET_INFO_GPU lists, idle ones too, with its columns as the export gives them, and
// the kernels, copies and memsets each ran counted by SQL over the activity tables.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <string>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

void ExpectTheGpusSqlLists(const char* fixture) {
  NSYS_RUN_SKILL(t, fixture, "gpus");
  FixtureSql sql(fixture);
  ASSERT_EQ(static_cast<int64_t>(t.rows.size()), sql.Int("SELECT COUNT(DISTINCT id) FROM TARGET_INFO_GPU")) << fixture;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const int64_t id = IntCell(t, r, "device_id");
    const std::string where = " FROM TARGET_INFO_GPU WHERE id = " + std::to_string(id) + " LIMIT 1";
    EXPECT_EQ(StringCell(t, r, "name"), sql.Text("SELECT name" + where)) << fixture;
    EXPECT_EQ(IntCell(t, r, "sm_count"), sql.Int("SELECT smCount" + where)) << fixture;
    EXPECT_EQ(IntCell(t, r, "memory_bytes"), sql.Int("SELECT totalMemory" + where)) << fixture;
    EXPECT_NEAR(DoubleCell(t, r, "memory_bandwidth_gb_per_s"),
                static_cast<double>(sql.Int("SELECT memoryBandwidth" + where)) / 1e9, 1e-9)
        << fixture;
    const auto count = [&](const char* table) {
      return sql.Int(std::string("SELECT COUNT(*) FROM ") + table + " WHERE deviceId = " + std::to_string(id));
    };
    EXPECT_EQ(IntCell(t, r, "kernels"), count("CUPTI_ACTIVITY_KIND_KERNEL")) << fixture << " GPU " << id;
    EXPECT_EQ(IntCell(t, r, "copies"), count("CUPTI_ACTIVITY_KIND_MEMCPY")) << fixture << " GPU " << id;
    EXPECT_EQ(IntCell(t, r, "graph_launches"), 0) << fixture;  // no export here records graphs
    const int64_t work = IntCell(t, r, "kernels") + IntCell(t, r, "copies") + IntCell(t, r, "memsets");
    EXPECT_EQ(IntCell(t, r, "ran_work"), work > 0 ? 1 : 0);
  }
}

// The RTX 3090 box lists eight GPUs and the JAX job used one; the mock's one RTX 3080 has 68 SMs and 760 GB/s.
TEST(Gpus, ListsEveryGpuTheExportListsWithTheWorkEachRan) {
  NSYS_REQUIRE_FIXTURES();
  ExpectTheGpusSqlLists("realworld/rtx3090_jax_xla_small.sqlite");
  ExpectTheGpusSqlLists("mock.sqlite");
  NSYS_RUN_SKILL(jax, "realworld/rtx3090_jax_xla_small.sqlite", "gpus");
  int64_t used = 0;
  for (size_t r = 0; r < jax.rows.size(); ++r) used += IntCell(jax, r, "ran_work");
  EXPECT_EQ(jax.rows.size(), 8u);
  EXPECT_EQ(used, 1);
  NSYS_RUN_SKILL(mock, "mock.sqlite", "gpus");
  ASSERT_EQ(mock.rows.size(), 1u);
  EXPECT_EQ(StringCell(mock, 0, "name"), "NVIDIA GeForce RTX 3080");
  EXPECT_EQ(IntCell(mock, 0, "sm_count"), 68);
  EXPECT_EQ(StringCell(mock, 0, "compute_capability"), "8.6");
}

// An export that names no GPU: the devices its GPU work names, each with its work, and a note that says so.
TEST(Gpus, AnExportThatNamesNoGpuListsTheDevicesItsWorkNames) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(h100, kH100, "gpus");
  FixtureSql sql(kH100);
  ASSERT_EQ(static_cast<int64_t>(h100.rows.size()),
            sql.Int("SELECT COUNT(DISTINCT deviceId) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_EQ(StringCell(h100, 0, "name"), "");
  EXPECT_EQ(IntCell(h100, 0, "kernels"), sql.Int("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " +
                                                 std::to_string(IntCell(h100, 0, "device_id"))));
  ASSERT_FALSE(h100.notes.empty());
  EXPECT_NE(h100.notes.front().find("the export names no GPU"), std::string::npos) << h100.notes.front();
}

}  // namespace
}  // namespace nsys::testing
