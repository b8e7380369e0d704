// Every tests/transcripts/*.transcript, against the real binary, over stdio and over TCP.
#include "transcript.h"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "fixtures.h"

namespace nsys::testing {
namespace {

struct Case {
  std::string file;
  TransportKind transport;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const auto& file : TranscriptFiles()) {
    Transcript transcript;
    std::string error;
    const bool parsed = ParseTranscript(file, transcript, error);  // a bad one runs (and fails) on both
    if (!parsed || transcript.only != "tcp") cases.push_back({file, TransportKind::kStdio});
    if (!parsed || transcript.only != "stdio") cases.push_back({file, TransportKind::kTcp});
  }
  return cases;
}

void PrintTo(const Case& c, std::ostream* os) {
  *os << std::filesystem::path(c.file).filename().string()
      << (c.transport == TransportKind::kStdio ? " over stdio" : " over TCP");
}

class TranscriptTest : public ::testing::TestWithParam<Case> {};

TEST_P(TranscriptTest, Passes) {
  Transcript transcript;
  std::string error;
  ASSERT_TRUE(ParseTranscript(GetParam().file, transcript, error)) << error;
  if (transcript.needs_fixtures) NSYS_REQUIRE_FIXTURES();
  const std::string problem = RunTranscript(transcript, GetParam().transport);
  EXPECT_TRUE(problem.empty()) << GetParam().file << ":\n" << problem;
}

INSTANTIATE_TEST_SUITE_P(Transcripts, TranscriptTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& param_info) {
                           const Case& c = param_info.param;
                           std::string name = std::filesystem::path(c.file).stem().string();
                           for (auto& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name + (c.transport == TransportKind::kStdio ? "_stdio" : "_tcp");
                         });

TEST(TranscriptFormat, MatchingRules) {
  EXPECT_TRUE(JsonMatches(Json::parse(R"({"a":1})"), Json::parse(R"({"a":1,"b":2})")));
  EXPECT_FALSE(JsonMatches(Json::parse(R"({"a":1,"c":3})"), Json::parse(R"({"a":1,"b":2})")));
  EXPECT_TRUE(JsonMatches(Json::parse(R"({"a":"${ANY}"})"), Json::parse(R"({"a":[1,2]})")));
  EXPECT_FALSE(JsonMatches(Json::parse(R"({"a":"${ANY}"})"), Json::parse(R"({"b":1})")));
  EXPECT_TRUE(JsonMatches(Json::parse(R"(["${CONTAINS}foo"])"), Json::parse(R"(["a foo b"])")));
  EXPECT_FALSE(JsonMatches(Json::parse(R"(["${CONTAINS}foo"])"), Json::parse(R"(["bar"])")));
  EXPECT_FALSE(JsonMatches(Json::parse(R"([1])"), Json::parse(R"([1,2])")));
  EXPECT_TRUE(JsonMatches(Json::parse(R"([{"id":0},{"id":1}])"), Json::parse(R"([{"id":0,"x":5},{"id":1}])")));
  EXPECT_FALSE(JsonMatches(Json::parse(R"({"id":null})"), Json::parse(R"({"id":0})")));
  EXPECT_TRUE(JsonMatches(Json::parse(R"(1.0)"), Json::parse(R"(1)")));
}

TEST(TranscriptFormat, ThereAreTranscripts) {
  EXPECT_GE(TranscriptFiles().size(), 5u);
}

}  // namespace
}  // namespace nsys::testing
