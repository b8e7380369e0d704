// Workspace limits for user skills: the skill timeout (config and per call) and the memo's byte budget.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "fixtures.h"
#include "nsys/core/workspace.h"
#include "workspace_test_util.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

class SkillDir {
 public:
  SkillDir() : path_(fs::temp_directory_path() / ("nsys_ai_core_limits_" + std::to_string(::getpid()))) {
    fs::create_directories(path_);
    std::ofstream(path_ / "endless.skill.json") << R"js({"name": "endless", "description": "Never ends.",
      "sql": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS n FROM c"})js";
    std::ofstream(path_ / "text_length.skill.json") << R"js({"name": "text_length", "description": "Echoes a length.",
      "args": [{"name": "text", "type": "string", "required": true}], "sql": "SELECT length(:text) AS n"})js";
  }
  ~SkillDir() { fs::remove_all(path_); }
  core::WorkspaceConfig Config() const {
    core::WorkspaceConfig config;
    config.default_skill_dirs = false;
    config.open.use_cache = false;
    config.skill_dirs = {path_.string()};
    return config;
  }

 private:
  fs::path path_;
};

TEST(SkillTimeout, ParsesSecondsWithinRange) {
  EXPECT_EQ(*core::ParseSkillTimeout("5"), milliseconds(5000));
  EXPECT_EQ(*core::ParseSkillTimeout("0.25"), milliseconds(250));
  EXPECT_EQ(*core::ParseSkillTimeout("86400"), core::kMaxSkillTimeout);
  EXPECT_EQ(*core::SkillTimeoutFromSeconds(0.0001), milliseconds(1));  // rounds up to the smallest budget
  for (const char* bad : {"", "0", "-1", "5s", "abc", "inf", "nan", "86401"}) {
    auto parsed = core::ParseSkillTimeout(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.error().kind, ErrorKind::kInvalidArgument);
    EXPECT_NE(parsed.error().message.find("skill timeout"), std::string::npos) << parsed.error().message;
  }
  EXPECT_EQ(core::WorkspaceConfig{}.skill_timeout, milliseconds(5000));
}

TEST(SkillTimeout, ConfigAndPerCallBudgetsStopAnEndlessSkill) {
  NSYS_REQUIRE_FIXTURES();
  SkillDir dir;
  core::WorkspaceConfig config = dir.Config();
  config.skill_timeout = milliseconds(400);
  core::Workspace workspace(config);
  auto opened = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  auto t0 = Clock::now();
  auto configured = workspace.RunSkill(opened->id, "endless", {});
  ASSERT_FALSE(configured.ok());
  EXPECT_EQ(configured.error().kind, ErrorKind::kLimitExceeded);
  EXPECT_NE(configured.error().message.find("stopped after 0.4 s (its time budget"), std::string::npos)
      << configured.error().message;
  EXPECT_LT(Clock::now() - t0, milliseconds(400 + 1000));
  // A session's own budget (initializationOptions.skillTimeoutSeconds) overrides the configured one.
  t0 = Clock::now();
  auto per_call = workspace.RunSkill(opened->id, "endless", {}, {}, {}, milliseconds(150));
  ASSERT_FALSE(per_call.ok());
  EXPECT_NE(per_call.error().message.find("stopped after 0.15 s"), std::string::npos) << per_call.error().message;
  EXPECT_LT(Clock::now() - t0, milliseconds(150 + 1000));
  EXPECT_EQ(MemoStats(workspace, opened->id)->results, 0u);  // failures are not remembered
}

// 100 calls with a 1 MB string argument used to add ~350 MB to the memo for good.
TEST(MemoBudget, BigArgumentCallsStayUnderTheBudget) {
  NSYS_REQUIRE_FIXTURES();
  SkillDir dir;
  core::WorkspaceConfig config = dir.Config();
  config.memo_budget_bytes = size_t{8} << 20;
  core::Workspace workspace(config);
  auto opened = workspace.Open(Fixture("mock.sqlite"));
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  for (int i = 0; i < 100; ++i) {
    std::string text(1'000'000, 'a');
    text[0] = static_cast<char>('0' + i % 10);
    text[1] = static_cast<char>('0' + i / 10);
    auto table = workspace.RunSkill(opened->id, "text_length", {{"text", Value(std::move(text))}});
    ASSERT_TRUE(table.ok()) << table.error().message;
    ASSERT_EQ(std::get<int64_t>(table->rows.at(0).at(0)), 1'000'000);
    const auto stats = MemoStats(workspace, opened->id);
    ASSERT_LE(stats->bytes, config.memo_budget_bytes) << "after call " << i;
  }
  const auto stats = MemoStats(workspace, opened->id);
  EXPECT_EQ(stats->max_bytes, size_t{8} << 20);
  EXPECT_GE(stats->results, 7u);
  EXPECT_LE(stats->results, 8u);
  EXPECT_EQ(core::WorkspaceConfig{}.memo_budget_bytes, size_t{128} << 20);
}

}  // namespace
}  // namespace nsys::testing
