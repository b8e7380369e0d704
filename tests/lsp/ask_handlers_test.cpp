// nsys/ask through the real dispatcher and Workspace: the answer shape on the wire, the Markdown streamed as
// partial results when the client gives a partialResultToken, follow-ups by conversationId, bad params.
#include <gtest/gtest.h>

#include <string>

#include "fixtures.h"
#include "in_memory_client.h"

namespace nsys::testing {
namespace {

TEST(AskHandlers, StreamsTheMarkdownThenAnswersWithEvidence) {
  NSYS_REQUIRE_FIXTURES();
  InMemoryClient client;
  client.Initialize();
  const Json open = client.AwaitReply(client.Request("nsys/openProfile", {{"path", Fixture("mock.sqlite")}}));
  const std::string id = open["result"]["profileId"];
  const Json reply = client.AwaitReply(client.Request(
      "nsys/ask",
      {{"profileId", id}, {"question", "Which kernel takes the most GPU time?"}, {"partialResultToken", "ask-1"}}));
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  const Json& answer = reply["result"]["answer"];
  // mock.sqlite: the reduce_kernel instance runs 2,689 ns of the 4,129 ns of kernel time (65.1%), as gpukernsum says.
  EXPECT_NE(answer["summary"].get<std::string>().find("2.689 µs"), std::string::npos) << answer.dump();
  EXPECT_NE(answer["summary"].get<std::string>().find("65.1%"), std::string::npos) << answer.dump();
  EXPECT_EQ(answer["confidence"], "high");
  EXPECT_EQ(reply["result"]["skillsUsed"], Json::array({"event_stats"}));
  std::string streamed;
  size_t pieces = 0;
  for (const auto& m : client.ReceivedMatching(
           [](const Json& m) { return m.value("method", "") == "$/progress" && m["params"]["token"] == "ask-1"; })) {
    streamed += m["params"]["value"]["text"].get<std::string>();
    ++pieces;
  }
  EXPECT_GT(pieces, 1u);
  EXPECT_EQ(streamed, answer["markdown"]);

  const Json follow = client.AwaitReply(client.Request(
      "nsys/ask", {{"profileId", id}, {"question", "why?"}, {"conversationId", reply["result"]["conversationId"]}}));
  ASSERT_TRUE(follow.contains("result")) << follow.dump();
  EXPECT_EQ(follow["result"]["conversationId"], reply["result"]["conversationId"]);
  EXPECT_FALSE(follow["result"]["skillsUsed"].empty());

  const Json empty = client.AwaitReply(client.Request("nsys/ask", {{"profileId", id}, {"question", ""}}));
  EXPECT_EQ(empty["error"]["code"], -32602) << empty.dump();
  const Json unknown = client.AwaitReply(client.Request("nsys/ask", {{"profileId", "p99"}, {"question", "top?"}}));
  EXPECT_TRUE(unknown.contains("error")) << unknown.dump();
  const Json missing = client.AwaitReply(client.Request("nsys/ask", {{"profileId", id}}));
  EXPECT_EQ(missing["error"]["code"], -32602) << missing.dump();
}

// nsys/query: typed questions answered by the executor of ask, the reading first; a bad Query is -32602 by its path.
TEST(QueryHandler, AnswersTypedQueriesAndRefusesABadOneByItsPath) {
  NSYS_REQUIRE_FIXTURES();
  InMemoryClient client;
  client.Initialize();
  const Json open = client.AwaitReply(client.Request("nsys/openProfile", {{"path", Fixture("h100_2gpu_1s.sqlite")}}));
  const std::string id = open["result"]["profileId"];
  const Json query = {{"measures", {"count", "max"}},
                      {"subject", {{"events", "api"}, {"name", "cudaStreamSynchronize"}}}};
  const Json reply = client.AwaitReply(client.Request("nsys/query", {{"profileId", id}, {"queries", {query}}}));
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  const std::string summary = reply["result"]["answer"]["summary"];
  // h100_2gpu_1s: 8 cudaStreamSynchronize calls, the longest 428,468,918 ns (the event_stats golden test's SQL).
  EXPECT_EQ(summary.rfind("Read as: count and longest duration of CUDA API calls whose name contains "
                          "`cudaStreamSynchronize`",
                          0),
            0u)
      << summary;
  EXPECT_NE(summary.find("8 calls"), std::string::npos) << summary;
  EXPECT_NE(summary.find("428.469 ms"), std::string::npos) << summary;
  EXPECT_EQ(reply["result"]["skillsUsed"], Json::array({"event_stats"}));
  const Json bad = client.AwaitReply(client.Request(
      "nsys/query",
      {{"profileId", id}, {"queries", {{{"measures", {"mean"}}, {"subject", {{"events", "kernels"}}}}}}}));
  EXPECT_EQ(bad["error"]["code"], -32602) << bad.dump();
  EXPECT_NE(bad["error"]["message"].get<std::string>().find("queries[0].measures[0]: unknown measure 'mean'"),
            std::string::npos)
      << bad.dump();
}

}  // namespace
}  // namespace nsys::testing
