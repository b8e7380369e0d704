#include "nsys/support/redact.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "nsys/support/log.h"

namespace nsys::support {
namespace {

TEST(RedactSecrets, JsonMembersNamedLikeSecrets) {
  EXPECT_EQ(RedactSecrets(R"({"initializationOptions":{"token":"0123abcd","noCache":true}})"),
            R"({"initializationOptions":{"token":"[redacted]","noCache":true}})");
  EXPECT_EQ(RedactSecrets(R"({"llm": {"apiKey" : "sk-1", "model": "m", "X-Api-Key":"k\"q"}})"),
            R"({"llm": {"apiKey" : "[redacted]", "model": "m", "X-Api-Key":"[redacted]"}})");
  // A preview cut inside the value hides the rest.
  EXPECT_EQ(RedactSecrets(R"({"token":"0123abcd... (900 bytes))"), R"({"token":"[redacted]")");
  EXPECT_EQ(RedactSecrets(R"({"name":"token","count":3})"), R"({"name":"token","count":3})");
}

TEST(RedactSecrets, UrlsHeadersAndParameters) {
  EXPECT_EQ(RedactSecrets("could not reach http://alice:pw@host:80/v1 now"),
            "could not reach http://[redacted]@host:80/v1 now");
  EXPECT_EQ(RedactSecrets("POST https://h/v1?key=abc&x=1#f"), "POST https://h/v1?key=[redacted]&x=1#f");
  EXPECT_EQ(RedactSecrets("GET /p?api_key=abc;token=def"), "GET /p?api_key=[redacted];token=[redacted]");
  EXPECT_EQ(RedactSecrets("token=abc next"), "token=[redacted] next");
  EXPECT_EQ(RedactSecrets("monkey=1 sort=key"), "monkey=1 sort=key");
  EXPECT_EQ(RedactSecrets("Authorization: Bearer sk-123\nnext"), "Authorization: [redacted]\nnext");
  EXPECT_EQ(RedactSecrets("x-api-key: sk-123"), "x-api-key: [redacted]");
  EXPECT_EQ(RedactSecrets("sent Bearer sk-123, then"), "sent Bearer [redacted], then");
  EXPECT_EQ(RedactSecrets("plain text, nothing secret: 3 ms"), "plain text, nothing secret: 3 ms");
}

TEST(RedactSecrets, LinearOnHostileText) {
  std::string hostile;
  for (int i = 0; i < 200000; ++i) hostile += "\"a\":\"";
  hostile += std::string(1 << 20, '=') + std::string(1 << 20, '@') + "://";
  const auto start = std::chrono::steady_clock::now();
  const std::string out = RedactSecrets(hostile);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_FALSE(out.empty());
}

class LogFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("nsys-log-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    SetLogLevel(LogLevel::kWarn);
  }
  std::filesystem::path dir_;
};

std::string Slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Log files are private (0600, also an existing one), never written through a symlink, and hold no token.
TEST_F(LogFileTest, CreatedPrivateNeverThroughASymlinkAndRedacted) {
  const auto path = dir_ / "server.log";
  const mode_t old_mask = ::umask(0);
  ASSERT_FALSE(SetLogFile(path.string()).has_value());
  ::umask(old_mask);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  SetLogLevel(LogLevel::kDebug);
  LogDebug(R"(<-- initialize (1) {"initializationOptions":{"token":"feedface00"}})");
  const auto existing = dir_ / "old.log";
  { std::ofstream(existing) << "before\n"; }
  ::chmod(existing.c_str(), 0644);
  ASSERT_FALSE(SetLogFile(existing.string()).has_value());
  ASSERT_EQ(::stat(existing.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  const auto victim = dir_ / "victim";
  { std::ofstream(victim) << "keep\n"; }
  const auto link = dir_ / "link.log";
  std::filesystem::create_symlink(victim, link);
  auto refused = SetLogFile(link.string());
  ASSERT_TRUE(refused.has_value());
  EXPECT_NE(refused->find("symbolic link"), std::string::npos) << *refused;
  LogError("after");
  ASSERT_FALSE(SetLogFile((dir_ / "last.log").string()).has_value());  // release old.log
  EXPECT_EQ(Slurp(victim), "keep\n");
  const std::string first = Slurp(path);
  EXPECT_NE(first.find(R"("token":"[redacted]")"), std::string::npos) << first;
  EXPECT_EQ(first.find("feedface00"), std::string::npos) << first;
  EXPECT_NE(Slurp(existing).find("after"), std::string::npos);
}

}  // namespace
}  // namespace nsys::support
