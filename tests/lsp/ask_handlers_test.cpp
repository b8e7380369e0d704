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
  EXPECT_EQ(reply["result"]["skillsUsed"], Json::array({"top_kernels"}));
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

}  // namespace
}  // namespace nsys::testing
