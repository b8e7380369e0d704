// Event tables and the process-aware kernel -> runtime correlation, checked against direct SQL on the fixtures.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <tuple>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::Fixture;
using ::nsys::testing::OpenOrDie;
using ::nsys::testing::Sql;
using ::nsys::testing::TestOptions;

template <typename Table>
bool SortedByTime(const Table& t) {
  for (size_t i = 1; i < t.size(); ++i)
    if (std::tie(t.start[i - 1], t.end[i - 1]) > std::tie(t.start[i], t.end[i])) return false;
  return true;
}

TEST(Tables, H100Counts) {
  NSYS_REQUIRE_FIXTURES();
  auto p = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kKernels | Need::kMemcpy | Need::kMemset | Need::kSync).ok());
  const KernelTable& k = p->kernels();
  EXPECT_EQ(k.size(), 3442u);
  EXPECT_EQ(std::set<int32_t>(k.device.begin(), k.device.end()), (std::set<int32_t>{0, 1}));
  EXPECT_EQ(std::set<uint32_t>(k.pid.begin(), k.pid.end()), (std::set<uint32_t>{111, 112}));
  EXPECT_TRUE(SortedByTime(k));
  EXPECT_EQ(p->memcpys().size(), 904u);
  EXPECT_EQ(p->memsets().size(), 22u);
  EXPECT_EQ(p->syncs().size(), 244u);
  EXPECT_EQ(p->runtime().size(), 5796u);
  EXPECT_TRUE(SortedByTime(p->runtime()));  // one row is out of order in the export
  EXPECT_TRUE(SortedByTime(p->memcpys()));

  Sql sql(Fixture("h100_2gpu_1s.sqlite"));
  int64_t htod = 0, total = 0;
  for (size_t i = 0; i < p->memcpys().size(); ++i) {
    total += p->memcpys().bytes[i];
    if (p->memcpys().copy_kind[i] == static_cast<uint8_t>(CopyKind::kHtoD)) htod += p->memcpys().bytes[i];
  }
  EXPECT_EQ(htod, sql.Int("SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1"));
  EXPECT_EQ(htod, 50950507584);  // the README's 50.9 GB host-to-device
  EXPECT_EQ(total, sql.Int("SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));

  // Kernel time and the longest kernel.
  int64_t time = 0;
  for (size_t i = 0; i < k.size(); ++i) time += k.end[i] - k.start[i];
  EXPECT_EQ(time, sql.Int("SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_EQ(k.max_duration, sql.Int("SELECT max(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
}

// Every kernel column against the export: the first kernel by (start, end) with its names through StringIds.
TEST(Tables, KernelColumnsMatchSql) {
  NSYS_REQUIRE_FIXTURES();
  auto p = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kKernels).ok());
  const KernelTable& k = p->kernels();
  Sql sql(Fixture("h100_2gpu_1s.sqlite"));
  size_t row = 0;
  sql.Each(
      "SELECT k.start, k.end, deviceId, streamId, contextId, (globalPid >> 24) & 16777215, correlationId, d.value, "
      "s.value, gridX, gridY, gridZ, blockX, blockY, blockZ, registersPerThread, staticSharedMemory, "
      "dynamicSharedMemory FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = k.demangledName "
      "JOIN StringIds s ON s.id = k.shortName ORDER BY k.start, k.end, k.rowid",
      [&](sqlite3_stmt* s) {
        ASSERT_LT(row, k.size());
        auto text = [&](int c) { return std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, c))); };
        EXPECT_EQ(k.start[row], sqlite3_column_int64(s, 0));
        EXPECT_EQ(k.end[row], sqlite3_column_int64(s, 1));
        EXPECT_EQ(k.device[row], sqlite3_column_int(s, 2));
        EXPECT_EQ(k.stream[row], sqlite3_column_int(s, 3));
        const engine::KernelConfig& c = k.Config(row);
        EXPECT_EQ(c.context, sqlite3_column_int(s, 4));
        EXPECT_EQ(k.pid[row], static_cast<uint32_t>(sqlite3_column_int64(s, 5)));
        EXPECT_EQ(k.correlation_id[row], static_cast<uint32_t>(sqlite3_column_int64(s, 6)));
        EXPECT_EQ(p->strings().view(k.name[row]), text(7));
        EXPECT_EQ(p->strings().view(k.short_name[row]), text(8));
        EXPECT_EQ(c.grid_x, sqlite3_column_int(s, 9));
        EXPECT_EQ(c.grid_y, sqlite3_column_int(s, 10));
        EXPECT_EQ(c.grid_z, sqlite3_column_int(s, 11));
        EXPECT_EQ(c.block_x, sqlite3_column_int(s, 12));
        EXPECT_EQ(c.block_y, sqlite3_column_int(s, 13));
        EXPECT_EQ(c.block_z, sqlite3_column_int(s, 14));
        EXPECT_EQ(c.registers_per_thread, sqlite3_column_int(s, 15));
        EXPECT_EQ(c.static_shared_memory, sqlite3_column_int(s, 16));
        EXPECT_EQ(c.dynamic_shared_memory, sqlite3_column_int(s, 17));
        ++row;
      });
  EXPECT_EQ(row, k.size());
}

// Two MPI ranks on one A100: 885 kernels, only 819 distinct correlationIds. Each kernel's launch must be the
// runtime row with the same correlationId in the same process, as a direct SQL join on (pid, correlationId) says.
TEST(Tables, A100ProcessAwareCorrelation) {
  NSYS_REQUIRE_FIXTURES();
  const std::string path = Fixture("a100_2proc_mpi.sqlite");
  auto p = OpenOrDie(path, TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kKernels | Need::kMemcpy | Need::kMemset).ok());
  const KernelTable& k = p->kernels();
  const RuntimeTable& rt = p->runtime();
  ASSERT_EQ(k.size(), 885u);
  EXPECT_EQ(std::set<uint32_t>(k.correlation_id.begin(), k.correlation_id.end()).size(), 819u);

  Sql sql(path);
  // The trap is real: correlationId alone would match a runtime row of the other process for some kernels.
  EXPECT_GT(sql.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
                    "ON r.correlationId = k.correlationId "
                    "AND ((r.globalTid >> 24) & 16777215) != ((k.globalPid >> 24) & 16777215)"),
            0);
  // Kernel (start, end, pid) -> its runtime call (start, end, tid, name) by the process-aware join.
  std::map<std::tuple<int64_t, int64_t, uint32_t>, std::tuple<int64_t, int64_t, uint32_t, std::string>> expected;
  sql.Each(
      "SELECT k.start, k.end, (k.globalPid >> 24) & 16777215, r.start, r.end, r.globalTid & 16777215, s.value "
      "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "
      "AND ((r.globalTid >> 24) & 16777215) = ((k.globalPid >> 24) & 16777215) JOIN StringIds s ON s.id = r.nameId",
      [&](sqlite3_stmt* s) {
        expected[{sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1),
                  static_cast<uint32_t>(sqlite3_column_int64(s, 2))}] = {
            sqlite3_column_int64(s, 3), sqlite3_column_int64(s, 4), static_cast<uint32_t>(sqlite3_column_int64(s, 5)),
            reinterpret_cast<const char*>(sqlite3_column_text(s, 6))};
      });
  ASSERT_EQ(expected.size(), 885u);  // every kernel has its runtime row in its own process
  size_t checked = 0;
  for (size_t i = 0; i < k.size(); ++i) {
    const int32_t call = k.launch[i];
    ASSERT_NE(call, kNone) << "kernel " << i;
    EXPECT_EQ(rt.pid[call], k.pid[i]);
    EXPECT_EQ(rt.correlation_id[call], k.correlation_id[i]);
    auto it = expected.find({k.start[i], k.end[i], k.pid[i]});
    ASSERT_NE(it, expected.end());
    const auto& [rs, re, tid, name] = it->second;
    EXPECT_EQ(rt.start[call], rs);
    EXPECT_EQ(rt.end[call], re);
    EXPECT_EQ(rt.tid[call], tid);
    EXPECT_EQ(p->strings().view(rt.name[call]), name);
    ++checked;
  }
  EXPECT_EQ(checked, 885u);
  // Memcpy and memset rows link the same way.
  const int64_t memcpy_linked = sql.Int(
      "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY m WHERE EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
      "WHERE r.correlationId = m.correlationId AND ((r.globalTid >> 24) & 16777215) = ((m.globalPid >> 24) & "
      "16777215))");
  int64_t linked = 0;
  for (size_t i = 0; i < p->memcpys().size(); ++i) linked += p->memcpys().launch[i] != kNone;
  EXPECT_EQ(linked, memcpy_linked);
  EXPECT_EQ(p->memcpys().size(), 1465u);
  EXPECT_EQ(p->memsets().size(), 45u);
}

// The runtime table keeps runtime and driver calls (eventClass 0 and 1).
TEST(Tables, RuntimeKeepsDriverCalls) {
  NSYS_REQUIRE_FIXTURES();
  const std::string path = Fixture("mfu_2gpu_before.sqlite");
  auto p = OpenOrDie(path, TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kKernels).ok());
  EXPECT_EQ(p->runtime().size(), 7466u);  // 6,392 runtime + 1,074 driver
  Sql sql(path);
  const int64_t with_launch = sql.Int(
      "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
      "WHERE r.correlationId = k.correlationId AND ((r.globalTid >> 24) & 16777215) = ((k.globalPid >> 24) & "
      "16777215))");
  int64_t linked = 0;
  for (int32_t l : p->kernels().launch) linked += l != kNone;
  EXPECT_EQ(linked, with_launch);
  EXPECT_EQ(linked, 3986);
  EXPECT_TRUE(p->info().caps.nccl);  // 66 ncclDevKernel_SendRecv
}

TEST(Tables, EveryFixtureLoadsAndMatchesCounts) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* name :
       {"h100_2gpu_1s.sqlite", "mfu_2gpu_before.sqlite", "mfu_2gpu_after.sqlite", "mock.sqlite",
        "a100_2proc_mpi.sqlite", "titanrtx_tensorrt_nvtx.sqlite", "h200_nvfuser_nvtx.sqlite", "v100_julia.sqlite"}) {
    SCOPED_TRACE(name);
    auto p = OpenOrDie(Fixture(name), TestOptions());
    ASSERT_TRUE(p);
    ASSERT_TRUE(p->Require(kAllTables).ok());
    const ProfileInfo& info = p->info();
    EXPECT_EQ(static_cast<int64_t>(p->kernels().size()), info.rows("CUPTI_ACTIVITY_KIND_KERNEL"));
    EXPECT_EQ(static_cast<int64_t>(p->runtime().size()), info.rows("CUPTI_ACTIVITY_KIND_RUNTIME"));
    EXPECT_EQ(static_cast<int64_t>(p->memcpys().size()), info.rows("CUPTI_ACTIVITY_KIND_MEMCPY"));
    EXPECT_EQ(static_cast<int64_t>(p->memsets().size()), info.rows("CUPTI_ACTIVITY_KIND_MEMSET"));
    EXPECT_EQ(static_cast<int64_t>(p->syncs().size()), info.rows("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
    EXPECT_EQ(static_cast<int64_t>(p->overhead().size()), info.rows("PROFILER_OVERHEAD"));
    Sql sql(Fixture(name));
    if (info.caps.nvtx) {
      EXPECT_EQ(static_cast<int64_t>(p->nvtx().size()),
                sql.Int("SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60)"));
      EXPECT_EQ(static_cast<int64_t>(p->nvtx_marks().size()),
                sql.Int("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 34"));
    }
    EXPECT_TRUE(SortedByTime(p->kernels()));
    EXPECT_TRUE(SortedByTime(p->runtime()));
    EXPECT_TRUE(SortedByTime(p->syncs()));
  }
}

}  // namespace
}  // namespace nsys::engine
