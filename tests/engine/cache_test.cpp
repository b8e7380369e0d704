// The warm reopen snapshot: written after a full load, read back identical, ignored when stale or damaged.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <utime.h>

#include <fstream>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::ExpectSameModel;
using ::nsys::testing::Fixture;
using ::nsys::testing::OpenOrDie;
using ::nsys::testing::TempDir;
using ::nsys::testing::TestOptions;
namespace fs = std::filesystem;

std::vector<std::string> Snapshots(const std::string& dir) {
  std::vector<std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".snap") out.push_back(e.path().string());
  return out;
}

std::shared_ptr<Profile> LoadAll(const std::string& path, const OpenOptions& options) {
  auto p = OpenOrDie(path, options);
  if (p) {
    EXPECT_TRUE(p->Require(kAllTables).ok());
  }
  return p;
}

// A full load with the cache on, then the profile is closed (which writes the snapshot).
void Prime(const std::string& path, const std::string& cache) {
  auto p = LoadAll(path, TestOptions(cache));
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->info().from_cache);
  p.reset();
}

class CacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
    // A copy, so the test can change its mtime.
    fs::copy_file(Fixture("mfu_2gpu_before.sqlite"), copy_);
    reference_ = LoadAll(copy_, TestOptions());
  }
  TempDir dir_;
  std::string copy_ = dir_ / "run.sqlite";
  std::string cache_ = dir_ / "cache";
  std::shared_ptr<Profile> reference_;  // loaded from SQLite, no cache
};

TEST_F(CacheTest, WarmReopenGivesTheSameModel) {
  Prime(copy_, cache_);
  ASSERT_EQ(Snapshots(cache_).size(), 1u);
  auto warm = LoadAll(copy_, TestOptions(cache_));
  ASSERT_TRUE(warm);
  EXPECT_TRUE(warm->info().from_cache);
  EXPECT_EQ(warm->info().path, copy_);
  ExpectSameModel(*warm, *reference_);
  // Query still goes to the export.
  auto q = warm->Query("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(std::get<int64_t>(q->rows[0][0]), 4010);
  // Nothing else appeared in the cache, and nothing next to the export.
  EXPECT_EQ(Snapshots(cache_).size(), 1u);
}

TEST_F(CacheTest, NoCacheWritesNothing) {
  auto p = LoadAll(copy_, TestOptions());
  p.reset();
  EXPECT_FALSE(fs::exists(cache_));
}

TEST_F(CacheTest, ChangedFileInvalidatesTheSnapshot) {
  Prime(copy_, cache_);
  struct utimbuf times {
    1000000000, 1000000000
  };  // a new mtime: the identity no longer matches
  ASSERT_EQ(utime(copy_.c_str(), &times), 0);
  auto p = LoadAll(copy_, TestOptions(cache_));
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->info().from_cache);
  ExpectSameModel(*p, *reference_);
}

TEST_F(CacheTest, OtherFormatVersionIsIgnored) {
  Prime(copy_, cache_);
  const std::string snap = Snapshots(cache_).at(0);
  std::fstream f(snap, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(8);  // the format version follows the 8-byte magic
  const uint32_t other = 999;
  f.write(reinterpret_cast<const char*>(&other), sizeof other);
  f.close();
  auto p = LoadAll(copy_, TestOptions(cache_));
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->info().from_cache);
  ExpectSameModel(*p, *reference_);
}

TEST_F(CacheTest, TruncatedSnapshotIsIgnoredAndRewritten) {
  Prime(copy_, cache_);
  const std::string snap = Snapshots(cache_).at(0);
  const auto size = fs::file_size(snap);
  fs::resize_file(snap, size / 2);
  {
    auto p = LoadAll(copy_, TestOptions(cache_));
    ASSERT_TRUE(p);
    EXPECT_FALSE(p->info().from_cache);
    ExpectSameModel(*p, *reference_);
  }
  EXPECT_EQ(fs::file_size(snap), size);  // the full load wrote a good one again
  auto warm = LoadAll(copy_, TestOptions(cache_));
  EXPECT_TRUE(warm->info().from_cache);
}

TEST_F(CacheTest, CorruptSectionFallsBackToSqlite) {
  Prime(copy_, cache_);
  const std::string snap = Snapshots(cache_).at(0);
  const auto size = fs::file_size(snap);
  // Flip bytes in the table sections (the info and strings come first and are small).
  std::fstream f(snap, std::ios::in | std::ios::out | std::ios::binary);
  for (uint64_t at = size / 3; at < size; at += size / 7) {
    f.seekg(static_cast<std::streamoff>(at));
    char c = 0;
    f.read(&c, 1);
    c = static_cast<char>(~c);
    f.seekp(static_cast<std::streamoff>(at));
    f.write(&c, 1);
  }
  f.close();
  auto p = LoadAll(copy_, TestOptions(cache_));
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->info().from_cache);  // the header and info were fine
  ExpectSameModel(*p, *reference_);   // the damaged tables came from SQLite
}

TEST_F(CacheTest, GarbageSnapshotIsIgnored) {
  Prime(copy_, cache_);
  const std::string snap = Snapshots(cache_).at(0);
  testing::WriteFile(snap, std::string(100000, 'x'));
  auto p = LoadAll(copy_, TestOptions(cache_));
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->info().from_cache);
  ExpectSameModel(*p, *reference_);
}

TEST_F(CacheTest, DefaultDirIsXdgCacheHome) {
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old ? old : "";
  setenv("XDG_CACHE_HOME", (dir_ / "xdg").c_str(), 1);
  OpenOptions options = TestOptions();
  options.use_cache = true;
  LoadAll(copy_, options).reset();
  EXPECT_EQ(Snapshots(dir_ / "xdg/nsys-ai").size(), 1u);
  if (old) {
    setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  } else {
    unsetenv("XDG_CACHE_HOME");
  }
}

// Closing a profile whose background loads are still running stops them and leaves no partial snapshot:
// either none, or a complete one that reopens to the same model.
TEST_F(CacheTest, ClosingDuringBackgroundLoadLeavesNoPartialSnapshot) {
  OpenOptions options = TestOptions(cache_);
  options.load_all_in_background = true;
  {
    auto p = OpenOrDie(copy_, options);
    ASSERT_TRUE(p);
    ASSERT_TRUE(p->Require(Need::kKernels).ok());
  }
  const auto snaps = Snapshots(cache_);
  ASSERT_LE(snaps.size(), 1u);
  if (fs::exists(cache_)) {
    for (const auto& e : fs::directory_iterator(cache_)) {
      EXPECT_EQ(e.path().extension(), ".snap") << "left behind: " << e.path();
    }
  }
  auto again = LoadAll(copy_, TestOptions(cache_));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->info().from_cache, snaps.size() == 1);
  ExpectSameModel(*again, *reference_);
}

}  // namespace
}  // namespace nsys::engine
