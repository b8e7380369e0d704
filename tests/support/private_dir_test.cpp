// support::PrivateDir, PrivateCacheDir and CreatePrivateFile: every cache and state directory is this user's with mode
// 0700, and temporaries are created fresh (O_EXCL|O_NOFOLLOW, 0600) at names nobody can plant.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "nsys/support/cache_dir.h"

namespace nsys::support {
namespace {

namespace fs = std::filesystem;

class PrivateDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "nsys-private-dir-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  static unsigned ModeOf(const std::string& path) {
    struct stat st {};
    EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
    return st.st_mode & 07777;
  }
  // Another user's uid, when this process may give a file away (root); nullopt otherwise.
  static std::optional<uid_t> OtherUser() {
    if (::geteuid() != 0) return std::nullopt;
    const passwd* nobody = ::getpwnam("nobody");
    return nobody ? nobody->pw_uid : 65534;
  }
  std::string root_;
};

TEST_F(PrivateDirTest, CreatesTheDirectoryAndItsMissingParentsWithMode0700WhateverTheUmask) {
  const mode_t old = ::umask(0);
  const std::string dir = root_ + "/a/b/nsys-ai";
  auto made = PrivateDir(dir + "/");
  ::umask(old);
  ASSERT_TRUE(made.ok()) << made.error().message;
  EXPECT_EQ(*made, dir);
  EXPECT_EQ(ModeOf(dir), 0700u);
  EXPECT_EQ(ModeOf(root_ + "/a"), 0700u);
  EXPECT_EQ(ModeOf(root_ + "/a/b"), 0700u);
  EXPECT_TRUE(PrivateDir(dir).ok());  // again: already right
}

TEST_F(PrivateDirTest, NarrowsAWiderModeOfOurOwnDirectory) {
  const std::string dir = root_ + "/wide";
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
  ASSERT_TRUE(PrivateDir(dir).ok());
  EXPECT_EQ(ModeOf(dir), 0700u);
  // A shared directory like /tmp (sticky) is refused, never narrowed, even when it is ours (root's /tmp).
  const std::string shared = root_ + "/shared";
  ASSERT_EQ(::mkdir(shared.c_str(), 0700), 0);
  ASSERT_EQ(::chmod(shared.c_str(), 01777), 0);
  auto refused = PrivateDir(shared);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("sticky"), std::string::npos) << refused.error().message;
  EXPECT_EQ(ModeOf(shared), 01777u);
}

TEST_F(PrivateDirTest, RefusesAnotherUsersDirectoryNamingItsOwnerAndMode) {
  const auto other = OtherUser();
  if (!other) GTEST_SKIP() << "needs root to give a directory to another user";
  const std::string dir = root_ + "/theirs";
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
  ASSERT_EQ(::chown(dir.c_str(), *other, *other), 0);
  auto made = PrivateDir(dir);
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.error().kind, ErrorKind::kBadInput);
  EXPECT_NE(made.error().message.find("'" + dir + "'"), std::string::npos) << made.error().message;
  EXPECT_NE(made.error().message.find("uid " + std::to_string(*other)), std::string::npos) << made.error().message;
  EXPECT_NE(made.error().message.find("mode 0777"), std::string::npos) << made.error().message;
  EXPECT_EQ(ModeOf(dir), 0777u);  // not ours to fix
}

TEST_F(PrivateDirTest, NeverFollowsASymlinkNorTakesAFile) {
  const std::string target = root_ + "/target";
  ASSERT_EQ(::mkdir(target.c_str(), 0755), 0);
  const std::string link = root_ + "/link";
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  auto made = PrivateDir(link);
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.error().message.find("symbolic link"), std::string::npos) << made.error().message;
  EXPECT_EQ(ModeOf(target), 0755u);  // the link's target was not touched

  const std::string file = root_ + "/file";
  std::ofstream(file) << "x";
  auto not_dir = PrivateDir(file);
  ASSERT_FALSE(not_dir.ok());
  EXPECT_NE(not_dir.error().message.find("not a directory"), std::string::npos) << not_dir.error().message;
}

// The reported case: HOME and XDG_CACHE_HOME unset, so the cache falls back to $TMPDIR/nsys-ai-UID, which another
// user made first with mode 0777. The cache is refused instead of used.
TEST_F(PrivateDirTest, TheTmpdirFallbackOwnedByAnotherUserIsRefused) {
  const auto other = OtherUser();
  if (!other) GTEST_SKIP() << "needs root to give a directory to another user";
  struct Env {
    std::string name;
    std::optional<std::string> old;
    explicit Env(std::string n) : name(std::move(n)) {
      if (const char* v = std::getenv(name.c_str())) old = v;
    }
    ~Env() { old ? ::setenv(name.c_str(), old->c_str(), 1) : ::unsetenv(name.c_str()); }
  } home("HOME"), xdg("XDG_CACHE_HOME"), tmp("TMPDIR");
  ::unsetenv("HOME");
  ::unsetenv("XDG_CACHE_HOME");
  ::setenv("TMPDIR", root_.c_str(), 1);
  const std::string fallback = root_ + "/nsys-ai-" + std::to_string(::getuid());
  ASSERT_EQ(ResolveCacheDir(""), fallback);
  ASSERT_EQ(::mkdir(fallback.c_str(), 0700), 0);
  ASSERT_EQ(::chmod(fallback.c_str(), 0777), 0);
  ASSERT_EQ(::chown(fallback.c_str(), *other, *other), 0);
  auto cache = PrivateCacheDir("", "spill");
  ASSERT_FALSE(cache.ok());
  EXPECT_NE(cache.error().message.find(fallback), std::string::npos) << cache.error().message;
  EXPECT_FALSE(fs::exists(fallback + "/spill"));
  auto temp = CreatePrivateFile(fallback, "x.");
  EXPECT_FALSE(temp.ok());
  EXPECT_TRUE(fs::is_empty(fallback));
}

TEST_F(PrivateDirTest, TemporaryFilesAreFreshPrivateAndNeverFollowAPlantedLink) {
  const std::string dir = root_ + "/cache";
  const std::string victim = root_ + "/victim";
  std::ofstream(victim) << "precious";
  std::set<std::string> names;
  for (int i = 0; i < 20; ++i) {
    auto file = CreatePrivateFile(dir, "snap.tmp.");
    ASSERT_TRUE(file.ok()) << file.error().message;
    EXPECT_EQ(fs::path(file->path).parent_path().string(), dir);
    EXPECT_EQ(fs::path(file->path).filename().string().rfind("snap.tmp.", 0), 0u) << file->path;
    EXPECT_EQ(ModeOf(file->path), 0600u);
    ASSERT_EQ(::write(file->fd, "ok", 2), 2);
    ::close(file->fd);
    names.insert(file->path);
    // Whatever is planted at a name that was handed out is never opened by a later call.
    ::unlink(file->path.c_str());
    ASSERT_EQ(::symlink(victim.c_str(), file->path.c_str()), 0);
  }
  EXPECT_EQ(names.size(), 20u);
  EXPECT_EQ(ModeOf(dir), 0700u);
  std::ifstream in(victim);
  std::string text;
  in >> text;
  EXPECT_EQ(text, "precious");
}

}  // namespace
}  // namespace nsys::support
