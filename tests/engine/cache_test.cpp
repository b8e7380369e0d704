// The warm reopen snapshot: written after a full load, read back identical, ignored when stale or damaged.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

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

namespace nsys::engine {
namespace {

// The 6-byte big-endian form SQLite stores a 48-bit integer in (record serial type 5).
std::string Be48(int64_t v) {
  std::string out(6, '\0');
  for (int i = 5; i >= 0; --i, v >>= 8) out[static_cast<size_t>(i)] = static_cast<char>(v & 0xFF);
  return out;
}

// An in-place rewrite that keeps size, inode and mtime (`rsync --inplace -t`) must not bring the old numbers back. The
// edit is past the first 1 MB (outside the hashed head), so only the ctime and the sampled pages can tell.
TEST_F(CacheTest, InPlaceEditKeepingSizeInodeAndMtimeIsSeen) {
  Prime(copy_, cache_);
  ASSERT_EQ(Snapshots(cache_).size(), 1u);
  // An NVTX range whose `end` is stored exactly once in the file, beyond the first 1 MB.
  const std::string bytes = testing::ReadFile(copy_);
  int64_t old_end = 0;
  size_t at = std::string::npos;
  testing::Sql(copy_).Each(
      "SELECT \"end\" FROM NVTX_EVENTS WHERE \"end\" NOT NULL AND eventType IN (59, 60) "
      "ORDER BY rowid DESC LIMIT 200",
      [&](sqlite3_stmt* s) {
        if (at != std::string::npos) return;
        const int64_t end = sqlite3_column_int64(s, 0);
        const std::string needle = Be48(end);
        const size_t first = bytes.find(needle);
        if (first == std::string::npos || first < (1u << 20)) return;
        if (bytes.find(needle, first + 1) != std::string::npos) return;
        at = first;
        old_end = end;
      });
  ASSERT_NE(at, std::string::npos) << "no NVTX end stored once past 1 MB";
  int64_t old_total = 0;
  for (size_t i = 0; i < reference_->nvtx().size(); ++i)
    old_total += reference_->nvtx().end[i] - reference_->nvtx().start[i];

  struct stat before {};
  ASSERT_EQ(stat(copy_.c_str(), &before), 0);
  const int fd = open(copy_.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  const std::string patched = Be48(old_end + 1000);
  ASSERT_EQ(pwrite(fd, patched.data(), patched.size(), static_cast<off_t>(at)), 6);
  close(fd);
  const timespec times[2] = {before.st_atim, before.st_mtim};  // what `rsync -t` restores
  ASSERT_EQ(utimensat(AT_FDCWD, copy_.c_str(), times, 0), 0);
  struct stat after {};
  ASSERT_EQ(stat(copy_.c_str(), &after), 0);
  ASSERT_EQ(after.st_size, before.st_size);
  ASSERT_EQ(after.st_ino, before.st_ino);
  ASSERT_EQ(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
  ASSERT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);

  auto reopened = LoadAll(copy_, TestOptions(cache_));
  ASSERT_TRUE(reopened);
  EXPECT_FALSE(reopened->info().from_cache);
  int64_t new_total = 0;
  for (size_t i = 0; i < reopened->nvtx().size(); ++i) new_total += reopened->nvtx().end[i] - reopened->nvtx().start[i];
  EXPECT_EQ(new_total, old_total + 1000);  // the new numbers, not the snapshot's
}

// The snapshot was once written to "<snap>.tmp.<pid>.<n>" through whatever was there, so a link planted at that
// name made the snapshot overwrite the link's target. Now the temporary is a fresh random name (O_EXCL|O_NOFOLLOW) in
// the cache directory made this user's with mode 0700, and the snapshot is 0600.
TEST_F(CacheTest, LinksPlantedAtTheOldTemporaryNamesAreNeverFollowedAndTheSnapshotIsPrivate) {
  Prime(copy_, cache_);
  const auto first = Snapshots(cache_);
  ASSERT_EQ(first.size(), 1u);
  fs::remove(first[0]);
  fs::permissions(cache_, fs::perms::all);  // 0777: ours, but too wide; it is narrowed
  const std::string victim = dir_ / "victim.txt";
  std::ofstream(victim) << "precious";
  for (int n = 0; n < 200; ++n)
    fs::create_symlink(victim, first[0] + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(n));
  Prime(copy_, cache_);
  std::ifstream in(victim);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "precious");
  ASSERT_EQ(Snapshots(cache_), first);
  EXPECT_EQ(fs::symlink_status(first[0]).type(), fs::file_type::regular);
  EXPECT_EQ(fs::status(first[0]).permissions() & fs::perms::mask, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(fs::status(cache_).permissions() & fs::perms::mask, fs::perms::owner_all);
  auto warm = OpenOrDie(copy_, TestOptions(cache_));
  ASSERT_TRUE(warm);
  EXPECT_TRUE(warm->info().from_cache);
}

// A cache directory of another user's is neither read nor written: the profile opens cold and leaves nothing there.
TEST_F(CacheTest, AnotherUsersCacheDirectoryIsNotUsed) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a directory to another user";
  fs::create_directories(cache_);
  fs::permissions(cache_, fs::perms::all);
  ASSERT_EQ(::chown(cache_.c_str(), 65534, 65534), 0);
  auto p = LoadAll(copy_, TestOptions(cache_));
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->info().from_cache);
  p.reset();
  EXPECT_TRUE(fs::is_empty(cache_));
}

}  // namespace
}  // namespace nsys::engine
