// User skills through the real binary: `nsys-ai skill run` stops an endless user skill at --skill-timeout,
// refuses the FTS3 tokenizer by name, and a shipped example still gives its numbers.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "skill_test_util.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct BinaryRun {
  int exit_code = -1;   // 128 + signal when killed
  bool killed = false;  // still running at the deadline
  std::string out, err;
  Clock::duration elapsed{};
};

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs the binary with stdout/stderr in files; kills it (SIGKILL) if it outlives `deadline`, so a regression to the
// old endless behaviour fails the test instead of hanging it.
BinaryRun RunBinary(const std::vector<std::string>& args, const fs::path& scratch, Clock::duration deadline) {
  const fs::path out = scratch / "stdout", err = scratch / "stderr";
  const auto t0 = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int devnull = open("/dev/null", O_RDONLY);
    dup2(devnull, 0), dup2(o, 1), dup2(e, 2);
    std::vector<char*> argv = {const_cast<char*>(NSYS_AI_BINARY)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  BinaryRun run;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (Clock::now() - t0 > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      run.killed = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  run.elapsed = Clock::now() - t0;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = Slurp(out);
  run.err = Slurp(err);
  return run;
}

class UserSkillCli : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    dir_ = fs::temp_directory_path() / ("nsys-ai-skill-cli-" + std::to_string(getpid()));
    fs::create_directories(dir_ / "skills");
    Write("endless.skill.json",
          R"js({"name": "endless", "description": "Never ends.",
                "sql": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS n FROM c"})js");
    Write("tokenizer.skill.json",
          R"js({"name": "tokenizer", "description": "Reads a pointer.",
                "sql": "SELECT hex(fts3_tokenizer('simple')) AS p"})js");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  void Write(const std::string& name, const std::string& text) { std::ofstream(dir_ / "skills" / name) << text; }
  BinaryRun SkillRun(const std::string& skill, std::vector<std::string> extra, Clock::duration deadline) {
    std::vector<std::string> args = {
        "skill", "run", skill, Fixture("h100_2gpu_1s.sqlite"), "--no-cache", "--skill-dir", (dir_ / "skills").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunBinary(args, dir_, deadline);
  }
  fs::path dir_;
};

TEST_F(UserSkillCli, EndlessSkillStopsAtTheTimeout) {
  const BinaryRun run = SkillRun("endless", {"--skill-timeout", "1"}, std::chrono::seconds(30));
  ASSERT_FALSE(run.killed) << "still running after 30 s";
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("User skill 'endless'"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("The query stopped after 1 s (its time budget; see --skill-timeout)."), std::string::npos)
      << run.err;
  // The budget plus the open of a 1 s fixture and process start-up, with slack for a loaded 2-core machine.
  EXPECT_GE(run.elapsed, std::chrono::seconds(1));
  EXPECT_LT(run.elapsed, std::chrono::seconds(1) + std::chrono::seconds(4));
}

TEST_F(UserSkillCli, BadTimeoutIsAUsageError) {
  for (const char* bad : {"0", "-1", "abc", "inf", "100000"}) {
    const BinaryRun run = SkillRun("endless", {"--skill-timeout", bad}, std::chrono::seconds(30));
    EXPECT_EQ(run.exit_code, 2) << bad << ": " << run.err;
    EXPECT_NE(run.err.find("--skill-timeout"), std::string::npos) << run.err;
  }
}

TEST_F(UserSkillCli, TokenizerIsRefusedByName) {
  const BinaryRun run = SkillRun("tokenizer", {}, std::chrono::seconds(30));
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("it calls fts3_tokenizer(), which is not among the functions user queries may call"),
            std::string::npos)
      << run.err;
}

TEST_F(UserSkillCli, ShippedExampleStillGivesItsNumbers) {
  std::vector<std::string> args = {"skill",
                                   "run",
                                   "memcpy_by_stream",
                                   Fixture("h100_2gpu_1s.sqlite"),
                                   "--no-cache",
                                   "--skill-dir",
                                   (fs::path(NSYS_AI_SOURCE_DIR) / "skills" / "examples").string(),
                                   "--skill-timeout",
                                   "5",
                                   "--format",
                                   "json"};
  const BinaryRun run = RunBinary(args, dir_, std::chrono::seconds(60));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto json = nlohmann::json::parse(run.out);
  int64_t copies = 0;
  size_t copies_column = 0;
  for (size_t c = 0; c < json["columns"].size(); ++c) {
    if (json["columns"][c]["name"] == "copies") copies_column = c;
  }
  for (const auto& row : json["rows"]) copies += row[copies_column].get<int64_t>();
  EXPECT_EQ(copies, 904);  // fixtures/README: 904 memcpys
}

}  // namespace
}  // namespace nsys::testing
