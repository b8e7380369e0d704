// Transcript tests: each tests/transcripts/mcp/*.jsonl file is played against the real `nsys-ai mcp` binary over
// stdio (format: tests/transcripts/mcp/README.md). Also unit tests of the transcript matcher itself.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "mcp/child_process.h"
#include "mcp/read_file_util.h"
#include "mcp/transcript_match.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr auto kTranscriptReplyTimeout = 120s;  // a Debug build opening a profile on a busy 2-core machine

std::vector<std::string> TranscriptFiles() {
  std::vector<std::string> files;
  const fs::path dir = fs::path(NSYS_AI_TEST_DATA_DIR) / "transcripts" / "mcp";
  if (fs::is_directory(dir)) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().extension() == ".jsonl") files.push_back(entry.path().filename().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

class McpTranscriptTest : public ::testing::TestWithParam<std::string> {};

TEST(McpTranscriptFilesTest, TranscriptsExist) {
  EXPECT_GE(TranscriptFiles().size(), 2u) << "expected transcripts in tests/transcripts/mcp";
}

TEST_P(McpTranscriptTest, RealBinaryAnswersAsRecorded) {
  const fs::path file = fs::path(NSYS_AI_TEST_DATA_DIR) / "transcripts" / "mcp" / GetParam();
  const std::string text = ReadFile(file);
  if (text.find("${FIXTURES}") != std::string::npos) NSYS_REQUIRE_FIXTURES();
  ASSERT_TRUE(fs::exists(NSYS_AI_BINARY)) << "the nsys-ai binary is not built: " << NSYS_AI_BINARY;

  const std::map<std::string, std::string> vars = {{"SOURCE_DIR", NSYS_AI_SOURCE_DIR}, {"FIXTURES", FixturesDir()}};
  // A private cache directory: the transcript neither reads a warm cache from earlier runs nor leaves one behind.
  const fs::path scratch = fs::temp_directory_path() / ("nsys-ai-mcp-transcript-" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  const std::string stderr_path = (scratch / "stderr.log").string();

  std::vector<std::string> args = {NSYS_AI_BINARY, "mcp"};
  std::istringstream lines(text);
  std::string line;
  int line_number = 0;
  std::unique_ptr<ChildProcess> child;
  const auto child_log = [&]() { return "\n--- nsys-ai stderr ---\n" + ReadFile(stderr_path); };

  while (std::getline(lines, line)) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    const Json directive = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    ASSERT_TRUE(directive.is_object() && directive.size() == 1)
        << GetParam() << ":" << line_number << ": a line must be an object with one member: " << line;
    // Not a structured binding over items(): its proxy is a temporary, and key() would dangle (ASan caught it).
    const auto member = directive.begin();
    const std::string kind = member.key();
    const Json& value = member.value();
    const std::string where = GetParam() + ":" + std::to_string(line_number);

    if (kind == "args") {
      ASSERT_FALSE(child) << where << ": \"args\" must come before the first message";
      args = {NSYS_AI_BINARY};
      for (const auto& arg : Substitute(value, vars)) args.push_back(arg.get<std::string>());
      continue;
    }
    if (!child) {
      std::string error;
      child = ChildProcess::Start(args, {"XDG_CACHE_HOME=" + (scratch / "cache").string()}, stderr_path, &error);
      ASSERT_TRUE(child) << "cannot start " << NSYS_AI_BINARY << ": " << error;
    }
    if (kind == "send" || kind == "send_raw") {
      const std::string out = kind == "send" ? Substitute(value, vars).dump() : value.get<std::string>();
      ASSERT_TRUE(child->WriteLine(out)) << where << ": nsys-ai closed its input" << child_log();
    } else if (kind == "recv") {
      bool timed_out = false;
      const std::optional<std::string> reply = child->ReadLine(kTranscriptReplyTimeout, &timed_out);
      ASSERT_TRUE(reply) << where << ": "
                         << (timed_out ? "no reply within the timeout" : "nsys-ai closed its output (exited?)")
                         << "; is the `mcp` subcommand wired into the CLI?" << child_log();
      const Json actual = Json::parse(*reply, nullptr, /*allow_exceptions=*/false);
      ASSERT_FALSE(actual.is_discarded()) << where << ": the reply is not JSON: " << *reply;
      const std::string mismatch = Mismatch(Substitute(value, vars), actual);
      ASSERT_TRUE(mismatch.empty()) << where << ": " << mismatch << "\nfull reply: " << *reply;
    } else {
      FAIL() << where << ": unknown directive \"" << kind << "\" (args, send, send_raw, recv)";
    }
  }
  ASSERT_TRUE(child) << GetParam() << " sends nothing";
  // End of input ends the server, with nothing more on stdout.
  child->CloseStdin();
  bool timed_out = false;
  const std::optional<std::string> extra = child->ReadLine(30s, &timed_out);
  EXPECT_FALSE(extra) << "unexpected output after the transcript: " << *extra;
  EXPECT_FALSE(timed_out) << "nsys-ai did not close its output after stdin closed" << child_log();
  EXPECT_EQ(child->Wait(30s), std::optional<int>(0)) << child_log();
  fs::remove_all(scratch);
}

INSTANTIATE_TEST_SUITE_P(Transcripts, McpTranscriptTest, ::testing::ValuesIn(TranscriptFiles()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param.substr(0, param_info.param.find('.'));
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(McpTranscriptTest);

// The matcher must itself be able to fail, or the transcripts prove nothing.
TEST(TranscriptMatchTest, ExactValuesAndPlaceholders) {
  const Json actual = Json::parse(R"({"a":1,"b":"hello world","c":[1.5,true,null],"d":{"e":"x"}})");
  EXPECT_EQ(Mismatch(actual, actual), "");
  EXPECT_EQ(
      Mismatch(Json::parse(R"({"a":"${NUMBER}","b":"${CONTAINS:lo wo}","c":"${ANY}","d":{"e":"${STRING}"}})"), actual),
      "");
  EXPECT_EQ(Mismatch(Json::parse(R"({"a":2,"b":"hello world","c":[1.5,true,null],"d":{"e":"x"}})"), actual),
            "$.a: expected 2, got 1");
  EXPECT_EQ(Mismatch(Json::parse(R"({"a":1,"b":"${PREFIX:world}","c":"${ANY}","d":"${ANY}"})"), actual),
            "$.b: expected a string starting with \"world\", got \"hello world\"");
  EXPECT_EQ(Mismatch(Json::parse(R"({"a":1,"b":"${ANY}","c":[1.5,true],"d":"${ANY}"})"), actual),
            "$.c: expected 2 elements, got 3");
  EXPECT_EQ(Mismatch(Json::parse(R"({"a":1,"b":"${ANY}","c":"${ANY}"})"), actual),
            "$: unexpected member \"d\": {\"e\":\"x\"}");
  EXPECT_EQ(Mismatch(Json::parse(R"({"a":1,"b":"${ANY}","c":"${ANY}","d":"${ANY}","z":1})"), actual),
            "$: missing member \"z\"");
  EXPECT_EQ(Mismatch(Json::parse(R"({"$near":[28.8,0.05]})"), Json(28.78)), "");
  EXPECT_EQ(Mismatch(Json::parse(R"({"$near":[28.8,0.05]})"), Json(28.9)),
            "$: expected 28.800000 ± 0.050000, got 28.9");
}

TEST(TranscriptMatchTest, JsonInsideStringsAndSubstitution) {
  const Json actual = Json::parse(R"({"text":"{\"rows\":[[1,2]]}"})");
  EXPECT_EQ(Mismatch(Json::parse(R"({"text":{"$json":{"rows":[[1,2]]}}})"), actual), "");
  EXPECT_EQ(Mismatch(Json::parse(R"({"text":{"$json":{"rows":[[1,3]]}}})"), actual),
            "$.text(json).rows[0][1]: expected 3, got 2");
  EXPECT_EQ(Substitute(Json::parse(R"({"path":"${SOURCE_DIR}/x","${SOURCE_DIR}":["${SOURCE_DIR}"]})"),
                       {{"SOURCE_DIR", "/src"}}),
            Json::parse(R"({"path":"/src/x","/src":["/src"]})"));
}

}  // namespace
}  // namespace nsys::testing
