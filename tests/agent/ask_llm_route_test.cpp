// Workspace::Ask with an LLM configured: the question goes to the model (the stand-in, over the real libcurl client)
// with the profile's skills as tools, the answer carries the rows of the calls it made, and a follow-up in the same
// conversation carries the exchange so far. Without an LLM the offline mapper answers (used_llm false).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fixtures.h"
#include "llm/standin.h"
#include "nsys/core/workspace.h"

namespace nsys::agent {
namespace {

using nlohmann::json;
using testing::Fixture;
using testing::HaveFixtures;
using testing::Standin;

core::WorkspaceConfig ConfigWith(const llm::Config& llm) {
  core::WorkspaceConfig config;
  config.open.use_cache = false;  // also: no answer cache, so every ask reaches the stand-in
  config.default_skill_dirs = false;
  config.llm = llm;
  return config;
}

TEST(AskLlmRoute, TheModelAnswersWithSkillsAndFollowUpsKeepTheExchange) {
  if (!HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  Standin standin({{"responses",
                    {{{"tool_calls", {{{"name", "top_kernels"}, {"arguments", {"{\"limit\": 2}"}}}}}},
                     {{"text", {"The gemm kernel leads."}}},
                     {{"text", {"On device 1 as well."}}}}}});
  core::Workspace ws(ConfigWith(standin.Config(llm::Provider::kOpenAI)));
  auto opened = ws.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened) << opened.error().message;
  std::string streamed;
  auto first = ws.Ask(core::AskRequest{opened->id, "Which kernel takes the most GPU time?", ""},
                      [&](const std::string& text) { streamed += text; });
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_TRUE(first->used_llm);
  EXPECT_EQ(first->answer.summary, "The gemm kernel leads.");
  EXPECT_EQ(streamed, "The gemm kernel leads.");
  EXPECT_EQ(first->skills_used, (std::vector<std::string>{"top_kernels"}));
  ASSERT_EQ(first->answer.evidence.size(), 1u);
  auto direct = ws.RunSkill(opened->id, "top_kernels", {{"limit", Value{int64_t{2}}}});
  ASSERT_TRUE(direct);
  EXPECT_EQ(first->answer.evidence[0].rows, direct->rows);
  EXPECT_EQ(first->answer.verify, "nsys-ai skill run top_kernels " + Fixture("h100_2gpu_1s.sqlite") + " --arg limit=2");
  // The system prompt carried the profile's orientation.
  const auto requests = standin.Requests();
  ASSERT_EQ(requests.size(), 2u);
  const std::string system = requests[0]["body"]["messages"][0]["content"];
  EXPECT_NE(system.find("GPU 0"), std::string::npos) << system;
  EXPECT_NE(system.find("Top kernels by GPU time"), std::string::npos) << system;

  auto second = ws.Ask(core::AskRequest{opened->id, "and on device 1?", first->conversation_id}, {});
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(second->conversation_id, first->conversation_id);
  EXPECT_EQ(second->answer.summary, "On device 1 as well.");
  const json sent = standin.Requests().at(2)["body"]["messages"];
  ASSERT_GE(sent.size(), 5u);
  EXPECT_EQ(sent[sent.size() - 1]["content"], "and on device 1?");
  EXPECT_EQ(sent[sent.size() - 2]["content"], "The gemm kernel leads.");
}

// Through the Workspace, as every face asks: the model's Query is answered by the executor on the open profile, and
// the answer is the executor's reading and figures with the model's paragraph after them (SQL: device 0 runs 1,721
// kernels). The model's name labels its paragraph.
TEST(AskLlmRoute, TheModelsQueriesAreAnsweredByTheExecutorOnTheOpenProfile) {
  if (!HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  const std::string query =
      R"({"queries": [{"measures": ["count"], "subject": {"events": "kernels"}, "scope": {"devices": [0]}}]})";
  Standin standin({{"responses",
                    {{{"tool_calls", {{{"name", "query"}, {"arguments", {query}}}}}},
                     {{"text", {"Device 0 ran 1,721 kernels."}}}}}});
  core::Workspace ws(ConfigWith(standin.Config(llm::Provider::kOpenAI)));
  auto opened = ws.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened) << opened.error().message;
  std::string streamed;
  auto a = ws.Ask(core::AskRequest{opened->id, "How many kernels ran on GPU 0?", ""},
                  [&](const std::string& text) { streamed += text; });
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_TRUE(a->used_llm);
  // Nothing of the model's is streamed before its numbers are checked: the stream is the answer, whole.
  EXPECT_EQ(streamed, a->answer.summary);
  EXPECT_EQ(a->answer.summary.rfind("Read as: count of kernels, on device 0.\n1,721 kernels", 0), 0u)
      << a->answer.summary;
  EXPECT_NE(a->answer.summary.find("**AI (" + standin.Config(llm::Provider::kOpenAI).model +
                                   "):** Device 0 ran 1,721 kernels."),
            std::string::npos)
      << a->answer.summary;
  ASSERT_EQ(a->answer.evidence.size(), 1u);
  EXPECT_EQ(a->answer.evidence[0].call.skill, "event_stats");
  EXPECT_EQ(a->answer.confidence, agent::Confidence::kHigh);
}

TEST(AskLlmRoute, AnUnreachableModelIsAClearErrorAndTheWorkspaceKeepsServing) {
  if (!HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  llm::Config llm;
  llm.provider = llm::Provider::kOpenAI;
  llm.model = "m";
  llm.base_url = "http://127.0.0.1:9/v1";  // discard port: nothing listens
  llm.max_retries = 0;
  core::Workspace ws(ConfigWith(llm));
  auto opened = ws.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened);
  auto a = ws.Ask(core::AskRequest{opened->id, "Which kernel takes the most GPU time?", ""}, {});
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("127.0.0.1:9"), std::string::npos) << a.error().message;
  auto skill = ws.RunSkill(opened->id, "top_kernels", {});
  EXPECT_TRUE(skill);
}

}  // namespace
}  // namespace nsys::agent
