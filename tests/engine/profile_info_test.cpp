// What Open() knows before any event table loads. Expected values come from sqlite3 on the fixtures.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::Fixture;
using ::nsys::testing::OpenOrDie;
using ::nsys::testing::Sql;
using ::nsys::testing::TestOptions;

// Events' min(start) / max(end) over the tables the engine loads, computed by full scans in SQL.
std::pair<int64_t, int64_t> SqlTimeRange(const std::string& path) {
  Sql sql(path);
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const char* t : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
                        "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "CUPTI_ACTIVITY_KIND_RUNTIME", "PROFILER_OVERHEAD"}) {
    if (sql.Int(std::string("SELECT count(*) FROM sqlite_master WHERE name='") + t + "'") == 0) continue;
    sql.Each(std::string("SELECT min(start), max(end) FROM ") + t + " WHERE start IS NOT NULL", [&](sqlite3_stmt* s) {
      if (sqlite3_column_type(s, 0) == SQLITE_NULL) return;
      lo = std::min<int64_t>(lo, sqlite3_column_int64(s, 0));
      hi = std::max<int64_t>(hi, sqlite3_column_int64(s, 1));
    });
  }
  if (sql.Int("SELECT count(*) FROM sqlite_master WHERE name='NVTX_EVENTS'") > 0) {
    sql.Each("SELECT min(start), max(coalesce(end, start)) FROM NVTX_EVENTS WHERE eventType != 75",
             [&](sqlite3_stmt* s) {
               if (sqlite3_column_type(s, 0) == SQLITE_NULL) return;
               lo = std::min<int64_t>(lo, sqlite3_column_int64(s, 0));
               hi = std::max<int64_t>(hi, sqlite3_column_int64(s, 1));
             });
  }
  return {lo, hi};
}

TEST(ProfileInfo, H100) {
  NSYS_REQUIRE_FIXTURES();
  auto p = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), TestOptions());
  ASSERT_TRUE(p);
  const ProfileInfo& info = p->info();
  EXPECT_EQ(info.nsys_version, "2026.2.1.210");
  EXPECT_EQ(info.schema_version, "3.25.0");
  EXPECT_EQ(info.metadata_table, "META_DATA_EXPORT");
  EXPECT_EQ(info.metadata.at("DERIVED_WINDOW_NS"), "155330248986-156330248986");
  EXPECT_EQ(info.session_start_utc_ns, 1779630014975716426);
  EXPECT_FALSE(info.from_cache);
  EXPECT_EQ(info.file_size, 2269184);
  // Counts of the event tables, without loading them.
  EXPECT_EQ(info.rows("CUPTI_ACTIVITY_KIND_KERNEL"), 3442);
  EXPECT_EQ(info.rows("NVTX_EVENTS"), 16782);
  EXPECT_EQ(info.rows("CUPTI_ACTIVITY_KIND_MEMCPY"), 904);
  EXPECT_EQ(info.rows("CUPTI_ACTIVITY_KIND_RUNTIME"), 5796);
  EXPECT_EQ(info.rows("NO_SUCH_TABLE"), 0);
  // Capabilities.
  EXPECT_TRUE(info.caps.kernels && info.caps.runtime && info.caps.memcpy && info.caps.memset && info.caps.sync);
  EXPECT_TRUE(info.caps.nvtx && info.caps.enums && info.caps.cuda_streams);
  EXPECT_FALSE(info.caps.gpu_info);  // no TARGET_INFO_GPU in this export
  EXPECT_FALSE(info.caps.osrt);
  EXPECT_FALSE(info.caps.profiler_overhead);  // the table exists but is empty
  // No GPU info table: the device ids GPU activity uses.
  ASSERT_EQ(info.devices.size(), 2u);
  EXPECT_EQ(info.devices[0].id, 0);
  EXPECT_EQ(info.devices[1].id, 1);
  EXPECT_TRUE(info.devices[0].name.empty());
  EXPECT_EQ(info.processes.size(), 159u);
  EXPECT_EQ(info.threads.size(), 843u);
  EXPECT_EQ(info.streams.size(), 314u);
  // Tables sorted by name, with their columns.
  ASSERT_FALSE(info.tables.empty());
  EXPECT_TRUE(std::is_sorted(info.tables.begin(), info.tables.end(),
                             [](const TableInfo& a, const TableInfo& b) { return a.name < b.name; }));
  auto kernel = std::find_if(info.tables.begin(), info.tables.end(),
                             [](const TableInfo& t) { return t.name == "CUPTI_ACTIVITY_KIND_KERNEL"; });
  ASSERT_NE(kernel, info.tables.end());
  EXPECT_THAT(kernel->columns, ::testing::Contains("greenContextId"));
  // The time range: the events' extremes (memcpy starts first, a memcpy ends last).
  const auto [lo, hi] = SqlTimeRange(Fixture("h100_2gpu_1s.sqlite"));
  EXPECT_EQ(info.start_ns, lo);
  EXPECT_EQ(info.end_ns, hi);
  EXPECT_EQ(info.start_ns, 155357525002);
  EXPECT_EQ(info.end_ns, 156326972607);
}

TEST(ProfileInfo, OldSchemaA100) {
  NSYS_REQUIRE_FIXTURES();
  auto p = OpenOrDie(Fixture("a100_2proc_mpi.sqlite"), TestOptions());
  ASSERT_TRUE(p);
  const ProfileInfo& info = p->info();
  EXPECT_EQ(info.nsys_version, "2022.3.4.34");
  EXPECT_EQ(info.schema_version, "2.10.0");
  EXPECT_EQ(info.metadata_table, "EXPORT_META_DATA");
  EXPECT_FALSE(info.caps.enums);  // 2.x: no ENUM tables
  EXPECT_TRUE(info.caps.osrt);
  EXPECT_TRUE(info.caps.profiler_overhead);
  EXPECT_FALSE(info.caps.nvtx);
  ASSERT_EQ(info.devices.size(), 1u);
  EXPECT_EQ(info.devices[0].name, "NVIDIA A100-PCIE-40GB");
  EXPECT_EQ(info.devices[0].chip, "GA100");
  EXPECT_EQ(info.devices[0].total_memory, 42352050176);
  EXPECT_EQ(info.devices[0].memory_bandwidth, 1555200000000);
  EXPECT_EQ(info.devices[0].sm_count, 108);
  EXPECT_EQ(info.devices[0].clock_rate, 1410000000);
  EXPECT_EQ(info.processes.size(), 9u);
  EXPECT_EQ(info.threads.size(), 10u);
  auto proc =
      std::find_if(info.processes.begin(), info.processes.end(), [](const Process& pr) { return pr.pid == 1679; });
  ASSERT_NE(proc, info.processes.end());
  EXPECT_EQ(proc->name, "run_pselinv_lin");
  const auto [lo, hi] = SqlTimeRange(Fixture("a100_2proc_mpi.sqlite"));
  EXPECT_EQ(info.start_ns, lo);
  EXPECT_EQ(info.end_ns, hi);
  EXPECT_EQ(info.start_ns, 13297488);  // a PROFILER_OVERHEAD row comes first
}

TEST(ProfileInfo, NvtxOnlyTitanRtx) {
  NSYS_REQUIRE_FIXTURES();
  auto p = OpenOrDie(Fixture("titanrtx_tensorrt_nvtx.sqlite"), TestOptions());
  ASSERT_TRUE(p);
  const ProfileInfo& info = p->info();
  EXPECT_FALSE(info.caps.kernels);
  EXPECT_FALSE(info.caps.runtime);
  EXPECT_TRUE(info.caps.nvtx);
  EXPECT_TRUE(info.caps.gpu_info);
  ASSERT_EQ(info.devices.size(), 1u);
  EXPECT_EQ(info.devices[0].name, "NVIDIA TITAN RTX");
  // The two domain-create rows sit at negative times; they are not part of the profile's range.
  EXPECT_EQ(info.start_ns, 9438588);
  EXPECT_EQ(info.end_ns, 7468315346);
}

TEST(ProfileInfo, EveryFixtureTimeRangeMatchesSql) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* name :
       {"h100_2gpu_1s.sqlite", "mfu_2gpu_before.sqlite", "mfu_2gpu_after.sqlite", "mock.sqlite",
        "a100_2proc_mpi.sqlite", "titanrtx_tensorrt_nvtx.sqlite", "h200_nvfuser_nvtx.sqlite", "v100_julia.sqlite"}) {
    SCOPED_TRACE(name);
    auto p = OpenOrDie(Fixture(name), TestOptions());
    ASSERT_TRUE(p);
    const auto [lo, hi] = SqlTimeRange(Fixture(name));
    EXPECT_EQ(p->info().start_ns, lo);
    EXPECT_EQ(p->info().end_ns, hi);
    Sql sql(Fixture(name));
    for (const TableInfo& t : p->info().tables)
      EXPECT_EQ(t.rows, sql.Int("SELECT count(*) FROM \"" + t.name + "\"")) << t.name;
  }
}

TEST(ProfileInfo, OpenDoesNotWaitForEventTables) {
  NSYS_REQUIRE_FIXTURES();
  OpenOptions options = TestOptions();
  options.load_all_in_background = true;
  auto p = OpenOrDie(Fixture("mfu_2gpu_before.sqlite"), options);
  ASSERT_TRUE(p);
  // Info is complete right away, while NVTX may still be loading in the background.
  EXPECT_EQ(p->info().rows("NVTX_EVENTS"), 19118);
  ASSERT_TRUE(p->Require(Need::kKernels).ok());
  EXPECT_EQ(p->kernels().size(), 4010u);
}

// The deviceIds GPU activity names, as SQL over the same rows finds them.
std::vector<int32_t> SqlActivityDevices(const std::string& path) {
  std::vector<int32_t> ids;
  Sql(path).Each(
      "SELECT DISTINCT deviceId FROM (SELECT deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT deviceId FROM "
      "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT deviceId FROM CUPTI_ACTIVITY_KIND_MEMSET) ORDER BY deviceId",
      [&](sqlite3_stmt* s) { ids.push_back(static_cast<int32_t>(sqlite3_column_int64(s, 0))); });
  return ids;
}

std::vector<int32_t> DeviceIds(const ProfileInfo& info) {
  std::vector<int32_t> ids;
  for (const Device& d : info.devices) ids.push_back(d.id);
  return ids;
}

// An export that names no GPUs: its devices are every device its kernels, copies and memsets ran on, the kernels'
// read from the loaded kernel rows (the open leaves them loaded) and the others from their tables. Devices that
// only copy or only set memory count too.
TEST(ProfileInfo, WithoutGpuTablesTheDevicesAreThoseOfTheActivity) {
  NSYS_REQUIRE_FIXTURES();
  ::nsys::testing::TempDir dir;
  const std::string copy = ::nsys::testing::EditedCopy(
      dir, "h100_2gpu_1s.sqlite",
      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = 5 WHERE rowid % 97 = 3;"
      "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET deviceId = 9 WHERE rowid = (SELECT max(rowid) FROM "
      "CUPTI_ACTIVITY_KIND_MEMCPY);"
      "UPDATE CUPTI_ACTIVITY_KIND_MEMSET SET deviceId = 12 WHERE rowid = (SELECT min(rowid) FROM "
      "CUPTI_ACTIVITY_KIND_MEMSET);");
  const std::vector<int32_t> expected = SqlActivityDevices(copy);
  ASSERT_EQ(expected, (std::vector<int32_t>{0, 1, 5, 9, 12}));
  auto p = OpenOrDie(copy, TestOptions());
  ASSERT_TRUE(p);
  EXPECT_EQ(DeviceIds(p->info()), expected);
  for (const Device& d : p->info().devices) EXPECT_TRUE(d.name.empty());
  // The kernel rows the devices came from are loaded: a Require that may not wait (its token is cancelled) passes.
  CancelToken no_wait;
  no_wait.cancel();
  EXPECT_TRUE(p->Require(Need::kKernelRows, no_wait).ok());
  EXPECT_FALSE(p->Require(Need::kRuntime, no_wait).ok());
  // The same as a warm open reads them back from the snapshot, whether the snapshot was written at close or by the
  // background loads (which may finish every table before the open has the kernels' devices: they wait for them).
  for (const bool background : {false, true}) {
    const std::string cache = dir / (background ? "cache-background" : "cache");
    OpenOptions options = TestOptions(cache);
    options.load_all_in_background = background;
    {
      auto primed = OpenOrDie(copy, options);
      ASSERT_TRUE(primed);
      ASSERT_TRUE(primed->Require(kAllTables).ok());
    }
    auto warm = OpenOrDie(copy, TestOptions(cache));
    ASSERT_TRUE(warm);
    EXPECT_TRUE(warm->info().from_cache) << background;
    EXPECT_EQ(DeviceIds(warm->info()), expected) << background;
  }
}

// When the kernel table cannot be loaded (no `end` column: the loader refuses it), the open still succeeds, with
// the kernel devices read from the table's deviceId column, and the load's error waits for whoever needs kernels.
TEST(ProfileInfo, AKernelTableTheLoaderRefusesStillNamesItsDevices) {
  NSYS_REQUIRE_FIXTURES();
  ::nsys::testing::TempDir dir;
  const std::string copy =
      ::nsys::testing::EditedCopy(dir, "h100_2gpu_1s.sqlite",
                                  "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = 4 WHERE rowid % 50 = 1;"
                                  "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME COLUMN \"end\" TO finish;");
  const std::vector<int32_t> expected = SqlActivityDevices(copy);
  ASSERT_EQ(expected, (std::vector<int32_t>{0, 1, 4}));
  auto p = OpenOrDie(copy, TestOptions());
  ASSERT_TRUE(p);
  EXPECT_EQ(DeviceIds(p->info()), expected);
  const Status kernels = p->Require(Need::kKernelRows);
  ASSERT_FALSE(kernels.ok());
  EXPECT_THAT(kernels.error().message, ::testing::HasSubstr("without a `end` column"));
}

// An export without a process table (old exports): the processes are the pids its activity rows carry, as SQL
// over the same rows finds them, with no names.
TEST(ProfileInfo, WithoutAProcessTableTheActivityRowsNameTheProcesses) {
  NSYS_REQUIRE_FIXTURES();
  ::nsys::testing::TempDir dir;
  const std::string copy = ::nsys::testing::EditedCopy(dir, "a100_2proc_mpi.sqlite", "DROP TABLE PROCESSES;");
  std::vector<uint32_t> expected;
  Sql(copy).Each(
      "SELECT DISTINCT (g >> 24) & 16777215 AS pid FROM (SELECT globalPid AS g FROM CUPTI_ACTIVITY_KIND_KERNEL "
      "UNION ALL SELECT globalPid FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT globalPid FROM "
      "CUPTI_ACTIVITY_KIND_MEMSET UNION ALL SELECT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME) ORDER BY pid",
      [&](sqlite3_stmt* s) { expected.push_back(static_cast<uint32_t>(sqlite3_column_int64(s, 0))); });
  ASSERT_GE(expected.size(), 2u);  // the two MPI ranks
  auto p = OpenOrDie(copy, TestOptions());
  ASSERT_TRUE(p);
  std::vector<uint32_t> pids;
  for (const Process& proc : p->info().processes) {
    pids.push_back(proc.pid);
    EXPECT_EQ(proc.name, "");
  }
  EXPECT_EQ(pids, expected);
}

}  // namespace
}  // namespace nsys::engine
