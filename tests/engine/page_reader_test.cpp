// The page reader against SQLite itself: the same model from both readers on every fixture, overflow pages,
// and damaged pages handed back to SQLite, which reports them.
#include "../../server/engine/src/page_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::ExpectSameModel;
using ::nsys::testing::Fixture;
using ::nsys::testing::OpenOrDie;
using ::nsys::testing::Sql;
using ::nsys::testing::TempDir;
using ::nsys::testing::TestOptions;
using ::testing::HasSubstr;

// Opens with the page reader off (every row through sqlite3_step).
std::shared_ptr<Profile> OpenSqliteOnly(const std::string& path) {
  setenv("NSYS_ENGINE_NO_PAGE_READER", "1", 1);
  auto p = OpenOrDie(path, TestOptions());
  unsetenv("NSYS_ENGINE_NO_PAGE_READER");
  return p;
}

TEST(PageReader, SameModelAsSqliteOnEveryFixture) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* name :
       {"h100_2gpu_1s.sqlite", "mfu_2gpu_before.sqlite", "mfu_2gpu_after.sqlite", "mock.sqlite",
        "a100_2proc_mpi.sqlite", "titanrtx_tensorrt_nvtx.sqlite", "h200_nvfuser_nvtx.sqlite", "v100_julia.sqlite"}) {
    SCOPED_TRACE(name);
    auto direct = OpenOrDie(Fixture(name), TestOptions());
    auto sqlite = OpenSqliteOnly(Fixture(name));
    ASSERT_TRUE(direct && sqlite);
    ASSERT_TRUE(direct->Require(kAllTables).ok());
    ASSERT_TRUE(sqlite->Require(kAllTables).ok());
    ExpectSameModel(*direct, *sqlite);
    EXPECT_EQ(direct->info().devices.size(), sqlite->info().devices.size());
  }
}

void Exec(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "") << " in " << sql;
}

// NVTX texts longer than a page live partly in overflow pages; names that long must come back whole.
TEST(PageReader, OverflowPages) {
  TempDir dir;
  const std::string path = dir / "long.sqlite";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  Exec(db, "PRAGMA page_size = 1024");
  Exec(db, "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)");
  Exec(db,
       "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, "
       "rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, "
       "textId INTEGER, domainId INTEGER)");
  std::vector<std::string> texts;
  Exec(db, "BEGIN");
  for (int i = 0; i < 300; ++i) {
    // Lengths from a few bytes to ~9 pages, with the op_id suffix on some.
    std::string t(static_cast<size_t>((i * 37) % 9000 + 1), static_cast<char>('a' + i % 26));
    if (i % 3 == 0) t += ", op_id = " + std::to_string(i);
    texts.push_back(t);
    Exec(db, "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES (" + std::to_string(1000 + i) +
                 ", " + std::to_string(2000 + i) + ", 59, '" + t + "', " + std::to_string((7LL << 24) | (i % 4)) + ")");
  }
  Exec(db, "COMMIT");
  sqlite3_close(db);
  auto p = OpenOrDie(path, TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kNvtx).ok());
  ASSERT_EQ(p->nvtx().size(), texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(p->NvtxFullName(static_cast<int32_t>(i)), texts[i]) << i;
    EXPECT_EQ(p->nvtx().tid[i], i % 4);
    EXPECT_EQ(p->nvtx().pid[i], 7u);
  }
  auto sqlite = OpenSqliteOnly(path);
  ASSERT_TRUE(sqlite->Require(Need::kNvtx).ok());
  ExpectSameModel(*p, *sqlite);
}

// Issue 38, item 4: an overflow chain that loops (a page whose next page is an earlier one of its chain) made the
// reader re-read one page until the cell held its declared size (1 GiB in the red team's 344 KB export). A chain
// that meets a page twice is damage: SQLite reads those rows instead.
TEST(PageReader, AnOverflowChainThatLoopsIsDeclined) {
  TempDir dir;
  const std::string path = dir / "loop.sqlite";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  Exec(db, "PRAGMA page_size = 1024");
  Exec(db, "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)");
  Exec(db, "INSERT INTO StringIds VALUES (1, printf('%.*c', 5000, 'x'))");  // 1 local part, then 5 overflow pages
  sqlite3_close(db);
  const int64_t root = Sql(path).Int("SELECT rootpage FROM sqlite_master WHERE name = 'StringIds'");
  std::string bytes = testing::ReadFile(path);
  const auto be32 = [&bytes](size_t at) {
    return (uint32_t{static_cast<uint8_t>(bytes[at])} << 24) | (uint32_t{static_cast<uint8_t>(bytes[at + 1])} << 16) |
           (uint32_t{static_cast<uint8_t>(bytes[at + 2])} << 8) | uint32_t{static_cast<uint8_t>(bytes[at + 3])};
  };
  // The leaf's one cell: the payload's size (a 2-byte varint: the record's header and 5,000 bytes of text), the rowid
  // (1 byte), the local part, then the first overflow page. Usable size 1024: max local 989, min local 103, local
  // = 103 + (payload - 103) % 1020 when that is at most 989, else 103 (https://www.sqlite.org/fileformat2.html).
  const size_t page = static_cast<size_t>(root - 1) * 1024;
  ASSERT_EQ(static_cast<uint8_t>(bytes[page]), 0x0d) << "a table leaf";
  const size_t cell = page + ((static_cast<uint8_t>(bytes[page + 8]) << 8) | static_cast<uint8_t>(bytes[page + 9]));
  const auto b0 = static_cast<uint8_t>(bytes[cell]), b1 = static_cast<uint8_t>(bytes[cell + 1]);
  ASSERT_TRUE((b0 & 0x80) && !(b1 & 0x80)) << "a 2-byte payload size";
  const size_t payload = (size_t{b0 & 0x7fu} << 7) | b1;
  ASSERT_GT(payload, 5000u);
  const size_t k = 103 + (payload - 103) % 1020;
  const size_t local = k <= 989 ? k : 103;
  const uint32_t pages = static_cast<uint32_t>(bytes.size() / 1024);
  const uint32_t first = be32(cell + 3 + local);
  ASSERT_TRUE(first >= 2 && first <= pages) << first;
  const uint32_t second = be32(static_cast<size_t>(first - 1) * 1024);
  ASSERT_TRUE(second >= 2 && second <= pages) << second;
  std::vector<std::string> values;
  auto keep = [&values](const RecordRow& row) { values.emplace_back(row.Text(1)); };
  {
    auto file = ExportFile::Map(path);
    ASSERT_TRUE(file);
    ASSERT_EQ(file->Scan(static_cast<uint32_t>(root), 1, 1, {1}, nullptr, keep), ExportFile::ScanResult::kOk);
    ASSERT_EQ(values, std::vector<std::string>{std::string(5000, 'x')});
  }
  // The second overflow page's next page becomes the first: first -> second -> first -> ...
  const size_t link = static_cast<size_t>(second - 1) * 1024;
  bytes[link] = static_cast<char>(first >> 24);
  bytes[link + 1] = static_cast<char>(first >> 16);
  bytes[link + 2] = static_cast<char>(first >> 8);
  bytes[link + 3] = static_cast<char>(first);
  testing::WriteFile(path, bytes);
  values.clear();
  auto file = ExportFile::Map(path);
  ASSERT_TRUE(file);
  EXPECT_EQ(file->Scan(static_cast<uint32_t>(root), 1, 1, {1}, nullptr, keep), ExportFile::ScanResult::kUnsupported);
  EXPECT_TRUE(values.empty());
}

// Every integer width a record can hold (1, 2, 3, 4, 6 and 8 bytes, either sign, and the constants 0 and 1), NULL,
// REAL and TEXT, and records written before a column was added (shorter than the schema: that column is NULL):
// the page reader returns what SQLite returns, value by value.
TEST(PageReader, EveryRecordTypeDecodesAsSqliteReadsIt) {
  TempDir dir;
  const std::string path = dir / "types.sqlite";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  Exec(db, "CREATE TABLE t (v INTEGER, w)");
  const std::vector<std::string> values = {"0",
                                           "1",
                                           "-1",
                                           "127",
                                           "-128",
                                           "300",
                                           "-32768",
                                           "70000",
                                           "-8388608",
                                           "2147483647",
                                           "-2147483648",
                                           "1099511627776",
                                           "-140737488355328",
                                           "9223372036854775807",
                                           "-9223372036854775808",
                                           "NULL"};
  Exec(db, "BEGIN");
  for (size_t i = 0; i < values.size(); ++i)
    Exec(db, "INSERT INTO t (v, w) VALUES (" + values[i] + ", " + values[values.size() - 1 - i] + ")");
  Exec(db, "INSERT INTO t (v, w) VALUES (42, 2.5), (43, 'text')");
  Exec(db, "COMMIT");
  Exec(db, "ALTER TABLE t ADD COLUMN x INTEGER");  // the records above stay two columns long
  Exec(db, "INSERT INTO t (v, w, x) VALUES (44, -5, 65536), (45, NULL, -70000)");
  // Read first, a full record just before a short one: the short one's x must not keep this 123.
  Exec(db, "INSERT INTO t (rowid, v, w, x) VALUES (0, 46, 7, 123)");
  sqlite3_close(db);

  const int64_t root = Sql(path).Int("SELECT rootpage FROM sqlite_master WHERE name = 't'");
  const int64_t rows = Sql(path).Int("SELECT count(*) FROM t");
  struct Got {
    int64_t rowid;
    RecordRow::Field::Type type[3];
    int64_t i[3];
    double d[3];
    std::string s[3];
  };
  std::vector<Got> got;
  auto file = ExportFile::Map(path);
  ASSERT_TRUE(file);
  ASSERT_EQ(file->Scan(static_cast<uint32_t>(root), 0, rows, {0, 1, 2}, nullptr,
                       [&got](const RecordRow& r) {
                         Got g{r.Int(0), {}, {}, {}, {}};
                         for (int c = 0; c < 3; ++c) {
                           const RecordRow::Field& f = r.fields[static_cast<size_t>(c + 1)];
                           g.type[c] = f.type, g.i[c] = f.i, g.d[c] = f.d, g.s[c] = std::string(r.Text(c + 1));
                         }
                         got.push_back(g);
                       }),
            ExportFile::ScanResult::kOk);
  ASSERT_EQ(static_cast<int64_t>(got.size()), rows);
  ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT rowid, v, w, x FROM t ORDER BY rowid", -1, &st, nullptr), SQLITE_OK);
  size_t n = 0;
  int nulls = 0, ints = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    ASSERT_LT(n, got.size());
    const Got& g = got[n++];
    EXPECT_EQ(g.rowid, sqlite3_column_int64(st, 0));
    for (int c = 0; c < 3; ++c) {
      SCOPED_TRACE(::testing::Message() << "rowid " << g.rowid << " column " << c);
      switch (sqlite3_column_type(st, c + 1)) {
        case SQLITE_NULL:
          EXPECT_EQ(g.type[c], RecordRow::Field::kNull);
          ++nulls;
          break;
        case SQLITE_INTEGER:
          EXPECT_EQ(g.type[c], RecordRow::Field::kInt);
          EXPECT_EQ(g.i[c], sqlite3_column_int64(st, c + 1));
          ++ints;
          break;
        case SQLITE_FLOAT:
          EXPECT_EQ(g.type[c], RecordRow::Field::kReal);
          EXPECT_EQ(g.d[c], sqlite3_column_double(st, c + 1));
          break;
        default:
          EXPECT_EQ(g.type[c], RecordRow::Field::kText);
          EXPECT_EQ(g.s[c], reinterpret_cast<const char*>(sqlite3_column_text(st, c + 1)));
      }
    }
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  EXPECT_EQ(n, got.size());
  EXPECT_EQ(ints, 20 + 17 + 3);      // v: the 15 integers, 42 to 46; w: the 15, -5 and 7; x: three
  EXPECT_EQ(nulls, 1 + 1 + 18 + 1);  // v's NULL, w's NULL, x in the 18 short records, w of rowid 20
  EXPECT_EQ(got[0].i[2], 123);
  EXPECT_EQ(got[1].type[2], RecordRow::Field::kNull);
  EXPECT_EQ(got[13].i[0], -140737488355328LL);  // 6 bytes
  EXPECT_EQ(got[14].i[0], 9223372036854775807LL);
  EXPECT_EQ(got[15].i[0], -140737488355328LL * 65536);  // INT64_MIN
  EXPECT_EQ(got[20].i[2], -70000);
}

// A table with a column DEFAULT (records may be shorter than the schema) is read through SQLite.
TEST(PageReader, DefaultsGoThroughSqlite) {
  TempDir dir;
  const std::string path = dir / "defaults.sqlite";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  Exec(db, "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)");
  Exec(db, "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel')");
  Exec(db, "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER)");
  Exec(db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (10, 20), (30, 40)");
  // Columns added later: old records do not have them, and SQLite supplies the default.
  Exec(db, "ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME ADD COLUMN nameId INTEGER DEFAULT 1");
  Exec(db, "ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME ADD COLUMN globalTid INTEGER DEFAULT 117440517");
  sqlite3_close(db);
  auto p = OpenOrDie(path, TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kRuntime).ok());
  ASSERT_EQ(p->runtime().size(), 2u);
  EXPECT_EQ(p->strings().view(p->runtime().name[1]), "cudaLaunchKernel");
  EXPECT_EQ(p->runtime().pid[0], 7u);
  EXPECT_EQ(p->runtime().tid[0], 5u);
}

// A damaged B-tree page: the page reader declines it (SQLite then reads the part and reports the damage),
// and no bad offset in a page makes it read outside the file.
TEST(PageReader, DamagedPagesAreDeclined) {
  NSYS_REQUIRE_FIXTURES();
  TempDir dir;
  const std::string path = dir / "damaged.sqlite";
  std::filesystem::copy_file(Fixture("h100_2gpu_1s.sqlite"), path);
  const int64_t root = Sql(path).Int("SELECT rootpage FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL'");
  const int start = 0, device = 2;  // record positions
  int64_t rows = 0;
  auto count = [&rows](const RecordRow&) { ++rows; };
  {
    auto file = ExportFile::Map(path);
    ASSERT_TRUE(file);
    EXPECT_EQ(file->Scan(static_cast<uint32_t>(root), 1, 3442, {start, device}, nullptr, count),
              ExportFile::ScanResult::kOk);
    EXPECT_EQ(rows, 3442);
    rows = 0;
    EXPECT_EQ(file->Scan(static_cast<uint32_t>(root), 100, 199, {start}, nullptr, count), ExportFile::ScanResult::kOk);
    EXPECT_EQ(rows, 100);
    EXPECT_EQ(file->Scan(999999, 1, 10, {start}, nullptr, count), ExportFile::ScanResult::kUnsupported);
  }
  // Scribble over the root page's cell pointers and type, one way after another.
  const std::string original = testing::ReadFile(path);
  for (int damage = 0; damage < 3; ++damage) {
    std::string bytes = original;
    const size_t page = static_cast<size_t>(root - 1) * 4096;
    if (damage == 0) bytes[page] = 0x0a;                              // claims to be an index page
    if (damage == 1) bytes.replace(page + 12, 8, 8, '\xff');          // cell pointers past the page
    if (damage == 2) bytes.replace(page + 8, 4, "\x7f\xff\xff\xff");  // right child far beyond the file
    testing::WriteFile(path, bytes);
    auto file = ExportFile::Map(path);
    ASSERT_TRUE(file);
    EXPECT_EQ(file->Scan(static_cast<uint32_t>(root), 1, 3442, {start}, nullptr, count),
              ExportFile::ScanResult::kUnsupported)
        << "damage " << damage;
    // Through the engine, the damage is a clear error (at open, where the schema probe meets it, or at load).
    auto p = Profile::Open(path, TestOptions());
    Error e;
    if (p.ok()) {
      Status s = (*p)->Require(Need::kKernels);
      ASSERT_FALSE(s.ok());
      e = s.error();
    } else {
      e = p.error();
    }
    EXPECT_EQ(e.kind, ErrorKind::kBadInput);
    EXPECT_THAT(e.message, HasSubstr("damaged"));
  }
}

}  // namespace
}  // namespace nsys::engine
