// The TCP token's default directory is nsys-ai's own: this user's with mode 0700. Before, a directory of
// another user's was accepted there when it was sticky (the rule for a --token-file the user chose, such as /tmp).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "nsys/transport/token_file.h"

namespace nsys::transport {
namespace {

namespace fs = std::filesystem;

class TokenDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "nsys-token-dir-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    if (const char* v = std::getenv("XDG_RUNTIME_DIR")) saved_ = v;
    ::setenv("XDG_RUNTIME_DIR", root_.c_str(), 1);
  }
  void TearDown() override {
    saved_ ? ::setenv("XDG_RUNTIME_DIR", saved_->c_str(), 1) : ::unsetenv("XDG_RUNTIME_DIR");
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  static unsigned ModeOf(const std::string& path) {
    struct stat st {};
    EXPECT_EQ(::lstat(path.c_str(), &st), 0);
    return st.st_mode & 07777;
  }
  std::string root_;
  std::optional<std::string> saved_;
};

TEST_F(TokenDir, OurDefaultDirectoryIsNarrowedTo0700) {
  const std::string dir = root_ + "/nsys-ai";
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
  ASSERT_EQ(::chmod(dir.c_str(), 0755), 0);
  TokenFile token;
  const std::string path = DefaultTokenPath(7777);
  ASSERT_EQ(fs::path(path).parent_path().string(), dir);
  auto written = token.Write(path, "abc");
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_EQ(ModeOf(dir), 0700u);
  EXPECT_EQ(ModeOf(path), 0600u);
}

TEST_F(TokenDir, AnotherUsersStickyDefaultDirectoryIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a directory to another user";
  const std::string dir = root_ + "/nsys-ai";
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  ASSERT_EQ(::chmod(dir.c_str(), 01777), 0);
  ASSERT_EQ(::chown(dir.c_str(), 65534, 65534), 0);
  TokenFile token;
  auto written = token.Write(DefaultTokenPath(7777), "abc");
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.error().message.find(dir), std::string::npos) << written.error().message;
  EXPECT_NE(written.error().message.find("uid 65534"), std::string::npos) << written.error().message;
  EXPECT_TRUE(fs::is_empty(dir));
}

}  // namespace
}  // namespace nsys::transport
