// nccl_breakdown: counts and times checked with SQL on the fixture's NCCL kernels.
#include <gtest/gtest.h>

#include <string>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

TEST(NcclBreakdown, MfuSendRecvPerDeviceMatchesSql) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "nccl_breakdown");
  ASSERT_FALSE(t.declined);
  FixtureSql sql("mfu_2gpu_before.sqlite");
  // Rows: per device an "all" row and one per collective; here only SendRecv (33 kernels per device).
  ASSERT_EQ(t.rows.size(), 4u);
  for (int64_t device : {0, 1}) {
    const std::string where =
        " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName WHERE "
        "s.value LIKE 'ncclDevKernel_SendRecv%' AND k.deviceId = " +
        std::to_string(device);
    const int64_t count = sql.Int("SELECT count(*)" + where);
    const int64_t total = sql.Int("SELECT sum(k.end - k.start)" + where);
    EXPECT_EQ(count, 33);
    bool saw_all = false, saw_sendrecv = false;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      if (IntCell(t, r, "device_id") != device) continue;
      const std::string c = StringCell(t, r, "collective");
      saw_all |= c == "all";
      saw_sendrecv |= c == "SendRecv";
      EXPECT_EQ(IntCell(t, r, "count"), count);
      EXPECT_EQ(IntCell(t, r, "total_ns"), total);
      EXPECT_EQ(IntCell(t, r, "min_ns"), sql.Int("SELECT min(k.end - k.start)" + where));
      EXPECT_EQ(IntCell(t, r, "max_ns"), sql.Int("SELECT max(k.end - k.start)" + where));
      // Each device runs every kernel on one stream (SQL below), so NCCL never overlaps compute: all of it is exposed.
      EXPECT_EQ(sql.Int("SELECT count(DISTINCT streamId) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " +
                        std::to_string(device)),
                1);
      EXPECT_DOUBLE_EQ(DoubleCell(t, r, "overlap_pct"), 0.0);
      EXPECT_EQ(IntCell(t, r, "exposed_ns"), IntCell(t, r, "comm_busy_ns"));
      EXPECT_DOUBLE_EQ(DoubleCell(t, r, "exposed_pct"), 100.0);
      EXPECT_EQ(IntCell(t, r, "comm_busy_ns"), total);  // serialized kernels: union = sum
    }
    EXPECT_TRUE(saw_all && saw_sendrecv) << device;
  }
  // Device 0's 33 SendRecv kernels take 17172652 ns (SQL above, pinned here so a pattern change cannot pass silently).
  EXPECT_EQ(IntCell(t, 0, "total_ns"), 17172652);
  const std::string notes = JoinNotes(t);
  EXPECT_NE(notes.find("nccl:all_to_all x66"), std::string::npos) << notes;  // PyTorch's API-level NVTX name
  EXPECT_NE(notes.find("message sizes"), std::string::npos) << notes;        // bandwidth: sizes unknown, said so
  EXPECT_NE(notes.find("|∪compute ∩ ∪comm| / |∪comm|"), std::string::npos) << notes;
}

TEST(NcclBreakdown, ProfilesWithoutCommunicationSaySo) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h100_2gpu_1s.sqlite", "nccl_breakdown");
  EXPECT_FALSE(t.declined);
  EXPECT_TRUE(t.rows.empty());
  EXPECT_NE(JoinNotes(t).find("No communication kernels among the 3442 kernels"), std::string::npos) << JoinNotes(t);
  EXPECT_NE(JoinNotes(t).find("starts with nccl, rccl or hccl"), std::string::npos);
  NSYS_RUN_SKILL(d, "titanrtx_tensorrt_nvtx.sqlite", "nccl_breakdown");  // no kernel table
  EXPECT_TRUE(d.declined);
}

TEST(NcclBreakdown, DeviceFilter) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "mfu_2gpu_after.sqlite", "nccl_breakdown", {{"device", Value(int64_t{1})}});
  FixtureSql sql("mfu_2gpu_after.sqlite");
  ASSERT_EQ(t.rows.size(), 2u);
  for (size_t r = 0; r < t.rows.size(); ++r) {
    EXPECT_EQ(IntCell(t, r, "device_id"), 1);
    EXPECT_EQ(IntCell(t, r, "count"),
              sql.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
                      "WHERE s.value LIKE 'nccl%' AND k.deviceId = 1"));
  }
}

}  // namespace
}  // namespace nsys::testing
