// Architecture Invariant: the user's file and its directory are never written. The fixtures are copied into a
// writable directory (so that a write would succeed if the engine tried one), then opened, fully loaded and
// queried (including refused writes), and closed; the bytes, the mtime and the directory listing must not change.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::Fixture;
using ::nsys::testing::TempDir;
using ::nsys::testing::TestOptions;
namespace fs = std::filesystem;

struct Entry {
  std::string name;
  uintmax_t size;
  int64_t mtime_ns;
  bool operator==(const Entry&) const = default;
};

// The entries of `dir` by name, with their sizes and mtimes: what opening the exports must not change.
std::vector<Entry> Snapshot(const std::string& dir) {
  std::vector<Entry> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    struct stat st {};
    stat(e.path().c_str(), &st);
    out.push_back(Entry{e.path().filename().string(), static_cast<uintmax_t>(st.st_size),
                        int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec});
  }
  std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  return out;
}

TEST(ReadOnly, EveryFixtureIsLeftUntouched) {
  NSYS_REQUIRE_FIXTURES();
  TempDir dir;
  const std::string data = dir / "data";
  fs::create_directories(data);
  std::map<std::string, std::string> before;
  for (const auto& e : fs::directory_iterator(testing::FixturesDir())) {
    if (e.path().extension() != ".sqlite") continue;
    const std::string copy = data + "/" + e.path().filename().string();
    fs::copy_file(e.path(), copy);
    fs::permissions(copy, fs::perms::owner_read | fs::perms::owner_write);  // writable, unlike /work/shared
    before[copy] = testing::ReadFile(copy);
  }
  ASSERT_EQ(before.size(), 9u);
  const std::vector<Entry> listing = Snapshot(data);
  for (const auto& [path, bytes] : before) {
    SCOPED_TRACE(path);
    OpenOptions options = TestOptions(dir / "cache");
    options.load_all_in_background = true;
    for (int round = 0; round < 2; ++round) {  // cold, then warm from the snapshot
      auto p = Profile::Open(path, options);
      if (!p.ok()) {
        EXPECT_NE(path.find("empty_export"), std::string::npos) << p.error().message;
        continue;
      }
      ASSERT_TRUE((*p)->Require(kAllTables).ok());
      EXPECT_TRUE((*p)->Query("SELECT count(*) FROM sqlite_master").ok());
      EXPECT_FALSE((*p)->Query("CREATE INDEX x ON StringIds(value)").ok());
      EXPECT_FALSE((*p)->Query("DELETE FROM StringIds").ok());
      EXPECT_FALSE((*p)->Query("SELECT 1; DROP TABLE StringIds").ok());
      EXPECT_FALSE((*p)->Query("WITH x AS (SELECT 1) INSERT INTO StringIds SELECT 99999999, 'x' FROM x").ok());
    }
  }
  EXPECT_EQ(Snapshot(data), listing) << "a file appeared, disappeared or changed next to the exports";
  for (const auto& [path, bytes] : before) EXPECT_TRUE(testing::ReadFile(path) == bytes) << path << " changed";
}

}  // namespace
}  // namespace nsys::engine
