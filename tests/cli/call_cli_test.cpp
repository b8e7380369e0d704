// `nsys-ai call METHOD [FILE] [--params JSON]`: every method of the capability catalogue, sent to the binary's own
// LSP session in process, answers as it answers an editor.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_run.h"
#include "fixtures.h"
#include "nsys/protocol/capabilities.h"

namespace nsys::testing {
namespace {

using Json = nlohmann::json;

bool Mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Every row of the catalogue is a method the in-process session binds: with empty params each one answers, with a
// result or with its own error (invalid params, no such profile), never "method not found" (-32601).
TEST(Call, EveryCatalogueMethodReachesItsHandler) {
  size_t answered = 0;
  for (const auto& row : protocol::Capabilities()) {
    const auto run = RunCli({"--no-cache", "call", std::string(row.method), "--params", "{}"});
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << row.method << ": " << run.exit_code << "\n" << run.err;
    EXPECT_FALSE(Mentions(run.err, "(-32601)")) << row.method << ": " << run.err;
    if (run.exit_code == 1) {
      EXPECT_TRUE(Mentions(run.err, std::string("nsys-ai: ") + std::string(row.method) + " failed (")) << run.err;
    }
    ++answered;
  }
  EXPECT_GE(answered, 27u);
}

// The rows nsys/runSkill gives through `call` are the rows `skill run --format json` prints, and the profile named
// on the command line fills profileId.
TEST(Call, RunSkillGivesTheRowsSkillRunGives) {
  NSYS_REQUIRE_FIXTURES();
  const std::string profile = Fixture("h100_2gpu_1s.sqlite");
  const auto call = RunCli({"--no-cache", "call", "nsys/runSkill", profile, "--params",
                            R"({"skill": "top_kernels", "args": {"limit": 5}})"});
  ASSERT_EQ(call.exit_code, 0) << call.err;
  const auto skill =
      RunCli({"--no-cache", "skill", "run", "top_kernels", profile, "--arg", "limit=5", "--format", "json"});
  ASSERT_EQ(skill.exit_code, 0) << skill.err;
  const Json called = Json::parse(call.out);
  const Json run = Json::parse(skill.out);
  ASSERT_EQ(called["rows"].size(), 5u) << call.out;
  EXPECT_EQ(called["rows"], run["rows"]);
  EXPECT_EQ(called["columns"], run["columns"]);
}

// A method whose params are only the profile: its id comes from FILE, and the sample's two GPUs are in the summary.
TEST(Call, ProfileInfoOfTheProfileNamed) {
  NSYS_REQUIRE_FIXTURES();
  const auto call = RunCli({"--no-cache", "call", "nsys/profileInfo", Fixture("h100_2gpu_1s.sqlite")});
  ASSERT_EQ(call.exit_code, 0) << call.err;
  const Json info = Json::parse(call.out);
  EXPECT_EQ(info["info"]["devices"].size(), 2u) << call.out;
}

// Params from standard input, a bad params text, a method outside the catalogue and a profile id nobody opened: each
// says what was wrong, with the exit code of its kind.
TEST(Call, ErrorsSayWhatWasWrong) {
  NSYS_REQUIRE_FIXTURES();
  const auto from_stdin = RunCli({"--no-cache", "call", "nsys/listSkills", "--params", "-"}, "{}");
  ASSERT_EQ(from_stdin.exit_code, 0) << from_stdin.err;
  EXPECT_TRUE(Mentions(from_stdin.out, "\"top_kernels\"")) << from_stdin.out;
  const auto not_json = RunCli({"call", "nsys/listSkills", "--params", "{oops"});
  EXPECT_EQ(not_json.exit_code, 2);
  EXPECT_TRUE(Mentions(not_json.err, "--params is not JSON")) << not_json.err;
  const auto not_object = RunCli({"call", "nsys/listSkills", "--params", "[1]"});
  EXPECT_EQ(not_object.exit_code, 2);
  EXPECT_TRUE(Mentions(not_object.err, "--params must be a JSON object")) << not_object.err;
  const auto unknown = RunCli({"call", "nsys/noSuchMethod"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(Mentions(unknown.err, "'nsys/noSuchMethod' is not a method of the catalogue")) << unknown.err;
  EXPECT_TRUE(Mentions(unknown.err, "nsys/runSkill")) << unknown.err;
  const auto plumbing = RunCli({"call", "initialize"});
  EXPECT_EQ(plumbing.exit_code, 2) << plumbing.err;
  const auto no_profile =
      RunCli({"--no-cache", "call", "nsys/runSkill", "--params", R"({"profileId": "p99", "skill": "top_kernels"})"});
  EXPECT_EQ(no_profile.exit_code, 1);
  EXPECT_TRUE(Mentions(no_profile.err, "nsys-ai: nsys/runSkill failed (")) << no_profile.err;
  EXPECT_TRUE(Mentions(no_profile.err, "p99")) << no_profile.err;
}

}  // namespace
}  // namespace nsys::testing
