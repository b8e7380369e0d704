// time_budget: on every export in the shared fixtures (and the real-world ones), each (process, device)
// span is cut into slices that add up to it to the nanosecond; the span, the kernel slices, the busy slices and the
// idle-in-a-CUDA-call slices are each checked against plain SQL over the export and an interval sweep written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;
using Intervals = std::vector<std::pair<int64_t, int64_t>>;

// The union of `v`, sorted and disjoint.
Intervals UnionOfBudget(Intervals v) {
  std::sort(v.begin(), v.end());
  Intervals out;
  for (const auto& [s, e] : v) {
    if (e <= s) continue;
    if (!out.empty() && s <= out.back().second) {
      out.back().second = std::max(out.back().second, e);
    } else {
      out.emplace_back(s, e);
    }
  }
  return out;
}

// |a ∩ b| for two sorted disjoint lists.
int64_t OverlapOfBudget(const Intervals& a, const Intervals& b) {
  int64_t total = 0;
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    total += std::max<int64_t>(0, std::min(a[i].second, b[j].second) - std::max(a[i].first, b[j].first));
    (a[i].second < b[j].second ? i : j)++;
  }
  return total;
}

bool HasTable(const FixtureSql& sql, const std::string& table) {
  return sql.Int("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'") > 0;
}

// The ops of one (pid, device) as NVIDIA's rules select them: start > 0 (and not damaged: end >= start).
Intervals OpsOf(const FixtureSql& sql, const std::string& table, int64_t pid, int64_t device) {
  if (!HasTable(sql, table)) return {};
  return sql.Intervals("SELECT start, end FROM " + table + " WHERE start > 0 AND end >= start AND deviceId = " +
                       std::to_string(device) + " AND ((globalPid >> 24) & 0xFFFFFF) = " + std::to_string(pid));
}

// The row of `slice` on `device`, or -1.
int BudgetRow(const skills::Table& t, int64_t device, const std::string& slice) {
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (IntCell(t, r, "device_id") == device && StringCell(t, r, "slice") == slice) return static_cast<int>(r);
  }
  return -1;
}

std::vector<std::string> Exports() {
  std::vector<std::string> out;
  for (const std::string dir : {"", "realworld"}) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(FixturesDir()) / dir, ec)) {
      // empty_export.sqlite has no events and does not open (its own tests say so).
      if (e.path().extension() == ".sqlite" && e.path().filename() != "empty_export.sqlite") {
        out.push_back((fs::path(dir) / e.path().filename()).string());
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// `a` minus `b`, both sorted and disjoint.
Intervals MinusOfBudget(const Intervals& a, const Intervals& b) {
  Intervals out;
  size_t j = 0;
  for (auto [s, e] : a) {
    while (j < b.size() && b[j].second <= s) ++j;
    for (size_t k = j; k < b.size() && b[k].first < e; ++k) {
      if (b[k].first > s) out.emplace_back(s, b[k].first);
      s = std::max(s, b[k].second);
    }
    if (e > s) out.emplace_back(s, e);
  }
  return out;
}

// idle_no_cuda's split by OS runtime calls: its stretches (the span's gaps minus the process's CUDA calls) against
// the union of the OS calls of the threads that made CUDA calls. Given exactly when OSRT_API exists and the slice
// holds at least 5% of the span, and the table has rows; host_wait_ns + host_compute_ns = time_ns. Returns 1 when the
// split was checked.
int CheckHostWaits(const skills::Table& t, const FixtureSql& sql, int64_t pid, int64_t device, const Intervals& gaps,
                   const Intervals& calls) {
  int row = -1;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (IntCell(t, r, "pid") == pid && IntCell(t, r, "device_id") == device &&
        StringCell(t, r, "slice") == "idle_no_cuda") {
      row = static_cast<int>(r);
    }
  }
  if (row < 0) return 0;
  const auto r = static_cast<size_t>(row);
  const int64_t time = IntCell(t, r, "time_ns");
  const bool given = !std::holds_alternative<std::monostate>(Cell(t, r, "host_wait_ns"));
  // An OSRT_API table with no rows (a100_mpi_cuda_saxpy_rank0) does not show that OS calls were traced.
  const bool expected = HasTable(sql, "OSRT_API") && sql.Int("SELECT count(*) FROM OSRT_API") > 0 &&
                        20 * time >= IntCell(t, r, "span_ns");
  EXPECT_EQ(given, expected);
  if (!given) {
    EXPECT_TRUE(std::holds_alternative<std::monostate>(Cell(t, r, "host_compute_ns")));
    return 0;
  }
  const Intervals no_cuda = MinusOfBudget(gaps, calls);
  EXPECT_EQ(UnionLengthOf(no_cuda), time);
  const std::string p = std::to_string(pid);
  const Intervals waits =
      UnionOfBudget(sql.Intervals("SELECT start, end FROM OSRT_API WHERE ((globalTid >> 24) & 0xFFFFFF) = " + p +
                                  " AND (globalTid & 0xFFFFFF) IN (SELECT DISTINCT globalTid & 0xFFFFFF FROM "
                                  "CUPTI_ACTIVITY_KIND_RUNTIME WHERE ((globalTid >> 24) & 0xFFFFFF) = " +
                                  p + ")"));
  const int64_t wait = OverlapOfBudget(no_cuda, waits);
  EXPECT_EQ(IntCell(t, r, "host_wait_ns"), wait);
  EXPECT_EQ(IntCell(t, r, "host_compute_ns"), time - wait);
  return 1;
}

TEST(TimeBudget, SlicesAddUpToEverySpanAndMatchSqlOnEveryExport) {
  NSYS_REQUIRE_FIXTURES();
  int budgets = 0, hosts_checked = 0;
  for (const std::string& fixture : Exports()) {
    SCOPED_TRACE(fixture);
    auto result = RunSkill(fixture, "time_budget");
    ASSERT_TRUE(result.ok()) << result.error().message;
    const skills::Table& t = *result;
    FixtureSql sql(fixture);
    if (t.declined) {
      EXPECT_FALSE(HasTable(sql, "CUPTI_ACTIVITY_KIND_KERNEL") &&
                   sql.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start > 0") > 0);
      continue;
    }
    std::map<std::pair<int64_t, int64_t>, std::map<std::string, int64_t>> slices;  // (pid, device) -> slice -> ns
    std::map<std::pair<int64_t, int64_t>, int64_t> spans;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      const std::pair<int64_t, int64_t> key{IntCell(t, r, "pid"), IntCell(t, r, "device_id")};
      slices[key][StringCell(t, r, "slice")] += IntCell(t, r, "time_ns");
      spans[key] = IntCell(t, r, "span_ns");
      EXPECT_GT(IntCell(t, r, "time_ns"), 0);
    }
    for (const auto& [key, by_slice] : slices) {
      const auto [pid, device] = key;
      SCOPED_TRACE(::testing::Message() << "pid " << pid << " device " << device);
      ++budgets;
      int64_t sum = 0, kernel = 0, busy = 0, idle_in_cuda = 0;
      for (const auto& [slice, ns] : by_slice) {
        sum += ns;
        const bool is_idle = slice.rfind("idle_", 0) == 0;
        if (!is_idle) busy += ns;
        if (slice.rfind("copy_", 0) != 0 && slice != "memset" && !is_idle) kernel += ns;
        if (is_idle && slice != "idle_no_cuda") idle_in_cuda += ns;
      }
      EXPECT_EQ(sum, spans.at(key));  // to the nanosecond
      const Intervals kernels = OpsOf(sql, "CUPTI_ACTIVITY_KIND_KERNEL", pid, device);
      Intervals ops = kernels;
      for (const char* table : {"CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"}) {
        const Intervals more = OpsOf(sql, table, pid, device);
        ops.insert(ops.end(), more.begin(), more.end());
      }
      ASSERT_FALSE(ops.empty());
      int64_t first = INT64_MAX, last = INT64_MIN;
      for (const auto& [s, e] : ops) first = std::min(first, s), last = std::max(last, e);
      EXPECT_EQ(spans.at(key), last - first);
      EXPECT_EQ(kernel, UnionLengthOf(kernels));
      const Intervals busy_union = UnionOfBudget(ops);
      EXPECT_EQ(busy, UnionLengthOf(ops));
      // Idle gaps of the span, against the union of the process's CUDA calls.
      Intervals gaps;
      int64_t at = first;
      for (const auto& [s, e] : busy_union) {
        if (s > at) gaps.emplace_back(at, s);
        at = std::max(at, e);
      }
      Intervals calls;
      if (HasTable(sql, "CUPTI_ACTIVITY_KIND_RUNTIME")) {
        calls =
            UnionOfBudget(sql.Intervals("SELECT start, end FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE "
                                        "((globalTid >> 24) & 0xFFFFFF) = " +
                                        std::to_string(pid)));
      }
      EXPECT_EQ(idle_in_cuda, OverlapOfBudget(gaps, calls));
      hosts_checked += CheckHostWaits(t, sql, pid, device, gaps, calls);
    }
  }
  // a100_2proc_mpi (2), rtx2080ti_cufcm_cufft, rtx3090_jax_xla_small, rtx3090_pytorch_brainstorm_sample and
  // titanrtx_pytorch_dnn_colocation_b trace OS runtime calls and idle with no CUDA call for over 5% of a span.
  EXPECT_GE(hosts_checked, 5);  // the fixtures hold well over 20 (process, device) spans
}

// The shipped sample (h100_2gpu_1s): each GPU copies host-to-device for 95% of its span (25.5 GB at about 27.7
// GB/s), and its math is cuBLAS FP32 GEMMs on CUDA cores, as an expert reads it.
TEST(TimeBudget, TheSampleIsCopyBoundWithItsMathOnCudaCores) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "time_budget");
  ASSERT_FALSE(t.declined);
  FixtureSql sql(kH100);
  for (int64_t device : {0, 1}) {
    const int htod = BudgetRow(t, device, "copy_htod");
    ASSERT_GE(htod, 0);
    EXPECT_GT(DoubleCell(t, static_cast<size_t>(htod), "span_pct"), 94.0);
    EXPECT_EQ(IntCell(t, static_cast<size_t>(htod), "bytes"),
              sql.Int("SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1 AND start > 0 AND deviceId "
                      "= " +
                      std::to_string(device)));
    EXPECT_NEAR(DoubleCell(t, static_cast<size_t>(htod), "gb_per_s"), 27.7, 0.1);
    ASSERT_GE(BudgetRow(t, device, "cuda_core_math"), 0);
    EXPECT_EQ(BudgetRow(t, device, "tensor_core_math"), -1);
  }
  EXPECT_TRUE(Contains(JoinNotes(t), "the largest slice is copy_htod (95.0%)")) << JoinNotes(t);
}

// launch_sizes: each (process, device, kernel, configuration)'s blocks, threads, dimensions, registers, shared
// memory, calls and time against SQL, and the device's SM count from the export's GPU table.
TEST(LaunchSizes, ConfigurationsMatchSqlAndCarryTheSmCount) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "launch_sizes", {{"limit", Value(int64_t{0})}});
  ASSERT_FALSE(t.declined);
  FixtureSql sql("mfu_2gpu_before.sqlite");
  EXPECT_EQ(static_cast<int64_t>(t.rows.size()),
            sql.Int("SELECT count(*) FROM (SELECT DISTINCT (globalPid >> 24) & 0xFFFFFF, deviceId, demangledName, "
                    "gridX, gridY, gridZ, blockX, blockY, blockZ, registersPerThread, staticSharedMemory, "
                    "dynamicSharedMemory FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start > 0)"));
  int64_t calls = 0, time = 0;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    calls += IntCell(t, r, "calls");
    time += IntCell(t, r, "total_ns");
    if (r > 0) EXPECT_GE(IntCell(t, r - 1, "total_ns"), IntCell(t, r, "total_ns"));
  }
  EXPECT_EQ(calls, sql.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start > 0"));
  EXPECT_EQ(time, sql.Int("SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start > 0"));
  // The largest configuration, field by field.
  const std::string top =
      "SELECT k.gridX * k.gridY * k.gridZ, k.blockX * k.blockY * k.blockZ, count(*), sum(k.end - k.start) AS t, "
      "k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ, k.registersPerThread, k.staticSharedMemory, "
      "k.dynamicSharedMemory FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE k.start > 0 GROUP BY "
      "(k.globalPid >> 24) & 0xFFFFFF, k.deviceId, k.demangledName, 5, 6, 7, 8, 9, 10, 11, 12, 13 "
      "ORDER BY t DESC LIMIT 1";
  std::vector<int64_t> want;
  sql.Each(top, [&](sqlite3_stmt* st) {
    for (int c = 0; c < 13; ++c) want.push_back(sqlite3_column_int64(st, c));
  });
  ASSERT_EQ(want.size(), 13u);
  const char* columns[] = {"blocks",
                           "threads_per_block",
                           "calls",
                           "total_ns",
                           "grid_x",
                           "grid_y",
                           "grid_z",
                           "block_x",
                           "block_y",
                           "block_z",
                           "registers_per_thread",
                           "static_shared_bytes",
                           "dynamic_shared_bytes"};
  for (size_t c = 0; c < want.size(); ++c) EXPECT_EQ(IntCell(t, 0, columns[c]), want[c]) << columns[c];
  EXPECT_EQ(IntCell(t, 0, "threads"), want[0] * want[1]);
  // The real-world A100 export names its GPUs with their SM counts (108); its one kernel runs one block of 256.
  NSYS_RUN_SKILL(a100, "realworld/a100_perlmutter_uvm_vecadd.sqlite", "launch_sizes");
  ASSERT_EQ(a100.rows.size(), 1u);
  EXPECT_EQ(IntCell(a100, 0, "blocks"), 1);
  EXPECT_EQ(IntCell(a100, 0, "threads_per_block"), 256);
  EXPECT_EQ(IntCell(a100, 0, "sm_count"), 108);
  ASSERT_GE(ColumnIndex(a100, "device_name"), 0);
  const auto* gpu = std::get_if<std::string>(&a100.rows[0][static_cast<size_t>(ColumnIndex(a100, "device_name"))]);
  ASSERT_NE(gpu, nullptr);
  EXPECT_TRUE(Contains(*gpu, "A100")) << *gpu;
}

// launch_sizes' `family`: only the kernels the decoder classifies so. cuFFT's kernels of the cuFCM export are its
// regular_fft and vector_fft ones (SQL by their names); every kernel of the JAX export is XLA's.
TEST(LaunchSizes, AFamilyKeepsOnlyItsKernels) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(fft, "realworld/rtx2080ti_cufcm_cufft.sqlite", "launch_sizes",
                 {{"limit", Value(int64_t{0})}, {"family", Value(std::string("cufft"))}});
  FixtureSql sql("realworld/rtx2080ti_cufcm_cufft.sqlite");
  const std::string of_fft =
      "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName WHERE k.start > 0 AND "
      "(s.value LIKE 'void regular_fft<%' OR s.value LIKE 'void vector_fft%')";
  EXPECT_EQ(static_cast<int64_t>(fft.rows.size()),
            sql.Int("SELECT count(*) FROM (SELECT DISTINCT k.demangledName, k.gridX, k.gridY, k.gridZ, k.blockX, "
                    "k.blockY, k.blockZ, k.registersPerThread, k.staticSharedMemory, k.dynamicSharedMemory " +
                    of_fft + ")"));
  int64_t calls = 0;
  for (size_t r = 0; r < fft.rows.size(); ++r) calls += IntCell(fft, r, "calls");
  EXPECT_EQ(calls, sql.Int("SELECT count(*) " + of_fft));
  EXPECT_EQ(calls, 1800);  // 1200 regular_fft, 300 vector_fft_r2c, 300 vector_fft_c2r
  NSYS_RUN_SKILL(xla, "realworld/rtx3090_jax_xla_small.sqlite", "launch_sizes",
                 {{"limit", Value(int64_t{0})}, {"family", Value(std::string("XLA"))}});
  calls = 0;
  for (size_t r = 0; r < xla.rows.size(); ++r) calls += IntCell(xla, r, "calls");
  EXPECT_EQ(calls, FixtureSql("realworld/rtx3090_jax_xla_small.sqlite")
                       .Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start > 0"));
  NSYS_RUN_SKILL(none, "realworld/rtx3090_jax_xla_small.sqlite", "launch_sizes",
                 {{"family", Value(std::string("cuBLAS"))}});
  EXPECT_TRUE(none.rows.empty());
}

}  // namespace
}  // namespace nsys::testing
