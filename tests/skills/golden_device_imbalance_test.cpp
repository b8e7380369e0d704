// device_imbalance against SQL: Σ kernel time per (pid, device), split by whether the short or demangled name
// starts with nccl (the fixtures' communication kernels), and each row's distance from the busiest compute.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

struct Load {
  int64_t kernels = 0, kernel_ns = 0, nccl_ns = 0, nccl_kernels = 0;
};

std::map<std::pair<int64_t, int64_t>, Load> FromSql(const std::string& fixture) {
  FixtureSql sql(fixture);
  std::map<std::pair<int64_t, int64_t>, Load> out;
  sql.Each(
      "SELECT (k.globalPid >> 24) & 0xFFFFFF, k.deviceId, count(*), sum(k.end - k.start), "
      "sum(CASE WHEN s.value LIKE 'nccl%' OR d.value LIKE 'nccl%' THEN k.end - k.start ELSE 0 END), "
      "sum(s.value LIKE 'nccl%' OR d.value LIKE 'nccl%') FROM CUPTI_ACTIVITY_KIND_KERNEL k "
      "JOIN StringIds s ON s.id = k.shortName JOIN StringIds d ON d.id = k.demangledName GROUP BY 1, 2",
      [&](sqlite3_stmt* st) {
        Load& l = out[{sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1)}];
        l.kernels = sqlite3_column_int64(st, 2);
        l.kernel_ns = sqlite3_column_int64(st, 3);
        l.nccl_ns = sqlite3_column_int64(st, 4);
        l.nccl_kernels = sqlite3_column_int64(st, 5);
      });
  return out;
}

void ExpectMatchesSql(const std::string& fixture) {
  SCOPED_TRACE(fixture);
  NSYS_RUN_SKILL(t, fixture, "device_imbalance");
  ASSERT_FALSE(t.declined);
  const auto expected = FromSql(fixture);
  ASSERT_EQ(t.rows.size(), expected.size());
  int64_t max_compute = 0;
  for (const auto& [key, l] : expected) max_compute = std::max(max_compute, l.kernel_ns - l.nccl_ns);
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto key = std::make_pair(IntCell(t, r, "pid"), IntCell(t, r, "device_id"));
    ASSERT_TRUE(expected.count(key));
    const Load& l = expected.at(key);
    const int64_t compute = l.kernel_ns - l.nccl_ns;
    EXPECT_EQ(IntCell(t, r, "kernels"), l.kernels);
    EXPECT_EQ(IntCell(t, r, "kernel_ns"), l.kernel_ns);
    EXPECT_EQ(IntCell(t, r, "nccl_ns"), l.nccl_ns);
    EXPECT_EQ(IntCell(t, r, "nccl_kernels"), l.nccl_kernels);
    EXPECT_EQ(IntCell(t, r, "compute_ns"), compute);
    EXPECT_DOUBLE_EQ(DoubleCell(t, r, "compute_share_of_max"),
                     static_cast<double>(compute) / static_cast<double>(max_compute));
    EXPECT_EQ(IntCell(t, r, "behind_max_ns"), max_compute - compute);
  }
}

TEST(DeviceImbalance, MatchesSql) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* f : {"mfu_2gpu_before.sqlite", "mfu_2gpu_after.sqlite", "h100_2gpu_1s.sqlite",
                        "a100_2proc_mpi.sqlite", "mock.sqlite"}) {
    ExpectMatchesSql(f);
  }
}

TEST(DeviceImbalance, KnownFigures) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "device_imbalance");
  ASSERT_EQ(t.rows.size(), 2u);
  // fixtures README: 66 ncclDevKernel_SendRecv in the export, 33 per rank.
  EXPECT_EQ(IntCell(t, 0, "nccl_kernels") + IntCell(t, 1, "nccl_kernels"), 66);
  EXPECT_GT(IntCell(t, 0, "nccl_ns"), 0);
  // Exactly one row is the busiest.
  EXPECT_EQ((IntCell(t, 0, "behind_max_ns") == 0) + (IntCell(t, 1, "behind_max_ns") == 0), 1);
  // a100: two MPI ranks on one GPU, no NCCL: compute is all kernel time.
  NSYS_RUN_SKILL(a, "a100_2proc_mpi.sqlite", "device_imbalance");
  ASSERT_EQ(a.rows.size(), 2u);
  EXPECT_EQ(IntCell(a, 0, "device_id"), IntCell(a, 1, "device_id"));
  EXPECT_EQ(IntCell(a, 0, "nccl_ns"), 0);
  EXPECT_EQ(IntCell(a, 0, "kernels") + IntCell(a, 1, "kernels"), 885);  // fixtures README
}

TEST(DeviceImbalance, FiltersNarrowTheComparison) {
  NSYS_REQUIRE_FIXTURES();
  // One device selected: it is its own maximum.
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "device_imbalance", {{"device", Value(int64_t{1})}});
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(IntCell(t, 0, "device_id"), 1);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "compute_share_of_max"), 1.0);
  EXPECT_EQ(IntCell(t, 0, "behind_max_ns"), 0);
  FixtureSql sql("mfu_2gpu_before.sqlite");
  EXPECT_EQ(IntCell(t, 0, "kernel_ns"),
            sql.Int("SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = 1"));
}

TEST(DeviceImbalance, DeclinesWithoutKernels) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "device_imbalance");
  EXPECT_TRUE(t.declined);
  EXPECT_TRUE(t.rows.empty());
  EXPECT_NE(JoinNotes(t).find("CUPTI_ACTIVITY_KIND_KERNEL"), std::string::npos) << JoinNotes(t);
}

}  // namespace
}  // namespace nsys::testing
