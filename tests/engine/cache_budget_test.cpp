// The snapshot cache stays within its budget: least recently used snapshots go first, the one just written and
// every file that is not a snapshot stay, and a warm reopen counts as a use.
#include "../../server/engine/src/cache_budget.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::Fixture;
using ::nsys::testing::OpenOrDie;
using ::nsys::testing::TempDir;
using ::nsys::testing::TestOptions;
namespace fs = std::filesystem;

void WriteFile(const std::string& path, size_t bytes, int age_seconds) {
  std::ofstream(path, std::ios::binary) << std::string(bytes, 'x');
  fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::seconds(age_seconds));
}

TEST(CacheBudget, DeletesLeastRecentlyUsedSnapshotsFirst) {
  TempDir dir;
  WriteFile(dir / "oldest.snap", 100, 300);
  WriteFile(dir / "older.snap", 100, 200);
  WriteFile(dir / "new.snap", 100, 100);
  WriteFile(dir / "just_written.snap", 100, 400);   // oldest mtime, but it is the one to keep
  WriteFile(dir / "converted.sqlite", 1000, 1000);  // not a snapshot: never pruned
  WriteFile(dir / "x.snap.tmp", 1000, 1000);        // a snapshot being written by another process

  EXPECT_TRUE(PruneSnapshots(dir.path(), 400, dir / "just_written.snap").empty()) << "within budget";
  const auto deleted = PruneSnapshots(dir.path(), 250, dir / "just_written.snap");
  ASSERT_EQ(deleted.size(), 2u);
  EXPECT_EQ(fs::path(deleted[0]).filename(), "oldest.snap");
  EXPECT_EQ(fs::path(deleted[1]).filename(), "older.snap");
  EXPECT_TRUE(fs::exists(dir / "new.snap"));
  EXPECT_TRUE(fs::exists(dir / "just_written.snap"));
  EXPECT_TRUE(fs::exists(dir / "converted.sqlite"));
  EXPECT_TRUE(fs::exists(dir / "x.snap.tmp"));
  // A budget of zero keeps only the one just written.
  EXPECT_EQ(PruneSnapshots(dir.path(), 0, dir / "just_written.snap").size(), 1u);
  EXPECT_TRUE(fs::exists(dir / "just_written.snap"));
  EXPECT_TRUE(PruneSnapshots(dir / "does-not-exist", 0, "").empty());
}

TEST(CacheBudget, SnapshotsOfTwoProfilesOverBudgetKeepTheLastUsed) {
  NSYS_REQUIRE_FIXTURES();
  TempDir dir;
  const std::string cache = dir / "cache";
  auto snapshots = [&] {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(cache))
      if (e.path().extension() == ".snap") out.push_back(e.path().filename().string());
    return out;
  };
  // Opens with the cache, loads everything, closes (which writes the snapshot); says whether it came from the cache.
  auto load_all = [&](const std::string& path, uint64_t budget) -> bool {
    OpenOptions options = TestOptions(cache);
    options.cache_budget_bytes = budget;
    auto p = OpenOrDie(path, options);
    if (!p) return false;
    EXPECT_TRUE(p->Require(kAllTables).ok());
    return p->info().from_cache;
  };
  // First the budget holds both.
  load_all(Fixture("mfu_2gpu_before.sqlite"), uint64_t{1} << 40);
  ASSERT_EQ(snapshots().size(), 1u);
  const std::string mfu_snap = snapshots()[0];
  load_all(Fixture("h100_2gpu_1s.sqlite"), uint64_t{1} << 40);
  ASSERT_EQ(snapshots().size(), 2u);
  const std::string h100_snap = snapshots()[0] == mfu_snap ? snapshots()[1] : snapshots()[0];
  const auto now = fs::file_time_type::clock::now();
  fs::last_write_time(fs::path(cache) / mfu_snap, now - std::chrono::seconds(200));
  fs::last_write_time(fs::path(cache) / h100_snap, now - std::chrono::seconds(100));
  // A warm reopen of the older one makes it the most recently used, so a prune removes the other.
  EXPECT_TRUE(load_all(Fixture("mfu_2gpu_before.sqlite"), uint64_t{1} << 40));
  const auto deleted = PruneSnapshots(cache, fs::file_size(fs::path(cache) / mfu_snap), "");
  ASSERT_EQ(deleted.size(), 1u);
  EXPECT_EQ(fs::path(deleted[0]).filename(), h100_snap);
  // A third profile written under a budget of one byte leaves only its own snapshot.
  load_all(Fixture("mock.sqlite"), 1);
  ASSERT_EQ(snapshots().size(), 1u);
  EXPECT_TRUE(load_all(Fixture("mock.sqlite"), 1)) << "the snapshot just written survives its own prune";
  EXPECT_FALSE(load_all(Fixture("h100_2gpu_1s.sqlite"), 1)) << "pruned snapshots are rebuilt from SQLite";
}

}  // namespace
}  // namespace nsys::engine
