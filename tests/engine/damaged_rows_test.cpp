// Rows that cannot be right (NULL or text times, negative or int64-overflowing spans, rows on damaged pages) are
// skipped and counted, never read as 0; a NULL string id is an empty name, not string 0. Each test damages a copy of a
// small fixture (never the fixture) and asserts exact counts, with both readers.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <utility>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::AllowNulls;
using ::nsys::testing::Exec;
using ::nsys::testing::Fixture;
using ::nsys::testing::OpenOrDie;
using ::nsys::testing::Sql;
using ::nsys::testing::TempDir;
using ::nsys::testing::TestOptions;
namespace fs = std::filesystem;

constexpr const char* kKernels = "CUPTI_ACTIVITY_KIND_KERNEL";

// Runs the body once with the page reader and once with SQLite reading every row.
class BothReaders : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
    if (GetParam()) setenv("NSYS_ENGINE_NO_PAGE_READER", "1", 1);
    fs::copy_file(Fixture("h100_2gpu_1s.sqlite"), copy_);
    AllowNulls(copy_);
  }
  void TearDown() override { unsetenv("NSYS_ENGINE_NO_PAGE_READER"); }
  TempDir dir_;
  std::string copy_ = dir_ / "damaged.sqlite";
};

TEST_P(BothReaders, BadTimesAreSkippedAndCountedNotReadAsZero) {
  const auto reference = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), TestOptions());
  ASSERT_TRUE(reference);
  // rowids 1-3 NULL start, 4-5 text start, 6 end before start, 7 a time beyond 2^62, 8 a NULL end.
  Exec(copy_,
       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = NULL WHERE rowid IN (1, 2, 3);"
       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'abc' WHERE rowid IN (4, 5);"
       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET \"end\" = start - 1 WHERE rowid = 6;"
       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = -4611686018427387904, \"end\" = 9223372036854775807 "
       "WHERE rowid = 7;"
       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET \"end\" = NULL WHERE rowid = 8;");
  auto p = OpenOrDie(copy_, TestOptions());
  ASSERT_TRUE(p);
  // The profile's range ignores the rows the loaders skip: no start of 0, no end of INT64_MAX.
  EXPECT_EQ(p->info().start_ns, reference->info().start_ns);
  EXPECT_EQ(p->info().end_ns, reference->info().end_ns);
  ASSERT_TRUE(p->Require(Need::kKernels).ok());
  EXPECT_EQ(p->kernels().size(), 3442u - 8u);
  for (size_t i = 0; i < p->kernels().size(); ++i) {
    ASSERT_GT(p->kernels().start[i], 0);
    ASSERT_GE(p->kernels().end[i], p->kernels().start[i]);
  }
  const auto damage = p->info().row_checks->Of(kKernels);
  ASSERT_TRUE(damage.has_value());
  EXPECT_EQ(damage->bad_time, 6);  // 3 NULL starts, 2 text starts, 1 NULL end
  EXPECT_EQ(damage->bad_span, 2);  // end before start; a span from -2^62 to INT64_MAX
  EXPECT_EQ(damage->unreadable, 0);
  EXPECT_EQ(damage->skipped(), 8);
  EXPECT_EQ(damage->Describe(),
            "8 rows skipped (6 with a NULL or non-integer start or end, 2 with an end before the start or a time "
            "beyond +-2^62 ns)");
  const auto notes = DamageNotes(p->info(), Need::kKernels);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("CUPTI_ACTIVITY_KIND_KERNEL: 8 rows skipped"), std::string::npos) << notes[0];
  EXPECT_TRUE(DamageNotes(p->info(), Need::kMemcpy).empty());
}

// The launch configurations are read after the rows, in a stage of their own (a kernel summary reads none of them):
// each kept row still gets its own, with rows skipped before it, and with rowids so sparse that the table is read
// in one part in rowid order (then only SQLite reads it).
TEST_P(BothReaders, LaunchConfigurationsReadAfterTheRowsAreEachRowsOwn) {
  const std::string sparse = dir_ / "sparse.sqlite";
  Exec(copy_, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = NULL WHERE rowid IN (1, 2, 500);");
  fs::copy_file(copy_, sparse);
  Exec(sparse, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET rowid = 1000000000000 WHERE rowid = 9;");
  for (const std::string& path : {copy_, sparse}) {
    SCOPED_TRACE(path);
    auto p = OpenOrDie(path, TestOptions());
    ASSERT_TRUE(p);
    ASSERT_TRUE(p->Require(Need::kKernelRows).ok());
    ASSERT_TRUE(p->Require(Need::kKernelConfig).ok());
    const KernelTable& k = p->kernels();
    ASSERT_EQ(k.size(), 3442u - 3u);
    size_t row = 0;
    std::set<int32_t> grids;
    Sql(path).Each(
        "SELECT start, \"end\", contextId, gridX, gridY, gridZ, blockX, blockY, blockZ, registersPerThread, "
        "staticSharedMemory, dynamicSharedMemory, m.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
        "LEFT JOIN StringIds m ON m.id = k.mangledName WHERE start IS NOT NULL ORDER BY start, \"end\", k.rowid",
        [&](sqlite3_stmt* s) {
          ASSERT_LT(row, k.size());
          ASSERT_EQ(k.start[row], sqlite3_column_int64(s, 0));
          ASSERT_EQ(k.end[row], sqlite3_column_int64(s, 1));
          const KernelConfig& c = k.Config(row);
          const int32_t want[] = {c.context,
                                  c.grid_x,
                                  c.grid_y,
                                  c.grid_z,
                                  c.block_x,
                                  c.block_y,
                                  c.block_z,
                                  c.registers_per_thread,
                                  c.static_shared_memory,
                                  c.dynamic_shared_memory};
          for (int col = 2; col <= 11; ++col) ASSERT_EQ(want[col - 2], sqlite3_column_int(s, col)) << "column " << col;
          const auto* mangled = reinterpret_cast<const char*>(sqlite3_column_text(s, 12));
          ASSERT_EQ(p->strings().view(c.mangled_name), mangled ? mangled : "");
          grids.insert(c.grid_x);
          ++row;
        });
    EXPECT_EQ(row, k.size());
    EXPECT_GT(grids.size(), 1u);  // the fixture has more than one grid: a constant could not pass
  }
}

TEST_P(BothReaders, NullStringIdIsAnEmptyNameNotStringZero) {
  Exec(copy_, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = NULL WHERE rowid = 1;");
  const std::string zero =
      Sql(Fixture("h100_2gpu_1s.sqlite")).Int("SELECT count(*) FROM StringIds WHERE id = 0") ? "GpuMetrics" : "";
  auto p = OpenOrDie(copy_, TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kKernelRows).ok());
  EXPECT_EQ(p->kernels().size(), 3442u);
  int64_t empty = 0, zero_named = 0;
  for (StrId id : p->kernels().name) {
    empty += p->strings().view(id).empty();
    zero_named += !zero.empty() && p->strings().view(id) == zero;
  }
  EXPECT_EQ(empty, 1);
  EXPECT_EQ(zero_named, 0);
  const auto damage = p->info().row_checks->Of(kKernels);
  ASSERT_TRUE(damage.has_value());
  EXPECT_EQ(damage->unnamed, 1);
  EXPECT_EQ(damage->skipped(), 0);
}

TEST_P(BothReaders, NvtxAndRuntimeRowsFollowTheSameRule) {
  Exec(copy_,
       "UPDATE NVTX_EVENTS SET start = NULL WHERE rowid IN (SELECT rowid FROM NVTX_EVENTS WHERE eventType = 59 "
       "ORDER BY rowid LIMIT 4);"
       "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET \"end\" = start - 10 WHERE rowid IN (10, 11);");
  const Sql sql(copy_);
  const int64_t ranges = sql.Int("SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60) AND start NOT NULL");
  const int64_t calls = sql.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE \"end\" >= start");
  auto p = OpenOrDie(copy_, TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kNvtx | Need::kRuntime).ok());
  EXPECT_EQ(static_cast<int64_t>(p->nvtx().size()), ranges);
  EXPECT_EQ(static_cast<int64_t>(p->runtime().size()), calls);
  EXPECT_EQ(p->info().row_checks->Of("NVTX_EVENTS")->bad_time, 4);
  EXPECT_EQ(p->info().row_checks->Of("CUPTI_ACTIVITY_KIND_RUNTIME")->bad_span, 2);
}

// A SQLite varint at `p`: its value and length.
std::pair<uint64_t, size_t> Varint(const std::string& bytes, size_t p) {
  uint64_t v = 0;
  for (size_t i = 0; i < 9; ++i) {
    const auto b = static_cast<uint8_t>(bytes[p + i]);
    if (i == 8) return {(v << 8) | b, 9};
    v = (v << 7) | (b & 0x7f);
    if (!(b & 0x80)) return {v, i + 1};
  }
  return {v, 9};
}

// The byte offset of cell `cell` of page `page` (1-based) of the kernel table B-tree.
size_t CellOffset(const std::string& bytes, int64_t page_size, int64_t page, int cell, bool interior) {
  const size_t base = static_cast<size_t>((page - 1) * page_size);
  const size_t pointers = base + (interior ? 12 : 8) + 2 * static_cast<size_t>(cell);
  return base + ((static_cast<uint8_t>(bytes[pointers]) << 8) | static_cast<uint8_t>(bytes[pointers + 1]));
}

int64_t KernelPage(const std::string& path, const char* type, int index) {
  return Sql(path).Int(std::string("SELECT pageno FROM dbstat WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL' AND ") +
                       "pagetype = '" + type + "' ORDER BY pageno LIMIT 1 OFFSET " + std::to_string(index));
}

// A leaf cell's rowid bumped to its neighbour's: SQLite's own reading returns that rowid twice and the other never.
// The page reader's part is incomplete, so SQLite reads it, and the rowid no reader returned is counted as lost.
TEST_P(BothReaders, RepeatedRowidOnADamagedPageIsCountedAsLost) {
  std::string bytes = testing::ReadFile(copy_);
  const int64_t page_size = Sql(copy_).Int("PRAGMA page_size");
  const size_t cell = CellOffset(bytes, page_size, KernelPage(copy_, "leaf", 10), 1, false);
  const auto [payload, payload_len] = Varint(bytes, cell);
  const auto [rowid, rowid_len] = Varint(bytes, cell + payload_len);
  ASSERT_EQ(rowid_len, 2u);
  const size_t low = cell + payload_len + 1;
  ASSERT_LT(static_cast<uint8_t>(bytes[low]), 0x7f);
  bytes[low] = static_cast<char>(bytes[low] + 1);  // rowid + 1: the next cell's rowid
  testing::WriteFile(copy_, bytes);
  ASSERT_EQ(Sql(copy_).Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 3442);

  auto p = OpenOrDie(copy_, TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kKernelRows).ok());
  const auto damage = p->info().row_checks->Of(kKernels);
  ASSERT_TRUE(damage.has_value());
  EXPECT_EQ(damage->unreadable, 1) << "rowid " << rowid << " is missing from SQLite's reading too";
  EXPECT_EQ(static_cast<int64_t>(p->kernels().size()) + damage->unreadable, 3442);
}

// An interior page's divider key made too big: the page reader would stop early and miss rows silently (SQLite
// walks every leaf and reads all 3442). Now the missed rowids send the part to SQLite: every row, none lost.
TEST_P(BothReaders, DamagedInteriorKeyStillGivesSqlitesCount) {
  std::string bytes = testing::ReadFile(copy_);
  const int64_t page_size = Sql(copy_).Int("PRAGMA page_size");
  const size_t cell = CellOffset(bytes, page_size, KernelPage(copy_, "internal", 0), 5, true);
  const auto [key, key_len] = Varint(bytes, cell + 4);
  ASSERT_EQ(key_len, 2u);
  bytes[cell + 4] = static_cast<char>(0xff);  // same length, a key of about 16k: above every rowid
  testing::WriteFile(copy_, bytes);
  const int64_t sqlite_rows =
      Sql(copy_).Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid BETWEEN 1 AND 3442");
  ASSERT_EQ(sqlite_rows, 3442);

  auto p = OpenOrDie(copy_, TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kKernelRows).ok());
  EXPECT_EQ(static_cast<int64_t>(p->kernels().size()), sqlite_rows);
  EXPECT_EQ(p->info().row_checks->Of(kKernels)->unreadable, 0);
}

INSTANTIATE_TEST_SUITE_P(Readers, BothReaders, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "SqliteOnly" : "PageReader"; });

TEST(RowChecks, CompleteOnceEveryTableLoadedAndCarriedByTheSnapshot) {
  if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  TempDir dir;
  const std::string copy = dir / "damaged.sqlite", cache = dir / "cache";
  fs::copy_file(Fixture("h100_2gpu_1s.sqlite"), copy);
  AllowNulls(copy);
  Exec(copy, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = NULL WHERE rowid IN (1, 2, 3);");
  {
    auto p = OpenOrDie(copy, TestOptions(cache));
    ASSERT_TRUE(p);
    EXPECT_FALSE(p->info().row_checks->Get().complete);
    ASSERT_TRUE(p->Require(kAllTables).ok());
    const auto report = p->info().row_checks->Get();
    EXPECT_TRUE(report.complete);
    ASSERT_EQ(report.tables.size(), 1u);
    EXPECT_EQ(report.tables[0].table, kKernels);
    EXPECT_EQ(report.tables[0].bad_time, 3);
  }
  auto warm = OpenOrDie(copy, TestOptions(cache));
  ASSERT_TRUE(warm);
  EXPECT_TRUE(warm->info().from_cache);
  const auto report = warm->info().row_checks->Get();
  EXPECT_TRUE(report.complete);  // known at open, before any table is required
  ASSERT_EQ(report.tables.size(), 1u);
  EXPECT_EQ(report.tables[0].bad_time, 3);
}

}  // namespace
}  // namespace nsys::engine
