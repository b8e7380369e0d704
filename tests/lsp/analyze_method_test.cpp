// nsys/analyze through the dispatcher on real exports: the typed result, findings streamed as partial results with
// the ranking in the final answer, progress, and bad params.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "fixtures.h"
#include "in_memory_client.h"
#include "nsys/agent/book.h"
#include "nsys/protocol/analyze.h"

namespace nsys::testing {
namespace {

std::string OpenFixture(InMemoryClient& client, const std::string& name) {
  const Json reply = client.AwaitReply(client.Request("nsys/openProfile", {{"path", Fixture(name)}}));
  return reply["result"]["profileId"];
}

TEST(AnalyzeMethod, ReturnsRankedFindingsInTheAnswerShape) {
  NSYS_REQUIRE_FIXTURES();
  InMemoryClient client(NoCache());
  client.Initialize();
  const std::string id = OpenFixture(client, "mfu_2gpu_before.sqlite");
  const Json reply = client.AwaitReply(client.Request("nsys/analyze", {{"profileId", id}, {"workDoneToken", "an-1"}}));
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  auto result = protocol::Parse<protocol::AnalyzeResult>(reply["result"], "result");
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_FALSE(result->findings.empty());
  EXPECT_FALSE(result->streamed_findings);
  bool nccl = false;
  std::set<std::string> symptoms;
  for (const auto& rc : agent::BuiltinBook().root_causes) {
    if (rc.symptom) symptoms.insert(rc.id);
  }
  for (size_t i = 0; i < result->findings.size(); ++i) {
    const auto& f = result->findings[i];
    EXPECT_EQ(result->ranking[i], f.root_cause);
    // By time at stake, symptoms (where time went, not why) after the causes of at least medium severity.
    if (i > 0 && symptoms.count(result->findings[i - 1].root_cause) == symptoms.count(f.root_cause)) {
      EXPECT_GE(result->findings[i - 1].at_stake_ns, f.at_stake_ns);
    }
    if (i > 0) EXPECT_FALSE(symptoms.count(result->findings[i - 1].root_cause) && !symptoms.count(f.root_cause));
    EXPECT_FALSE(f.answer.markdown.empty());
    EXPECT_EQ(f.answer.verify.rfind("nsys-ai skill run " + f.skill + " ", 0), 0u) << f.answer.verify;
    if (f.root_cause == "serialized_nccl") {
      nccl = true;
      EXPECT_EQ(f.at_stake_ns, 25'401'752);
      EXPECT_EQ(f.severity, "medium");
      EXPECT_EQ(f.answer.confidence, "high");
    }
  }
  EXPECT_TRUE(nccl);
  EXPECT_NE(result->markdown.find("# nsys-ai analyze"), std::string::npos);
  EXPECT_GE(result->root_causes_checked, 14);
  // Progress went out on the client's token (reports are rate-limited, so a fast run may show only begin and end).
  std::vector<std::string> kinds;
  for (const auto& m : client.ReceivedMatching(
           [](const Json& m) { return m.value("method", "") == "$/progress" && m["params"]["token"] == "an-1"; })) {
    const Json& v = m["params"]["value"];
    kinds.push_back(v.value("kind", ""));
    if (kinds.back() == "begin") EXPECT_EQ(v["title"], "Analyzing");
    if (kinds.back() == "report" && v.contains("message"))
      EXPECT_EQ(v["message"].get<std::string>().rfind("Checking ", 0), 0u);
  }
  ASSERT_GE(kinds.size(), 2u);
  EXPECT_EQ(kinds.front(), "begin");
  EXPECT_EQ(kinds.back(), "end");
}

TEST(AnalyzeMethod, StreamsEachFindingAndTheResultCarriesOnlyTheRanking) {
  NSYS_REQUIRE_FIXTURES();
  InMemoryClient client(NoCache());
  client.Initialize();
  const std::string id = OpenFixture(client, "mfu_2gpu_before.sqlite");
  const Json reply =
      client.AwaitReply(client.Request("nsys/analyze", {{"profileId", id}, {"partialResultToken", "find-1"}}));
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  const Json& result = reply["result"];
  EXPECT_TRUE(result["findings"].empty());
  std::set<std::string> streamed;
  for (const auto& m : client.ReceivedMatching(
           [](const Json& m) { return m.value("method", "") == "$/progress" && m["params"]["token"] == "find-1"; })) {
    auto part = protocol::Parse<protocol::AnalyzePartialResult>(m["params"]["value"], "value");
    ASSERT_TRUE(part) << part.error().message;
    ASSERT_EQ(part->findings.size(), 1u);
    streamed.insert(part->findings[0].root_cause);
  }
  EXPECT_EQ(result["streamedFindings"], streamed.size());
  std::set<std::string> ranked(result["ranking"].begin(), result["ranking"].end());
  EXPECT_EQ(ranked, streamed);
}

TEST(AnalyzeMethod, BadParamsAndUnknownProfilesAreClearErrors) {
  NSYS_REQUIRE_FIXTURES();
  InMemoryClient client(NoCache());
  client.Initialize();
  const Json missing = client.AwaitReply(client.Request("nsys/analyze", Json::object()));
  EXPECT_EQ(missing["error"]["code"], -32602);
  EXPECT_EQ(missing["error"]["message"], "params.profileId: missing required field");
  const Json unknown = client.AwaitReply(client.Request("nsys/analyze", {{"profileId", "p42"}}));
  EXPECT_EQ(unknown["error"]["code"], -32602) << unknown.dump();
  EXPECT_NE(unknown["error"]["message"].get<std::string>().find("p42"), std::string::npos);
  const std::string id = OpenFixture(client, "mfu_2gpu_before.sqlite");
  const Json window = client.AwaitReply(
      client.Request("nsys/analyze", {{"profileId", id}, {"window", {{"start", 5.0}, {"end", 6.0}}}}));
  ASSERT_TRUE(window.contains("error")) << window.dump();
  EXPECT_EQ(window["error"]["code"], -32602);
}

}  // namespace
}  // namespace nsys::testing
