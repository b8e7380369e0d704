// nsys/ask's params and result on the wire: field names, optional conversationId, errors naming the field.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "nsys/protocol/ask.h"

namespace nsys::protocol {
namespace {

TEST(AskTypes, ParamsReadAndRoundTrip) {
  auto p = Parse<AskParams>(Json{{"profileId", "p1"}, {"question", "top kernels?"}}, "params");
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->profile_id, "p1");
  EXPECT_FALSE(p->conversation_id);
  auto q = Parse<AskParams>(Json{{"profileId", "p1"}, {"question", "why?"}, {"conversationId", "c3"}}, "params");
  ASSERT_TRUE(q);
  EXPECT_EQ(q->conversation_id, "c3");
  EXPECT_EQ(Json(*q), (Json{{"profileId", "p1"}, {"question", "why?"}, {"conversationId", "c3"}}));

  auto missing = Parse<AskParams>(Json{{"profileId", "p1"}}, "params");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("params.question"), std::string::npos) << missing.error().message;
  auto wrong = Parse<AskParams>(Json{{"profileId", "p1"}, {"question", 5}}, "params");
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().kind, ErrorKind::kInvalidArgument);
}

TEST(AskTypes, ResultRoundTrips) {
  AskResult r;
  r.answer.summary = "The top kernel is `k` with 1.000 ms.";
  r.answer.confidence = "high";
  r.conversation_id = "c1";
  r.skills_used = {"top_kernels"};
  const Json j = r;
  EXPECT_EQ(j["conversationId"], "c1");
  EXPECT_EQ(j["skillsUsed"], Json::array({"top_kernels"}));
  EXPECT_EQ(j["usedLlm"], false);
  auto back = Parse<AskResult>(j, "result");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, r);
}

TEST(AskTypes, ToolArgsAreSnakeCase) {
  EXPECT_EQ(mcp::ArgNames<AskToolArgs>(), (std::vector<std::string>{"profile_id", "question", "conversation_id"}));
  auto a = Parse<AskToolArgs>(Json{{"profile_id", "p2"}, {"question", "q"}}, "arguments");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->profile_id, "p2");
  // Written under the tool's names too, not the params' (AskParams' writer would say profileId).
  EXPECT_EQ(Json(*a).dump(), R"({"profile_id":"p2","question":"q"})");
  a->conversation_id = "c1";
  EXPECT_EQ(Json(*a).dump(), R"({"conversation_id":"c1","profile_id":"p2","question":"q"})");
}

}  // namespace
}  // namespace nsys::protocol
